package mcphttp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
)

const echoBody = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`

func TestHTTPStatus(t *testing.T) {
	type tc struct {
		name   string
		method string
		body   string
		hdr    []string
		noSess bool // send no session id
		want   int
		has    string // in the body
	}
	tests := []tc{
		{name: "request answered as JSON", method: "POST", body: rttest.ListBody, want: 200, has: `"name":"echo"`},
		{name: "call answered as JSON", method: "POST", body: echoBody, want: 200, has: `"text":"hi"`},
		{name: "notification accepted", method: "POST", body: `{"jsonrpc":"2.0","method":"notifications/whatever"}`, want: 202},
		{name: "response accepted", method: "POST", body: `{"jsonrpc":"2.0","id":"s1","result":{}}`, want: 202},
		{name: "unknown method is a JSON-RPC error", method: "POST", body: `{"jsonrpc":"2.0","id":4,"method":"nope"}`, want: 200, has: `-32601`},
		{name: "not JSON", method: "POST", body: `{"jsonrpc":`, want: 400, has: "Parse error"},
		{name: "empty body", method: "POST", body: ``, want: 400, has: "body is empty"},
		{name: "batch outside 2025-03-26", method: "POST", body: "[" + rttest.ListBody + "]", want: 400, has: "batches are not supported in protocol revision 2025-11-25"},
		{name: "no session id", method: "POST", body: rttest.ListBody, noSess: true, want: 400, has: "Mcp-Session-Id header is required"},
		{name: "no session id, notification", method: "POST", body: `{"jsonrpc":"2.0","method":"notifications/roots/list_changed","params":{}}`, noSess: true, want: 202},
		{name: "no session id, batch", method: "POST", body: "[" + rttest.InitBody + "]", noSess: true, want: 400, has: "not in a batch"},
		{name: "no session id, not JSON", method: "POST", body: `nope`, noSess: true, want: 400, has: "Parse error"},
		{name: "unknown session", method: "POST", body: rttest.ListBody, hdr: []string{"Mcp-Session-Id", "nope"}, want: 404, has: `session \"nope\" has ended`},
		{name: "unsupported protocol version", method: "POST", body: rttest.ListBody, hdr: []string{"MCP-Protocol-Version", "2024-01-01"}, want: 400, has: `unsupported Mcp-Protocol-Version \"2024-01-01\"`},
		{name: "other supported protocol version", method: "POST", body: rttest.ListBody, hdr: []string{"MCP-Protocol-Version", "2025-03-26"}, want: 200, has: `"name":"echo"`},
		{name: "absent protocol version", method: "POST", body: rttest.ListBody, hdr: []string{"MCP-Protocol-Version", ""}, want: 200, has: `"name":"echo"`},
		{name: "Accept without event stream", method: "POST", body: rttest.ListBody, hdr: []string{"Accept", "application/json"}, want: 406, has: "Not Acceptable"},
		{name: "Accept wildcard", method: "POST", body: rttest.ListBody, hdr: []string{"Accept", "*/*"}, want: 200},
		{name: "Accept missing", method: "POST", body: rttest.ListBody, hdr: []string{"Accept", ""}, want: 406},
		{name: "Content-Type text", method: "POST", body: rttest.ListBody, hdr: []string{"Content-Type", "text/plain"}, want: 415},
		{name: "Content-Type with charset", method: "POST", body: rttest.ListBody, hdr: []string{"Content-Type", "application/json; charset=utf-8"}, want: 200},
		{name: "body too large", method: "POST", body: `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"text":"` + strings.Repeat("x", 2000) + `"}}}`, want: 413, has: "message larger than 1024 bytes"},
		{name: "foreign Host", method: "POST", body: rttest.ListBody, hdr: []string{"Host", "evil.example:80"}, want: 403, has: `Host \"evil.example:80\" is not allowed`},
		{name: "foreign Origin", method: "POST", body: rttest.ListBody, hdr: []string{"Origin", "http://evil.example"}, want: 403, has: "Origin"},
		{name: "null Origin", method: "POST", body: rttest.ListBody, hdr: []string{"Origin", "null"}, want: 403},
		{name: "local Origin", method: "POST", body: rttest.ListBody, hdr: []string{"Origin", "http://localhost:5173"}, want: 200},
		{name: "localhost Host", method: "POST", body: rttest.ListBody, hdr: []string{"Host", "LOCALHOST:1234"}, want: 200},
		{name: "IPv6 loopback Host", method: "POST", body: rttest.ListBody, hdr: []string{"Host", "[::1]:1234"}, want: 200},
		{name: "foreign Host before method check", method: "PUT", hdr: []string{"Host", "evil.example"}, want: 403},
		{name: "PUT", method: "PUT", want: 405},
		{name: "GET without session", method: "GET", noSess: true, want: 400},
		{name: "GET unknown session", method: "GET", hdr: []string{"Mcp-Session-Id", "nope"}, want: 404},
		{name: "GET without event stream", method: "GET", hdr: []string{"Accept", "application/json"}, want: 406},
		{name: "DELETE without session", method: "DELETE", noSess: true, want: 400},
		{name: "DELETE unknown session", method: "DELETE", hdr: []string{"Mcp-Session-Id", "nope"}, want: 404},
	}
	c := rttest.NewHTTPClient(t, mcphttp.Handler(rttest.HTTPServer(rt.WithMaxMessageSize(1024))))
	c.Initialize("2025-11-25")
	session := c.Session
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.T = t
			c.Session = session
			if tt.noSess {
				c.Session = ""
			}
			x := c.Do(tt.method, tt.body, tt.hdr...)
			if x.Status != tt.want {
				t.Fatalf("status %d, want %d: %s", x.Status, tt.want, x.Body)
			}
			if tt.want == 202 && len(x.Body) != 0 {
				t.Errorf("202 with a body: %s", x.Body)
			}
			if !strings.Contains(string(x.Body), tt.has) {
				t.Errorf("body %s lacks %s", x.Body, tt.has)
			}
		})
	}
}

func TestHTTPInitialize(t *testing.T) {
	c := rttest.NewHTTPClient(t, mcphttp.Handler(rttest.HTTPServer()))
	x := c.Post(rttest.InitBody, 200)
	id := x.Header.Get("Mcp-Session-Id")
	if len(id) < 22 || strings.ContainsFunc(id, func(r rune) bool { return r < 0x21 || r > 0x7e }) {
		t.Fatalf("session id %q: want at least 22 visible ASCII characters", id)
	}
	if !bytes.Contains(x.Body, []byte(`"protocolVersion":"2025-11-25"`)) {
		t.Errorf("initialize result: %s", x.Body)
	}
	// Every session gets its own id.
	c2 := rttest.NewHTTPClient(t, mcphttp.Handler(rttest.HTTPServer()))
	if id2 := c2.Post(rttest.InitBody, 200).Header.Get("Mcp-Session-Id"); id2 == id || id2 == "" {
		t.Errorf("second session id %q, first %q", id2, id)
	}
	// A failed initialize starts no session.
	x = c.Post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`, 200)
	if got := x.Header.Get("Mcp-Session-Id"); got != "" || !bytes.Contains(x.Body, []byte("protocolVersion is required")) {
		t.Errorf("failed initialize: session %q, body %s", got, x.Body)
	}
	// Initialize within a session is refused by the session.
	c.Session, c.Version = id, "2025-11-25"
	if x := c.Post(rttest.InitBody, 200); !bytes.Contains(x.Body, []byte("already initialized")) {
		t.Errorf("second initialize: %s", x.Body)
	}
}

func TestHTTPDelete(t *testing.T) {
	c := rttest.NewHTTPClient(t, mcphttp.Handler(rttest.HTTPServer()))
	c.Initialize("2025-11-25")
	if x := c.Do("DELETE", ""); x.Status != http.StatusNoContent {
		t.Fatalf("DELETE: %d %s", x.Status, x.Body)
	}
	c.Post(rttest.ListBody, 404)
	if x := c.Do("DELETE", ""); x.Status != http.StatusNotFound {
		t.Errorf("second DELETE: %d, want 404", x.Status)
	}
}

func TestHTTPBatch(t *testing.T) {
	c := rttest.NewHTTPClient(t, mcphttp.Handler(rttest.HTTPServer()))
	c.Initialize("2025-03-26")
	x := c.Post("["+rttest.ListBody+","+echoBody+`,{"jsonrpc":"2.0","method":"notifications/x"}]`, 200)
	var got []struct{ ID int }
	if err := json.Unmarshal(x.Body, &got); err != nil || len(got) != 2 {
		t.Fatalf("batch answer: %s (%v)", x.Body, err)
	}
	c.Post(`[{"jsonrpc":"2.0","method":"notifications/x"}]`, 202)
}

func TestHTTPIdleExpiry(t *testing.T) {
	c := rttest.NewHTTPClient(t, mcphttp.Handler(rttest.HTTPServer(), mcphttp.WithSessionIdleTimeout(50*time.Millisecond)))
	c.Initialize("2025-11-25")
	c.Post(rttest.ListBody, 200)
	deadline := time.Now().Add(rttest.Timeout)
	for {
		x := c.Do("POST", rttest.ListBody)
		if x.Status == 404 {
			break
		}
		if x.Status != 200 || time.Now().After(deadline) {
			t.Fatalf("status %d, want 404 once the session expires", x.Status)
		}
		time.Sleep(100 * time.Millisecond) // longer than the timeout: idle between requests
	}
}

func TestHTTPEventStreamResponse(t *testing.T) {
	c := rttest.NewHTTPClient(t, mcphttp.Handler(rttest.HTTPServer()))
	c.Initialize("2025-11-25")
	x := c.Post(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"progress","_meta":{"progressToken":1}}}`, 200)
	if ct := x.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q, want text/event-stream: %s", ct, x.Body)
	}
	if len(x.Events) != 2 || !bytes.Contains(x.Events[0], []byte(`"notifications/progress"`)) || !bytes.Contains(x.Events[1], []byte(`"id":7`)) {
		t.Fatalf("events %q, want the notification then the answer", x.Events)
	}
	// Without related messages the answer is plain JSON.
	if x := c.Post(echoBody, 200); x.Header.Get("Content-Type") != "application/json" {
		t.Errorf("echo: Content-Type %q", x.Header.Get("Content-Type"))
	}
}

func TestHTTPPanicRecovered(t *testing.T) {
	c := rttest.NewHTTPClient(t, mcphttp.Handler(rttest.HTTPServer()))
	c.Initialize("2025-11-25")
	x := c.Post(`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"panic"}}`, 200)
	if !bytes.Contains(x.Body, []byte(`"isError":true`)) {
		t.Fatalf("panic: %s", x.Body)
	}
	c.Post(echoBody, 200)
}

func TestHTTPServerStream(t *testing.T) {
	srv := rttest.HTTPServer()
	c := rttest.NewHTTPClient(t, mcphttp.Handler(srv))
	c.Initialize("2025-11-25")
	notify := `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"notify"}}`
	// No stream yet: Notify fails, and the tool says so.
	if x := c.Post(notify, 200); !bytes.Contains(x.Body, []byte("no server stream")) {
		t.Fatalf("notify without a stream: %s", x.Body)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events, resp := c.OpenStream(ctx)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("GET: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	// One stream per session.
	if x := c.Do("GET", ""); x.Status != http.StatusConflict {
		t.Errorf("second GET: %d, want 409", x.Status)
	}
	if x := c.Post(notify, 200); !bytes.Contains(x.Body, []byte(`"sent"`)) {
		t.Fatalf("notify: %s", x.Body)
	}
	select {
	case e := <-events:
		if !bytes.Contains(e, []byte("notifications/tools/list_changed")) {
			t.Errorf("stream event %s", e)
		}
		c.Validate(e)
	case <-time.After(rttest.Timeout):
		t.Fatal("no event on the server stream")
	}
	// DELETE ends the stream.
	c.Do("DELETE", "")
	select {
	case _, ok := <-events:
		if ok {
			t.Error("an event after DELETE")
		}
	case <-time.After(rttest.Timeout):
		t.Fatal("the stream outlived its session")
	}
}

func TestHTTPCancel(t *testing.T) {
	b := rttest.NewBlocker()
	srv := rttest.NewServer()
	srv.AddTool(b.Tool())
	c := rttest.NewHTTPClient(t, mcphttp.Handler(srv))
	c.Initialize("2025-11-25")

	// notifications/cancelled in another POST cancels the call; its POST
	// ends without an answer.
	done := make(chan *rttest.Exchange, 1)
	go func() {
		done <- c.Do("POST", `{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"block","arguments":{"id":"a"}}}`)
	}()
	b.WaitStarted(t, 1)
	c.Post(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a"}}`, 202)
	if err := b.WaitEnded(t, "a"); !errors.Is(err, context.Canceled) {
		t.Errorf("call a ended with %v, want context.Canceled", err)
	}
	if x := <-done; x.Status != http.StatusAccepted || len(x.Body) != 0 {
		t.Errorf("cancelled call's POST: %d %s", x.Status, x.Body)
	}

	// A client that goes away before any event of the call's stream
	// cannot resume it: the answer cannot be delivered, so the call is
	// cancelled (see TestHTTPClientGone for one that can resume).
	gone := abandon(c, "b")
	b.WaitStarted(t, 1)
	gone()
	if err := b.WaitEnded(t, "b"); !errors.Is(err, context.Canceled) {
		t.Errorf("call b ended with %v, want context.Canceled", err)
	}
	c.Post(rttest.ListBody, 200) // the session lives on

	// Without sessions, the POST is the session: going away cancels.
	b = rttest.NewBlocker()
	srv = rttest.NewServer()
	srv.AddTool(b.Tool())
	c = rttest.NewHTTPClient(t, mcphttp.Handler(srv, mcphttp.WithStateless()))
	c.Assume("2025-11-25")
	gone = abandon(c, "c")
	b.WaitStarted(t, 1)
	gone()
	if err := b.WaitEnded(t, "c"); !errors.Is(err, context.Canceled) {
		t.Errorf("stateless call c ended with %v, want context.Canceled", err)
	}
}

// abandon posts a call of the block tool; the client goes away when the
// returned function is called.
func abandon(c *rttest.HTTPClient, id string) (goAway func()) {
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", c.URL, strings.NewReader(`{"jsonrpc":"2.0","id":"`+id+`","method":"tools/call","params":{"name":"block","arguments":{"id":"`+id+`"}}}`))
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	if c.Session != "" {
		req.Header.Set("Mcp-Session-Id", c.Session)
	}
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
	}()
	return cancel
}

func TestHTTPConcurrentCalls(t *testing.T) {
	b := rttest.NewBlocker()
	srv := rttest.NewServer()
	srv.AddTool(b.Tool())
	c := rttest.NewHTTPClient(t, mcphttp.Handler(srv))
	c.Initialize("2025-11-25")
	const n = 5
	done := make(chan *rttest.Exchange, n)
	for i := range n {
		id := string(rune('a' + i))
		go func() {
			done <- c.Do("POST", `{"jsonrpc":"2.0","id":"`+id+`","method":"tools/call","params":{"name":"block","arguments":{"id":"`+id+`"}}}`)
		}()
	}
	b.WaitStarted(t, n) // all run at once
	close(b.Release)
	for range n {
		if x := <-done; x.Status != 200 || !bytes.Contains(x.Body, []byte("done ")) {
			t.Errorf("call: %d %s", x.Status, x.Body)
		}
	}
}

func TestHTTPStateless(t *testing.T) {
	srv := rttest.HTTPServer()
	c := rttest.NewHTTPClient(t, mcphttp.Handler(srv, mcphttp.WithStateless()))
	// Initialize works, but starts no session.
	if x := c.Post(rttest.InitBody, 200); x.Header.Get("Mcp-Session-Id") != "" {
		t.Errorf("stateless initialize gave session %q", x.Header.Get("Mcp-Session-Id"))
	}
	// Requests need no initialize and no session.
	c.Assume("2025-11-25")
	if x := c.Post(echoBody, 200); !bytes.Contains(x.Body, []byte(`"text":"hi"`)) {
		t.Errorf("call: %s", x.Body)
	}
	if x := c.Post(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"progress","_meta":{"progressToken":1}}}`, 200); len(x.Events) != 2 {
		t.Errorf("progress: %q", x.Events)
	}
	if x := c.Post(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"notify"}}`, 200); !bytes.Contains(x.Body, []byte("stateless")) {
		t.Errorf("notify: %s", x.Body)
	}
	c.Post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, 202)
	for _, m := range []string{"GET", "DELETE"} {
		if x := c.Do(m, ""); x.Status != http.StatusMethodNotAllowed {
			t.Errorf("%s: %d, want 405", m, x.Status)
		}
	}
	// Without the header, the revision is 2025-03-26: batches work.
	c.Assume("2025-03-26")
	c.Version = ""
	if x := c.Post("["+rttest.ListBody+"]", 200); !bytes.HasPrefix(x.Body, []byte("[")) {
		t.Errorf("batch: %s", x.Body)
	}
	c.Post(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, 400, "MCP-Protocol-Version", "1999-01-01")
}

// TestListenAndServeHTTP serves on a free loopback port, then shuts down
// when the context ends.
func TestListenAndServeHTTP(t *testing.T) {
	logs := &rttest.SyncBuffer{}
	srv := rttest.NewServer(rt.WithLogger(slogTo(logs)))
	srv.AddTool(rttest.EchoTool)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- mcphttp.ListenAndServe(ctx, srv, ":0") }()
	var url string
	deadline := time.Now().Add(rttest.Timeout)
	for url == "" && time.Now().Before(deadline) {
		if _, rest, ok := strings.Cut(logs.String(), "url="); ok {
			url, _, _ = strings.Cut(rest, "\n")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/mcp") {
		t.Fatalf("served at %q, want http://127.0.0.1:PORT/mcp", url)
	}
	c := rttest.NewHTTPClientAt(t, url)
	c.Initialize("2025-06-18")
	ctxStream, cancelStream := context.WithCancel(context.Background())
	defer cancelStream()
	events, _ := c.OpenStream(ctxStream)
	c.Post(echoBody, 200)
	cancel()
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("ListenAndServe: %v", err)
		}
	case <-time.After(rttest.Timeout):
		t.Fatal("no shutdown")
	}
	// The open stream was ended, not left hanging.
	for range events {
	}
}

func slogTo(w io.Writer) *slog.Logger { return slog.New(slog.NewTextHandler(w, nil)) }

func TestHTTPLegacySSE(t *testing.T) {
	srv := rttest.HTTPServer()
	mux := http.NewServeMux()
	h := mcphttp.Handler(srv)
	mux.Handle("/mcp", h)
	mux.Handle("/mcp/", h)
	c := rttest.NewHTTPClient(t, mux)
	base := c.URL
	c.URL = base + "/mcp/sse"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", c.URL, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("GET /mcp/sse: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	type event struct{ name, data string }
	events := make(chan event, 16)
	go func() {
		defer close(events)
		sc := bufio.NewScanner(resp.Body)
		var e event
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				events <- e
				e = event{}
			case strings.HasPrefix(line, "event: "):
				e.name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				e.data = strings.TrimPrefix(line, "data: ")
			}
		}
	}()
	next := func() event {
		t.Helper()
		select {
		case e := <-events:
			return e
		case <-time.After(rttest.Timeout):
			t.Fatal("no event")
		}
		return event{}
	}
	first := next()
	if first.name != "endpoint" || !strings.HasPrefix(first.data, "message?sessionId=") {
		t.Fatalf("first event %+v, want the endpoint", first)
	}
	c.URL = base + "/mcp/" + first.data
	post := func(body string) {
		t.Helper()
		if x := c.Do("POST", body, "Accept", ""); x.Status != http.StatusAccepted {
			t.Fatalf("POST: %d %s", x.Status, x.Body)
		}
	}
	post(rttest.InitBodyAt("2024-11-05"))
	if e := next(); e.name != "message" || !strings.Contains(e.data, `"protocolVersion":"2024-11-05"`) {
		t.Fatalf("initialize answer %+v", e)
	} else {
		c.Validate([]byte(e.data))
	}
	post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	post(echoBody)
	if e := next(); !strings.Contains(e.data, `"text":"hi"`) {
		t.Fatalf("call answer %+v", e)
	} else {
		c.Validate([]byte(e.data))
	}
	// Its session id is not a Streamable HTTP session, and vice versa.
	id := strings.TrimPrefix(first.data, "message?sessionId=")
	c.URL = base + "/mcp"
	c.Session = id
	c.Post(rttest.ListBody, http.StatusNotFound)
	c.URL = base + "/mcp/message?sessionId=nope"
	c.Post(rttest.ListBody, http.StatusNotFound)
	// The session ends with its stream.
	cancel()
	c.URL = base + "/mcp/message?sessionId=" + id
	deadline := time.Now().Add(rttest.Timeout)
	for c.Do("POST", rttest.ListBody).Status != http.StatusNotFound {
		if time.Now().After(deadline) {
			t.Fatal("the session outlived its stream")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestHTTPAllowList(t *testing.T) {
	tests := []struct {
		name         string
		opts         []mcphttp.Option
		host, origin string
		want         int
	}{
		{name: "default: loopback host", host: "127.0.0.1:8080", want: 200},
		{name: "default: other host", host: "mcp.example.com", want: 403},
		{name: "default: no host", host: "", want: 403},
		{name: "default: DNS rebinding", host: "attacker.example:8080", origin: "http://attacker.example:8080", want: 403},
		{name: "default: loopback origin", host: "localhost:8080", origin: "http://127.0.0.1:3000", want: 200},
		{name: "named host", opts: []mcphttp.Option{mcphttp.WithAllowedHosts("MCP.example.com")}, host: "mcp.example.com:443", want: 200},
		{name: "named host replaces the default", opts: []mcphttp.Option{mcphttp.WithAllowedHosts("mcp.example.com")}, host: "localhost", want: 403},
		{name: "named host allows its origin", opts: []mcphttp.Option{mcphttp.WithAllowedHosts("mcp.example.com")}, host: "mcp.example.com", origin: "https://mcp.example.com", want: 200},
		{name: "named host, foreign origin", opts: []mcphttp.Option{mcphttp.WithAllowedHosts("mcp.example.com")}, host: "mcp.example.com", origin: "https://evil.example", want: 403},
		{name: "any host", opts: []mcphttp.Option{mcphttp.WithAllowedHosts("*")}, host: "whatever.example", want: 200},
		{name: "any host is not any origin", opts: []mcphttp.Option{mcphttp.WithAllowedHosts("*")}, host: "whatever.example", origin: "https://evil.example", want: 403},
		{name: "named origin", opts: []mcphttp.Option{mcphttp.WithAllowedOrigins("https://app.example.com")}, host: "localhost", origin: "https://APP.example.com", want: 200},
		{name: "named origin, other port", opts: []mcphttp.Option{mcphttp.WithAllowedOrigins("https://app.example.com")}, host: "localhost", origin: "https://app.example.com:8443", want: 403},
		{name: "any origin", opts: []mcphttp.Option{mcphttp.WithAllowedOrigins("*")}, host: "localhost", origin: "https://evil.example", want: 200},
		{name: "any origin is not any host", opts: []mcphttp.Option{mcphttp.WithAllowedOrigins("*")}, host: "evil.example", want: 403},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := mcphttp.Handler(rttest.HTTPServer(), append(tt.opts, mcphttp.WithStateless())...)
			req := httptest.NewRequest("POST", "http://localhost/mcp", strings.NewReader(rttest.ListBody))
			req.Host = tt.host
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Content-Type", "application/json")
			if tt.origin != "" {
				req.Header.Set("Origin", tt.origin)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != tt.want {
				t.Errorf("status %d, want %d: %s", w.Code, tt.want, w.Body)
			}
		})
	}
}

// TestHTTPMaxInFlight: a session's calls beyond the limit wait for a slot,
// over HTTP as over a stream.
func TestHTTPMaxInFlight(t *testing.T) {
	b := rttest.NewBlocker()
	srv := rttest.NewServer(rt.WithMaxInFlight(2))
	srv.AddTool(b.Tool())
	c := rttest.NewHTTPClient(t, mcphttp.Handler(srv))
	c.Initialize("2025-11-25")
	done := make(chan *rttest.Exchange, 3)
	for _, id := range []string{"a", "b", "c"} {
		go func() {
			done <- c.Do("POST", `{"jsonrpc":"2.0","id":"`+id+`","method":"tools/call","params":{"name":"block","arguments":{"id":"`+id+`"}}}`)
		}()
	}
	b.WaitStarted(t, 2)
	select {
	case id := <-b.Started:
		t.Fatalf("call %s started beyond the limit of 2", id)
	case <-time.After(100 * time.Millisecond):
	}
	close(b.Release)
	b.WaitStarted(t, 1) // the third, once a slot is free
	for range 3 {
		if x := <-done; x.Status != 200 || !bytes.Contains(x.Body, []byte("done ")) {
			t.Errorf("call: %d %s", x.Status, x.Body)
		}
	}
}

// TestHTTPSessionFromContext: a handler sees the HTTP session it runs in,
// with the revision negotiated.
func TestHTTPSessionFromContext(t *testing.T) {
	srv := rttest.NewServer()
	srv.AddTool(rttest.Tool("whoami", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		s := rt.SessionFromContext(ctx)
		name, _ := s.ClientInfo()
		return rt.TextResult(name + " " + s.ProtocolVersion()), nil
	}))
	c := rttest.NewHTTPClient(t, mcphttp.Handler(srv))
	c.Initialize("2025-06-18")
	if x := c.Post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"whoami"}}`, 200); !bytes.Contains(x.Body, []byte(`"t 2025-06-18"`)) {
		t.Errorf("whoami: %s", x.Body)
	}
}

// sseEvent is one server-sent event with its fields.
type sseEvent struct{ id, name, data, retry string }

// readEvents sends the events of an event stream to a channel, which is
// closed at the end of the stream.
func readEvents(body io.ReadCloser) <-chan sseEvent {
	events := make(chan sseEvent, 16)
	go func() {
		defer close(events)
		defer body.Close()
		sc := bufio.NewScanner(body)
		var e sseEvent
		for sc.Scan() {
			field, value, _ := strings.Cut(sc.Text(), ":")
			value = strings.TrimPrefix(value, " ")
			switch field {
			case "":
				if e != (sseEvent{}) {
					events <- e
				}
				e = sseEvent{}
			case "id":
				e.id = value
			case "event":
				e.name = value
			case "data":
				e.data = value
			case "retry":
				e.retry = value
			}
		}
	}()
	return events
}

func nextEvent(t *testing.T, events <-chan sseEvent) sseEvent {
	t.Helper()
	select {
	case e, ok := <-events:
		if !ok {
			t.Fatal("the stream ended")
		}
		return e
	case <-time.After(rttest.Timeout):
		t.Fatal("no event")
	}
	return sseEvent{}
}

// TestHTTPResume: a client that loses a POST's event stream gets the rest
// of it, the answer included, by GET with Last-Event-ID.
func TestHTTPResume(t *testing.T) {
	gate := make(chan struct{})
	srv := rttest.NewServer()
	srv.AddTool(rttest.Tool("steps", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		for i, step := range []string{"one", "two"} {
			if i == 1 {
				<-gate
			}
			rt.Progress(ctx, float64(i+1), 0, step)
		}
		return rt.TextResult("finished"), nil
	}))
	c := rttest.NewHTTPClient(t, mcphttp.Handler(srv))
	c.Initialize("2025-11-25")

	ctx, cancel := context.WithCancel(context.Background())
	call := `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"steps","_meta":{"progressToken":5}}}`
	c.Tracker.Client([]byte(call))
	req, _ := http.NewRequestWithContext(ctx, "POST", c.URL, strings.NewReader(call))
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Mcp-Session-Id", c.Session)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	events := readEvents(resp.Body)
	priming := nextEvent(t, events)
	stream, seq, ok := strings.Cut(priming.id, "_")
	if !ok || seq != "0" || priming.retry == "" || priming.data != "" {
		t.Fatalf("priming event %+v, want id STREAM_0, a retry and no data", priming)
	}
	one := nextEvent(t, events)
	if one.id != stream+"_1" || !strings.Contains(one.data, `"one"`) {
		t.Fatalf("first event %+v", one)
	}
	cancel() // the connection is lost
	close(gate)

	resume := func(lastEventID string) <-chan sseEvent {
		req, _ := http.NewRequest("GET", c.URL, nil)
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("Mcp-Session-Id", c.Session)
		req.Header.Set("Last-Event-ID", lastEventID)
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("GET with Last-Event-ID: %v %v", resp, err)
		}
		return readEvents(resp.Body)
	}
	// The rest, then the stream ends: it is complete.
	events = resume(one.id)
	two := nextEvent(t, events)
	answer := nextEvent(t, events)
	if two.id != stream+"_2" || !strings.Contains(two.data, `"two"`) || answer.id != stream+"_3" || !strings.Contains(answer.data, `"finished"`) {
		t.Fatalf("resumed events %+v, %+v", two, answer)
	}
	c.Validate([]byte(two.data))
	c.Validate([]byte(answer.data))
	if e, ok := <-events; ok {
		t.Fatalf("event %+v after the answer", e)
	}
	// From the start, all of it again.
	events = resume(priming.id)
	var got []string
	for e := range events {
		got = append(got, e.id)
	}
	if want := []string{stream + "_1", stream + "_2", stream + "_3"}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("replay from the priming event: %v, want %v", got, want)
	}
	// An unknown stream: a new server stream.
	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	req, _ = http.NewRequestWithContext(ctx2, "GET", c.URL, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", c.Session)
	req.Header.Set("Last-Event-ID", "99_1")
	resp, err = http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET with an unknown Last-Event-ID: %v %v", resp, err)
	}
	if e := nextEvent(t, readEvents(resp.Body)); e.id != "0_0" || e.retry == "" {
		t.Errorf("server stream's priming event %+v, want id 0_0", e)
	}
}
