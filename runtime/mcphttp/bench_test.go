package mcphttp_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
)

// BenchmarkHTTPCall measures one tools/call over Streamable HTTP through
// the handler (no network), with a session and stateless, beside a bare
// handler that reads the body and writes a fixed answer.
func BenchmarkHTTPCall(b *testing.B) {
	for _, bc := range benchHandlers() {
		b.Run(bc.name, func(b *testing.B) {
			session := ""
			if bc.sessions {
				session = initSession(b, bc.h)
			}
			b.ReportAllocs()
			body := bytes.NewReader(nil)
			req := httptest.NewRequest("POST", "http://127.0.0.1/mcp", body)
			setCallHeaders(req.Header, session)
			w := &discardWriter{h: http.Header{}}
			for b.Loop() {
				body.Reset([]byte(benchCall))
				req.Body = io.NopCloser(body)
				clear(w.h)
				w.status = 0
				bc.h.ServeHTTP(w, req)
				if w.status != 200 && w.status != 0 {
					b.Fatalf("status %d", w.status)
				}
			}
		})
	}
}

// benchCall is the tools/call the HTTP benchmarks send.
const benchCall = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_files","arguments":{"pattern":"*.go","limit":5}}}`

// benchHandler is one of the handlers the HTTP benchmarks compare.
type benchHandler struct {
	name     string
	h        http.Handler
	sessions bool // whether a client must initialize a session first
}

// benchHandlers returns the handlers the HTTP benchmarks compare: a bare
// handler that reads the body and writes a fixed answer of the same shape
// (floor), and the transport over a server with SearchTool, with sessions
// and stateless.
func benchHandlers() []benchHandler {
	answer := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"found *.go (5, false)"}]}}`)
	floor := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Write(answer)
	})
	srv := runtime.NewServer("bench", "1.0.0")
	srv.AddTool(rttest.SearchTool())
	return []benchHandler{
		{"floor", floor, false},
		{"session", mcphttp.Handler(srv), true},
		{"stateless", mcphttp.Handler(srv, mcphttp.WithStateless()), false},
	}
}

// setCallHeaders sets the headers of a benchmark's POST: those every
// Streamable HTTP request carries, and the session's id unless it is "".
func setCallHeaders(h http.Header, session string) {
	h.Set("Accept", "application/json, text/event-stream")
	h.Set("Content-Type", "application/json")
	h.Set("MCP-Protocol-Version", "2025-11-25")
	if session != "" {
		h.Set("Mcp-Session-Id", session)
	}
}

func initSession(b testing.TB, h http.Handler) string {
	req := httptest.NewRequest("POST", "http://127.0.0.1/mcp", bytes.NewReader([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`)))
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	id := rec.Header().Get("Mcp-Session-Id")
	if id == "" {
		b.Fatalf("initialize: %d %s", rec.Code, rec.Body)
	}
	return id
}

// discardWriter is a ResponseWriter that keeps only the status.
type discardWriter struct {
	h      http.Header
	status int
}

func (w *discardWriter) Header() http.Header { return w.h }
func (w *discardWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = 200
	}
	return len(p), nil
}
func (w *discardWriter) WriteHeader(s int) { w.status = s }

// BenchmarkHTTPLoopback measures a tools/call round trip over loopback TCP
// with a keep-alive client, against the same three handlers.
func BenchmarkHTTPLoopback(b *testing.B) {
	for _, bc := range benchHandlers() {
		b.Run(bc.name, func(b *testing.B) {
			session := ""
			if bc.sessions {
				session = initSession(b, bc.h)
			}
			ts := httptest.NewServer(bc.h)
			defer ts.Close()
			client := ts.Client()
			body := bytes.NewReader(nil)
			for b.Loop() {
				body.Reset([]byte(benchCall))
				req, _ := http.NewRequest("POST", ts.URL, body)
				setCallHeaders(req.Header, session)
				resp, err := client.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					b.Fatalf("status %d", resp.StatusCode)
				}
			}
		})
	}
}

// BenchmarkHTTPLoopbackParallel is BenchmarkHTTPLoopback with concurrent
// clients (GOMAXPROCS×-cpu goroutines), each with its own session.
func BenchmarkHTTPLoopbackParallel(b *testing.B) {
	for _, bc := range benchHandlers() {
		b.Run(bc.name, func(b *testing.B) {
			ts := httptest.NewServer(bc.h)
			defer ts.Close()
			tr := &http.Transport{MaxIdleConnsPerHost: 256}
			defer tr.CloseIdleConnections()
			client := &http.Client{Transport: tr}
			b.SetParallelism(8)
			b.RunParallel(func(pb *testing.PB) {
				session := ""
				if bc.sessions {
					session = initSession(b, bc.h)
				}
				body := bytes.NewReader(nil)
				for pb.Next() {
					body.Reset([]byte(benchCall))
					req, _ := http.NewRequest("POST", ts.URL, body)
					setCallHeaders(req.Header, session)
					resp, err := client.Do(req)
					if err != nil {
						b.Error(err)
						return
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
			})
		})
	}
}
