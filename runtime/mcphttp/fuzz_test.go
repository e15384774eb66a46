package mcphttp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
)

// FuzzHTTPHandler sends arbitrary requests (method, path, header lines,
// body) to the Streamable HTTP handler, with sessions, with authorization
// and stateless; "$SID" in a header stands for the id of a live session.
// Nothing panics, every answer is a well-formed HTTP status with a
// JSON-RPC body or event stream that reveals nothing of the server, and
// the live session serves the next request. The seeds are in
// testdata/fuzz/FuzzHTTPHandler.
func FuzzHTTPHandler(f *testing.F) {
	f.Add("POST", "/", "Mcp-Session-Id: $SID\nMCP-Protocol-Version: 2025-11-25", []byte(echoBody))
	f.Fuzz(func(t *testing.T, method, path, header string, body []byte) {
		srv := rttest.HTTPServer(rt.WithMaxMessageSize(1 << 16))
		srv.AddTool(principalTool)
		for _, mode := range []struct {
			name  string
			opts  []mcphttp.Option
			token string
		}{
			{name: "sessions"},
			{name: "authorization", opts: []mcphttp.Option{mcphttp.WithAuthorization(testAuth)}, token: aliceToken},
			{name: "stateless", opts: []mcphttp.Option{mcphttp.WithStateless()}},
		} {
			h := mcphttp.Handler(srv, mode.opts...)
			sid := ""
			if mode.name != "stateless" {
				x := fuzzServe(h, "POST", "/", "Authorization: Bearer "+mode.token, []byte(rttest.InitBody), false)
				if sid = x.Header().Get("Mcp-Session-Id"); sid == "" {
					t.Fatalf("%s: initialize: %d %s", mode.name, x.Code, x.Body)
				}
			}
			x := fuzzServe(h, method, path, strings.ReplaceAll(header, "$SID", sid), body, true)
			if x == nil {
				continue // not a request a client could send
			}
			checkFuzzAnswer(t, mode.name, x)
			// The live session still serves, unless the request ended it.
			next := fuzzServe(h, "POST", "/", "Mcp-Session-Id: "+sid+"\nMCP-Protocol-Version: 2025-11-25\nAuthorization: Bearer "+mode.token, []byte(`{"jsonrpc":"2.0","id":"next","method":"ping"}`), false)
			if next.Code != 200 && !(next.Code == 404 && strings.EqualFold(method, "DELETE")) {
				t.Fatalf("%s: the next request: %d %s", mode.name, next.Code, next.Body)
			}
		}
	})
}

// fuzzServe serves one request to h; header holds "Name: value" lines. It
// returns nil when method or path cannot make a request. A GET's context
// is ended at once when cancelGet is set, or its stream would wait for
// messages forever.
func fuzzServe(h http.Handler, method, path, header string, body []byte, cancelGet bool) *httptest.ResponseRecorder {
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if cancelGet && strings.EqualFold(method, "GET") {
		cancel()
	}
	req, err := http.NewRequestWithContext(ctx, method, "http://127.0.0.1"+path, bytes.NewReader(body))
	if err != nil {
		return nil
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	for _, line := range strings.Split(header, "\n") {
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		if strings.EqualFold(name, "Host") {
			req.Host = value
			continue
		}
		req.Header.Set(name, value)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// checkFuzzAnswer checks that x is an answer a client can read.
func checkFuzzAnswer(t *testing.T, mode string, x *httptest.ResponseRecorder) {
	t.Helper()
	if x.Code < 200 || x.Code > 599 {
		t.Fatalf("%s: status %d", mode, x.Code)
	}
	body := x.Body.Bytes()
	assertNoLeak(t, body)
	if x.Code >= 500 {
		t.Errorf("%s: server error %d: %s", mode, x.Code, body)
	}
	switch ct := x.Header().Get("Content-Type"); {
	case ct == "application/json":
		if !json.Valid(body) {
			t.Errorf("%s: status %d, invalid JSON: %q", mode, x.Code, body)
		}
		if x.Code >= 400 && !bytes.Contains(body, []byte(`"error":{"code":`)) {
			t.Errorf("%s: status %d without a JSON-RPC error: %s", mode, x.Code, body)
		}
	case ct == "text/event-stream":
		for i, e := range rttest.SSEData(body) {
			if i == 0 && bytes.HasPrefix(e, []byte("message?")) {
				continue // the endpoint event of the HTTP+SSE transport
			}
			if !json.Valid(e) {
				t.Errorf("%s: an event that is not JSON: %q", mode, e)
			}
		}
	case len(body) > 0:
		t.Errorf("%s: status %d, Content-Type %q: %q", mode, x.Code, ct, body)
	}
}
