package mcphttp_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
)

// maxPostAllocs is what a tools/call POST of searchTool may allocate,
// handler and tool together (see BenchmarkHTTPCall): the tool's three, the
// call's context and result (as over stdio) and the response's
// Content-Type; with a session, its entry and the watch on the request's
// context (six); stateless, the request's own session (six). The session's
// answers go to the POST's reply as it is, without an adapter.
const maxPostAllocs = 12

// maxPost2026Allocs is maxPostAllocs for a request of revision 2026-07-28,
// which stands alone as a stateless one does. Its envelope and what the
// headers must match are read without a copy (scan2026), and its session's
// decoder makes room for the params' deeper _meta at once.
const maxPost2026Allocs = maxPostAllocs

// TestHTTPCallAllocs pins the allocations of a tools/call POST through the
// Streamable HTTP handler, so that a change that adds one is seen, and
// checks the answer.
func TestHTTPCallAllocs(t *testing.T) {
	const (
		call     = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_files","arguments":{"pattern":"*.go","limit":5}}}`
		want     = `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"found 3 files matching *.go (limit 5)"}]}}`
		call2026 = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"ExampleClient","version":"1.0.0"},"io.modelcontextprotocol/clientCapabilities":{}},"name":"search_files","arguments":{"pattern":"*.go","limit":5}}}`
		want2026 = `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"found 3 files matching *.go (limit 5)"}],"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"bench","version":"1.0.0"}}}}`
	)
	srv := runtime.NewServer("bench", "1.0.0")
	srv.AddTool(rttest.SearchTool())
	stateful := mcphttp.Handler(srv)
	for _, tc := range []struct {
		name      string
		h         http.Handler
		header    map[string]string
		call      string
		want      string
		maxAllocs int
	}{
		{"session", stateful, map[string]string{"MCP-Protocol-Version": "2025-11-25", "Mcp-Session-Id": initSession(t, stateful)}, call, want, maxPostAllocs},
		{"stateless", mcphttp.Handler(srv, mcphttp.WithStateless()), map[string]string{"MCP-Protocol-Version": "2025-11-25"}, call, want, maxPostAllocs},
		{"2026-07-28", stateful, map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "search_files"}, call2026, want2026, maxPost2026Allocs},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := new(resettableBody)
			req := httptest.NewRequest("POST", "http://127.0.0.1/mcp", nil)
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Content-Type", "application/json")
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			w := &keepWriter{h: http.Header{}}
			post := func() {
				body.Reset([]byte(tc.call))
				req.Body = body
				clear(w.h)
				w.status = 0
				w.body.Reset()
				tc.h.ServeHTTP(w, req)
			}
			post()
			if w.status != http.StatusOK || w.body.String() != tc.want {
				t.Fatalf("answer %d %s, want 200 %s", w.status, w.body.String(), tc.want)
			}
			if !allocsCounted {
				t.Log("the race detector allocates on its own; allocations not counted")
				return
			}
			for range 100 { // warm the pools
				post()
			}
			n := testing.AllocsPerRun(500, post)
			if n > float64(tc.maxAllocs) {
				t.Errorf("a tools/call POST allocates %.1f times, want at most %d", n, tc.maxAllocs)
			}
			t.Logf("%.1f allocations per POST", n)
		})
	}
}

// resettableBody is a request body that a test reuses from request to
// request.
type resettableBody struct{ bytes.Reader }

func (*resettableBody) Close() error { return nil }

// keepWriter is a ResponseWriter that keeps the status and the body.
type keepWriter struct {
	h      http.Header
	status int
	body   bytes.Buffer
}

func (w *keepWriter) Header() http.Header { return w.h }
func (w *keepWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.body.Write(p)
}
func (w *keepWriter) WriteHeader(s int) { w.status = s }

// BenchmarkHTTPCall2026 is BenchmarkHTTPCall for a client of revision
// 2026-07-28, whose requests stand alone: its revision, identity and
// capabilities in params._meta, the method and the tool's name in headers
// too.
func BenchmarkHTTPCall2026(b *testing.B) {
	const call = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"ExampleClient","version":"1.0.0"},"io.modelcontextprotocol/clientCapabilities":{}},"name":"search_files","arguments":{"pattern":"*.go","limit":5}}}`
	srv := runtime.NewServer("bench", "1.0.0")
	srv.AddTool(rttest.SearchTool())
	h := mcphttp.Handler(srv)
	body := new(resettableBody)
	req := httptest.NewRequest("POST", "http://127.0.0.1/mcp", nil)
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "search_files")
	w := &keepWriter{h: http.Header{}}
	b.ReportAllocs()
	for b.Loop() {
		body.Reset([]byte(call))
		req.Body = body
		clear(w.h)
		w.status = 0
		w.body.Reset()
		h.ServeHTTP(w, req)
		if w.status != http.StatusOK {
			b.Fatalf("status %d: %s", w.status, w.body.String())
		}
	}
}
