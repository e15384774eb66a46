package mcphttp_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/ratelimit"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
)

// limitsClient sends requests to a handler in process, as the client at
// addr (an IP address) with token, if any.
type limitsClient struct {
	t     *testing.T
	h     http.Handler
	addr  string
	token string
	clock func() time.Time // the rate limit's, if not nil
}

func (c limitsClient) do(method, session, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, "http://localhost/mcp", strings.NewReader(body))
	req.RemoteAddr = c.addr + ":40000"
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	if c.clock != nil {
		req = req.WithContext(ratelimit.WithClock(req.Context(), c.clock))
	}
	w := httptest.NewRecorder()
	c.h.ServeHTTP(w, req)
	return w
}

// initialize starts a session; it returns its id, or "" and the refusal.
func (c limitsClient) initialize() (string, *httptest.ResponseRecorder) {
	w := c.do("POST", "", rttest.InitBody)
	if w.Code != 200 {
		return "", w
	}
	return w.Header().Get("Mcp-Session-Id"), w
}

// wantRefused checks a refusal: its status, a Retry-After of at least
// minRetry seconds and a JSON-RPC error whose message has msg.
func wantRefused(t *testing.T, w *httptest.ResponseRecorder, status, minRetry int, msg string) {
	t.Helper()
	if w.Code != status {
		t.Fatalf("status %d %s, want %d", w.Code, w.Body, status)
	}
	if n, err := strconv.Atoi(w.Header().Get("Retry-After")); err != nil || n < minRetry {
		t.Errorf("Retry-After %q, want at least %d seconds", w.Header().Get("Retry-After"), minRetry)
	}
	var body struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
			Data    struct {
				RetryAfter int `json:"retryAfter"`
			} `json:"data"`
		} `json:"error"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || body.JSONRPC != "2.0" || string(body.ID) != "null" || body.Error.Code == 0 {
		t.Fatalf("body %s: want a JSON-RPC error (%v)", w.Body, err)
	}
	if !strings.Contains(body.Error.Message, msg) {
		t.Errorf("message %q, want it to say %q", body.Error.Message, msg)
	}
	if h := w.Header().Get("Retry-After"); strconv.Itoa(body.Error.Data.RetryAfter) != h || !strings.Contains(body.Error.Message, "retry in "+h+" second") {
		t.Errorf("error %+v: want data.retryAfter and the message to say the Retry-After of %s seconds", body.Error, h)
	}
}

func TestHTTPMaxSessions(t *testing.T) {
	h := mcphttp.Handler(rttest.HTTPServer(), mcphttp.WithMaxSessions(2))
	a := limitsClient{t: t, h: h, addr: "192.0.2.1"}
	b := limitsClient{t: t, h: h, addr: "192.0.2.2"}
	s1, w := a.initialize()
	if s1 == "" {
		t.Fatalf("first session: %d %s", w.Code, w.Body)
	}
	if s2, w := b.initialize(); s2 == "" {
		t.Fatalf("second session: %d %s", w.Code, w.Body)
	}
	_, w = b.initialize()
	wantRefused(t, w, http.StatusServiceUnavailable, 1, "maximum of 2 sessions")
	// The sessions held still work, and ending one makes room.
	if w := a.do("POST", s1, rttest.ListBody); w.Code != 200 {
		t.Fatalf("tools/list in a session: %d %s", w.Code, w.Body)
	}
	if w := a.do("DELETE", s1, ""); w.Code != http.StatusNoContent {
		t.Fatalf("DELETE: %d %s", w.Code, w.Body)
	}
	if s3, w := b.initialize(); s3 == "" {
		t.Fatalf("a session after one ended: %d %s", w.Code, w.Body)
	}
	// A failed initialize holds no place.
	if w := a.do("POST", "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`); w.Code == 200 && w.Header().Get("Mcp-Session-Id") != "" {
		t.Fatalf("an invalid initialize started a session: %s", w.Body)
	}
	_, w = a.initialize()
	wantRefused(t, w, http.StatusServiceUnavailable, 1, "maximum of 2 sessions")
}

func TestHTTPMaxSessionsPerClient(t *testing.T) {
	t.Run("by address", func(t *testing.T) {
		h := mcphttp.Handler(rttest.HTTPServer(), mcphttp.WithMaxSessionsPerClient(2), mcphttp.WithSessionIdleTimeout(100*time.Millisecond))
		a := limitsClient{t: t, h: h, addr: "192.0.2.1"}
		b := limitsClient{t: t, h: h, addr: "2001:db8::1"}
		for i := range 2 {
			if s, w := a.initialize(); s == "" {
				t.Fatalf("session %d of a: %d %s", i, w.Code, w.Body)
			}
		}
		_, w := a.initialize()
		wantRefused(t, w, http.StatusTooManyRequests, 1, "maximum of 2 sessions")
		if s, w := b.initialize(); s == "" {
			t.Fatalf("another address: %d %s", w.Code, w.Body)
		}
		// Expiry gives the places back.
		deadline := time.Now().Add(rttest.Timeout)
		for {
			s, w := a.initialize()
			if s != "" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("no session after the others expired: %d %s", w.Code, w.Body)
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
	t.Run("by principal", func(t *testing.T) {
		h := mcphttp.Handler(rttest.HTTPServer(), mcphttp.WithAuthorization(testAuth), mcphttp.WithMaxSessionsPerClient(1))
		alice := limitsClient{t: t, h: h, addr: "192.0.2.1", token: aliceToken}
		aliceElsewhere := limitsClient{t: t, h: h, addr: "192.0.2.9", token: aliceToken}
		bob := limitsClient{t: t, h: h, addr: "192.0.2.1", token: bobToken}
		s, w := alice.initialize()
		if s == "" {
			t.Fatalf("alice: %d %s", w.Code, w.Body)
		}
		_, w = aliceElsewhere.initialize()
		wantRefused(t, w, http.StatusTooManyRequests, 1, "maximum of 1 sessions")
		if s, w := bob.initialize(); s == "" {
			t.Fatalf("bob from alice's address: %d %s", w.Code, w.Body)
		}
		if w := alice.do("DELETE", s, ""); w.Code != http.StatusNoContent {
			t.Fatalf("DELETE: %d %s", w.Code, w.Body)
		}
		if s, w := aliceElsewhere.initialize(); s == "" {
			t.Fatalf("alice after ending her session: %d %s", w.Code, w.Body)
		}
	})
}

func TestHTTPRateLimit(t *testing.T) {
	const perSecond, burst = 2, 3
	h := mcphttp.Handler(rttest.HTTPServer(), mcphttp.WithRateLimit(perSecond, burst))
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	a := limitsClient{t: t, h: h, addr: "192.0.2.1", clock: clock}
	b := limitsClient{t: t, h: h, addr: "192.0.2.2", clock: clock}
	s, w := a.initialize()
	if s == "" {
		t.Fatalf("initialize: %d %s", w.Code, w.Body)
	}
	for i := range burst - 1 {
		if w := a.do("POST", s, rttest.ListBody); w.Code != 200 {
			t.Fatalf("request %d within the burst: %d %s", i+2, w.Code, w.Body)
		}
	}
	wantRefused(t, a.do("POST", s, rttest.ListBody), http.StatusTooManyRequests, 1, "rate limit of 2 requests a second")
	// Other clients have buckets of their own.
	if s, w := b.initialize(); s == "" {
		t.Fatalf("another client: %d %s", w.Code, w.Body)
	}
	// The bucket refills at perSecond.
	now = now.Add(time.Second / perSecond)
	if w := a.do("POST", s, rttest.ListBody); w.Code != 200 {
		t.Fatalf("after a refill: %d %s", w.Code, w.Body)
	}
	wantRefused(t, a.do("GET", s, ""), http.StatusTooManyRequests, 1, "rate limit")
}

// TestHTTPRateLimitForgetsIdleClients: the table of buckets holds the
// clients seen recently, not every client ever seen.
func TestHTTPRateLimitForgetsIdleClients(t *testing.T) {
	const clients = 5000
	h := mcphttp.Handler(rttest.HTTPServer(), mcphttp.WithRateLimit(1000, 1)) // refilled in 1 ms
	for i := range clients {
		c := limitsClient{t: t, h: h, addr: "10.0." + strconv.Itoa(i/256) + "." + strconv.Itoa(i%256)}
		if w := c.do("GET", "", ""); w.Code == http.StatusTooManyRequests {
			t.Fatalf("client %d refused on its first request: %s", i, w.Body)
		}
		if i%500 == 499 {
			time.Sleep(2 * time.Millisecond) // the buckets so far refill
		}
	}
	if n := mcphttp.RateLimitBuckets(h); n > 2048 {
		t.Errorf("%d buckets kept after %d clients, each idle since: want the recent ones only", n, clients)
	}
}
