package websocket_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	ws "github.com/coder/websocket"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/ratelimit"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
	"github.com/mcpgen/mcpgen/runtime/websocket"
)

// limitedServer serves WebSocket sessions of s (a new server when nil)
// under opts, the subject of a bearer token naming its client ("Bearer
// alice" is alice). The rate limit's buckets refill by clock.
func limitedServer(t *testing.T, s *runtime.Server, clock *fakeClock, opts ...mcphttp.Option) (url string) {
	t.Helper()
	if s == nil {
		s = newServer()
	}
	verify := func(_ context.Context, token string) (*runtime.Principal, error) {
		if token == "" {
			return nil, errors.New("no token")
		}
		return &runtime.Principal{Subject: token}, nil
	}
	h := mcphttp.AuthorizationHandler(s, mcphttp.Authorization{Verify: verify}, mcphttp.LimitHandler(websocket.Handler(s), opts...))
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		h.ServeHTTP(w, req.WithContext(ratelimit.WithClock(req.Context(), clock.now)))
	}))
	t.Cleanup(ts.Close)
	return "ws" + strings.TrimPrefix(ts.URL, "http")
}

// fakeClock is a clock that moves when told to.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *fakeClock { return &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)} }

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// dial opens a WebSocket session as subject; it returns the connection, or
// nil and the refusal's status, Retry-After and JSON-RPC error message.
func dial(t *testing.T, url, subject string) (*ws.Conn, int, int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, resp, err := ws.Dial(ctx, url, &ws.DialOptions{Subprotocols: []string{"mcp"}, HTTPHeader: http.Header{"Authorization": {"Bearer " + subject}}})
	if err == nil {
		t.Cleanup(func() { conn.CloseNow() })
		// The session is served: it answers.
		if err := conn.Write(ctx, ws.MessageText, []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)); err != nil {
			t.Fatal(err)
		}
		if _, data, err := conn.Read(ctx); err != nil || !strings.Contains(string(data), `"result":{}`) {
			t.Fatalf("ping: %s %v", data, err)
		}
		return conn, 0, 0, ""
	}
	if resp == nil {
		t.Fatal(err)
	}
	retry, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
	body, _ := io.ReadAll(resp.Body)
	var msg struct{ Error struct{ Message string } }
	if err := json.Unmarshal(body, &msg); err != nil {
		t.Fatalf("refusal %d: body %q is not a JSON-RPC error", resp.StatusCode, body)
	}
	return nil, resp.StatusCode, retry, msg.Error.Message
}

// wantRefused checks that subject's dial is refused with status and a
// message that has msg.
func wantRefused(t *testing.T, url, subject string, status int, msg string) {
	t.Helper()
	conn, code, retry, text := dial(t, url, subject)
	if conn != nil {
		t.Fatalf("%s: session opened, want %d", subject, status)
	}
	if code != status || retry < 1 || !strings.Contains(text, msg) {
		t.Errorf("%s: status %d, Retry-After %d, message %q; want %d, at least 1, %q", subject, code, retry, text, status, msg)
	}
}

// waitOpen dials as subject until a session opens: a closed session gives
// its place back once the server has seen the close.
func waitOpen(t *testing.T, url, subject string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if conn, _, _, _ := dial(t, url, subject); conn != nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: no session after the others closed", subject)
		}
	}
}

func TestWebSocketMaxSessions(t *testing.T) {
	url := limitedServer(t, nil, newClock(), mcphttp.WithMaxSessions(2))
	a, _, _, _ := dial(t, url, "alice")
	if b, _, _, _ := dial(t, url, "bob"); a == nil || b == nil {
		t.Fatal("the first two sessions were refused")
	}
	wantRefused(t, url, "carol", http.StatusServiceUnavailable, "maximum of 2 sessions")
	a.Close(ws.StatusNormalClosure, "")
	waitOpen(t, url, "carol")
	wantRefused(t, url, "dave", http.StatusServiceUnavailable, "maximum of 2 sessions")
}

func TestWebSocketMaxSessionsPerClient(t *testing.T) {
	url := limitedServer(t, nil, newClock(), mcphttp.WithMaxSessionsPerClient(1))
	a, _, _, _ := dial(t, url, "alice")
	if a == nil {
		t.Fatal("alice's first session was refused")
	}
	wantRefused(t, url, "alice", http.StatusTooManyRequests, "this client holds its maximum of 1 sessions")
	if b, _, _, _ := dial(t, url, "bob"); b == nil {
		t.Fatal("bob was refused for alice's session")
	}
	a.Close(ws.StatusNormalClosure, "")
	waitOpen(t, url, "alice")
}

// TestWebSocketRateLimit: connection attempts count against the client's
// bucket (and so does the ping each dial sends).
func TestWebSocketRateLimit(t *testing.T) {
	clock := newClock()
	url := limitedServer(t, nil, clock, mcphttp.WithRateLimit(0.5, 4))
	for i := range 2 { // an upgrade and a ping each
		if conn, code, _, msg := dial(t, url, "alice"); conn == nil {
			t.Fatalf("connection %d within the burst refused: %d %s", i, code, msg)
		}
	}
	wantRefused(t, url, "alice", http.StatusTooManyRequests, "over the rate limit of 0.5 requests a second")
	if conn, _, _, _ := dial(t, url, "bob"); conn == nil {
		t.Error("bob was refused for alice's rate")
	}
	clock.advance(4 * time.Second) // two tokens back
	if conn, code, _, msg := dial(t, url, "alice"); conn == nil {
		t.Errorf("alice refused after the bucket refilled: %d %s", code, msg)
	}
}
