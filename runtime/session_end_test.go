package runtime_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
)

// A session leaves the server's live set, which notifications of its own
// accord go to, however it ends, and by the time it has ended.
func TestSessionEndLeavesLiveSet(t *testing.T) {
	// serveStream serves one initialized session over a pipe and ends it
	// with end, which returns once Serve has.
	serveStream := func(t *testing.T, srv *rt.Server, end func(cancel context.CancelFunc, in io.Closer)) func() {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		ctx, cancel := context.WithCancel(context.Background())
		served := make(chan error, 1)
		go func() { served <- srv.Serve(ctx, inR, outW); outW.Close() }()
		go io.WriteString(inW, rttest.InitBody+"\n"+`{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
		if _, err := bufio.NewReader(outR).ReadString('\n'); err != nil {
			t.Fatal(err)
		}
		go io.Copy(io.Discard, outR)
		return func() {
			end(cancel, inW)
			select {
			case <-served:
			case <-time.After(rttest.Timeout):
				t.Fatal("Serve did not return")
			}
			cancel()
		}
	}
	// httpInitialize posts initialize to h, fails the test unless it is
	// answered, and returns the session id the answer gave ("" when
	// stateless).
	httpInitialize := func(t *testing.T, h http.Handler) string {
		req := httptest.NewRequest("POST", "http://localhost/mcp", strings.NewReader(rttest.InitBody))
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != 200 {
			t.Fatalf("initialize: %d %s", w.Code, w.Body)
		}
		return w.Header().Get("Mcp-Session-Id")
	}
	for _, tc := range []struct {
		name string
		// open starts a session of srv and returns what ends it.
		open func(t *testing.T, srv *rt.Server) (end func())
	}{
		{"end of input", func(t *testing.T, srv *rt.Server) func() {
			return serveStream(t, srv, func(_ context.CancelFunc, in io.Closer) { in.Close() })
		}},
		{"context cancelled", func(t *testing.T, srv *rt.Server) func() {
			return serveStream(t, srv, func(cancel context.CancelFunc, _ io.Closer) { cancel() })
		}},
		{"HTTP DELETE", func(t *testing.T, srv *rt.Server) func() {
			h := mcphttp.Handler(srv)
			id := httpInitialize(t, h)
			return func() {
				req := httptest.NewRequest("DELETE", "http://localhost/mcp", nil)
				req.Header.Set("Mcp-Session-Id", id)
				req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
				h.ServeHTTP(httptest.NewRecorder(), req)
			}
		}},
		{"HTTP idle expiry", func(t *testing.T, srv *rt.Server) func() {
			httpInitialize(t, mcphttp.Handler(srv, mcphttp.WithSessionIdleTimeout(30*time.Millisecond)))
			return func() {
				for deadline := time.Now().Add(rttest.Timeout); rt.LiveSessions(srv) != 0 && time.Now().Before(deadline); {
					time.Sleep(10 * time.Millisecond)
				}
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := rttest.HTTPServer()
			end := tc.open(t, srv)
			if got := rt.LiveSessions(srv); got != 1 {
				t.Fatalf("%d live sessions once initialized, want 1", got)
			}
			end()
			if got := rt.LiveSessions(srv); got != 0 {
				t.Errorf("%d live sessions after the session ended, want 0", got)
			}
		})
	}
	t.Run("stateless", func(t *testing.T) {
		srv := rttest.HTTPServer()
		h := mcphttp.Handler(srv, mcphttp.WithStateless())
		if id := httpInitialize(t, h); id != "" {
			t.Errorf("a stateless answer gave the session id %q", id)
		}
		if got := rt.LiveSessions(srv); got != 0 {
			t.Errorf("%d live sessions after a stateless request was answered, want 0", got)
		}
	})
}
