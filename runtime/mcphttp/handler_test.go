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

	"github.com/mcpgen/mcpgen/internal/mcpschema"
	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
)

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`

func initBodyAt(rev string) string { return strings.Replace(initBody, "2025-11-25", rev, 1) }

// httpClient talks to a Streamable HTTP handler the way a client does, and
// validates every message the server sends against the schema of the
// negotiated revision.
type httpClient struct {
	t       testing.TB
	url     string
	session string // Mcp-Session-Id to send
	version string // MCP-Protocol-Version to send
	tr      *mcpschema.Tracker
}

func newHTTPClient(t testing.TB, h http.Handler) *httpClient {
	t.Helper()
	mcpschema.RequireAll(t)
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return &httpClient{t: t, url: ts.URL, tr: mcpschema.NewTracker()}
}

// exchange is what one HTTP request got.
type exchange struct {
	status int
	header http.Header
	body   []byte
	events [][]byte // the data of each event, for an event stream
}

// do sends an HTTP request with the client's headers, then hdr (name,
// value pairs; an empty value deletes the header), and reads the whole
// response.
func (c *httpClient) do(method, body string, hdr ...string) *exchange {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, c.url, strings.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	if c.session != "" {
		req.Header.Set("Mcp-Session-Id", c.session)
	}
	if c.version != "" {
		req.Header.Set("MCP-Protocol-Version", c.version)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i] == "Host" {
			req.Host = hdr[i+1]
		} else if hdr[i+1] == "" {
			req.Header.Del(hdr[i])
		} else {
			req.Header.Set(hdr[i], hdr[i+1])
		}
	}
	if method == http.MethodPost {
		c.tr.Client([]byte(body))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatalf("%s: reading the response: %v", method, err)
	}
	x := &exchange{status: resp.StatusCode, header: resp.Header, body: data}
	switch ct := resp.Header.Get("Content-Type"); {
	case resp.StatusCode == http.StatusOK && ct == "application/json":
		c.validate(data)
	case ct == "text/event-stream":
		x.events = sseData(data)
		for _, e := range x.events {
			c.validate(e)
		}
	case resp.StatusCode >= 400 && ct == "application/json":
		var e struct{ Error *struct{ Message string } }
		if json.Unmarshal(data, &e) != nil || e.Error == nil || e.Error.Message == "" {
			c.t.Errorf("%s: error %d without a JSON-RPC error: %s", method, resp.StatusCode, data)
		}
	}
	return x
}

func (c *httpClient) validate(msg []byte) {
	c.t.Helper()
	if err := c.tr.Server(msg); err != nil {
		c.t.Errorf("server message does not validate (revision %q): %v\n%s", c.tr.Revision(), err, msg)
	}
}

// post sends one message and expects status want.
func (c *httpClient) post(body string, want int, hdr ...string) *exchange {
	c.t.Helper()
	x := c.do(http.MethodPost, body, hdr...)
	if x.status != want {
		c.t.Fatalf("POST %.80s: status %d, want %d: %s", body, x.status, want, x.body)
	}
	return x
}

// initialize starts a session at rev.
func (c *httpClient) initialize(rev string) {
	c.t.Helper()
	x := c.post(initBodyAt(rev), http.StatusOK)
	c.session = x.header.Get("Mcp-Session-Id")
	if len(c.session) < 22 {
		c.t.Fatalf("initialize: session id %q, want at least 128 random bits", c.session)
	}
	c.version = rev
	c.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, http.StatusAccepted)
}

// assume makes the client send requests at rev without initialize, as to
// a stateless server.
func (c *httpClient) assume(rev string) {
	c.tr = mcpschema.NewTracker()
	c.tr.Client([]byte(initBodyAt(rev)))
	c.tr.Server([]byte(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"` + rev + `","capabilities":{},"serverInfo":{"name":"test","version":"1.0.0"}}}`))
	c.version = rev
}

// sseData returns the data of each event of an event stream.
func sseData(stream []byte) [][]byte {
	var events [][]byte
	var data []byte
	sc := bufio.NewScanner(bytes.NewReader(stream))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if data != nil {
				events = append(events, data)
			}
			data = nil
		case strings.HasPrefix(line, "data:"):
			if data != nil {
				data = append(data, '\n')
			}
			data = append(data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " ")...)
		}
	}
	return events
}

// progressTool sends a notification within its exchange, then answers.
var progressTool = tool("progress", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
	err := rt.Progress(ctx, 1, 0, "working")
	if err != nil {
		return nil, err
	}
	return rt.TextResult("done"), nil
})

// notifyTool sends a notification outside any exchange, on the session's
// server stream.
var notifyTool = tool("notify", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
	if err := req.Session.Notify("notifications/tools/list_changed", nil); err != nil {
		return rt.ErrorResult(err.Error()), nil
	}
	return rt.TextResult("sent"), nil
})

var panicTool = tool("panic", func(context.Context, *rt.ToolRequest) (*rt.CallToolResult, error) { panic("boom") })

func httpServer(opts ...rt.Option) *rt.Server {
	srv := newServer(opts...)
	srv.AddTool(echoTool)
	srv.AddTool(progressTool)
	srv.AddTool(notifyTool)
	srv.AddTool(panicTool)
	return srv
}

const (
	listBody = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	echoBody = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`
)

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
		{name: "request answered as JSON", method: "POST", body: listBody, want: 200, has: `"name":"echo"`},
		{name: "call answered as JSON", method: "POST", body: echoBody, want: 200, has: `"text":"hi"`},
		{name: "notification accepted", method: "POST", body: `{"jsonrpc":"2.0","method":"notifications/whatever"}`, want: 202},
		{name: "response accepted", method: "POST", body: `{"jsonrpc":"2.0","id":"s1","result":{}}`, want: 202},
		{name: "unknown method is a JSON-RPC error", method: "POST", body: `{"jsonrpc":"2.0","id":4,"method":"nope"}`, want: 200, has: `-32601`},
		{name: "not JSON", method: "POST", body: `{"jsonrpc":`, want: 400, has: "Parse error"},
		{name: "empty body", method: "POST", body: ``, want: 400, has: "body is empty"},
		{name: "batch outside 2025-03-26", method: "POST", body: "[" + listBody + "]", want: 400, has: "batches are not supported in protocol revision 2025-11-25"},
		{name: "no session id", method: "POST", body: listBody, noSess: true, want: 400, has: "Mcp-Session-Id header is required"},
		{name: "no session id, notification", method: "POST", body: `{"jsonrpc":"2.0","method":"notifications/roots/list_changed","params":{}}`, noSess: true, want: 202},
		{name: "no session id, batch", method: "POST", body: "[" + initBody + "]", noSess: true, want: 400, has: "not in a batch"},
		{name: "no session id, not JSON", method: "POST", body: `nope`, noSess: true, want: 400, has: "Parse error"},
		{name: "unknown session", method: "POST", body: listBody, hdr: []string{"Mcp-Session-Id", "nope"}, want: 404, has: `session \"nope\" has ended`},
		{name: "unsupported protocol version", method: "POST", body: listBody, hdr: []string{"MCP-Protocol-Version", "2024-01-01"}, want: 400, has: `unsupported Mcp-Protocol-Version \"2024-01-01\"`},
		{name: "other supported protocol version", method: "POST", body: listBody, hdr: []string{"MCP-Protocol-Version", "2025-03-26"}, want: 200, has: `"name":"echo"`},
		{name: "absent protocol version", method: "POST", body: listBody, hdr: []string{"MCP-Protocol-Version", ""}, want: 200, has: `"name":"echo"`},
		{name: "Accept without event stream", method: "POST", body: listBody, hdr: []string{"Accept", "application/json"}, want: 406, has: "Not Acceptable"},
		{name: "Accept wildcard", method: "POST", body: listBody, hdr: []string{"Accept", "*/*"}, want: 200},
		{name: "Accept missing", method: "POST", body: listBody, hdr: []string{"Accept", ""}, want: 406},
		{name: "Content-Type text", method: "POST", body: listBody, hdr: []string{"Content-Type", "text/plain"}, want: 415},
		{name: "Content-Type with charset", method: "POST", body: listBody, hdr: []string{"Content-Type", "application/json; charset=utf-8"}, want: 200},
		{name: "body too large", method: "POST", body: `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"text":"` + strings.Repeat("x", 2000) + `"}}}`, want: 413, has: "message larger than 1024 bytes"},
		{name: "foreign Host", method: "POST", body: listBody, hdr: []string{"Host", "evil.example:80"}, want: 403, has: `Host \"evil.example:80\" is not allowed`},
		{name: "foreign Origin", method: "POST", body: listBody, hdr: []string{"Origin", "http://evil.example"}, want: 403, has: "Origin"},
		{name: "null Origin", method: "POST", body: listBody, hdr: []string{"Origin", "null"}, want: 403},
		{name: "local Origin", method: "POST", body: listBody, hdr: []string{"Origin", "http://localhost:5173"}, want: 200},
		{name: "localhost Host", method: "POST", body: listBody, hdr: []string{"Host", "LOCALHOST:1234"}, want: 200},
		{name: "IPv6 loopback Host", method: "POST", body: listBody, hdr: []string{"Host", "[::1]:1234"}, want: 200},
		{name: "foreign Host before method check", method: "PUT", hdr: []string{"Host", "evil.example"}, want: 403},
		{name: "PUT", method: "PUT", want: 405},
		{name: "GET without session", method: "GET", noSess: true, want: 400},
		{name: "GET unknown session", method: "GET", hdr: []string{"Mcp-Session-Id", "nope"}, want: 404},
		{name: "GET without event stream", method: "GET", hdr: []string{"Accept", "application/json"}, want: 406},
		{name: "DELETE without session", method: "DELETE", noSess: true, want: 400},
		{name: "DELETE unknown session", method: "DELETE", hdr: []string{"Mcp-Session-Id", "nope"}, want: 404},
	}
	c := newHTTPClient(t, mcphttp.Handler(httpServer(rt.WithMaxMessageSize(1024))))
	c.initialize("2025-11-25")
	session := c.session
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.t = t
			c.session = session
			if tt.noSess {
				c.session = ""
			}
			x := c.do(tt.method, tt.body, tt.hdr...)
			if x.status != tt.want {
				t.Fatalf("status %d, want %d: %s", x.status, tt.want, x.body)
			}
			if tt.want == 202 && len(x.body) != 0 {
				t.Errorf("202 with a body: %s", x.body)
			}
			if !strings.Contains(string(x.body), tt.has) {
				t.Errorf("body %s lacks %s", x.body, tt.has)
			}
		})
	}
}

func TestHTTPInitialize(t *testing.T) {
	c := newHTTPClient(t, mcphttp.Handler(httpServer()))
	x := c.post(initBody, 200)
	id := x.header.Get("Mcp-Session-Id")
	if len(id) < 22 || strings.ContainsFunc(id, func(r rune) bool { return r < 0x21 || r > 0x7e }) {
		t.Fatalf("session id %q: want at least 22 visible ASCII characters", id)
	}
	if !bytes.Contains(x.body, []byte(`"protocolVersion":"2025-11-25"`)) {
		t.Errorf("initialize result: %s", x.body)
	}
	// Every session gets its own id.
	c2 := newHTTPClient(t, mcphttp.Handler(httpServer()))
	if id2 := c2.post(initBody, 200).header.Get("Mcp-Session-Id"); id2 == id || id2 == "" {
		t.Errorf("second session id %q, first %q", id2, id)
	}
	// A failed initialize starts no session.
	x = c.post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`, 200)
	if got := x.header.Get("Mcp-Session-Id"); got != "" || !bytes.Contains(x.body, []byte("protocolVersion is required")) {
		t.Errorf("failed initialize: session %q, body %s", got, x.body)
	}
	// Initialize within a session is refused by the session.
	c.session, c.version = id, "2025-11-25"
	if x := c.post(initBody, 200); !bytes.Contains(x.body, []byte("already initialized")) {
		t.Errorf("second initialize: %s", x.body)
	}
}

func TestHTTPDelete(t *testing.T) {
	c := newHTTPClient(t, mcphttp.Handler(httpServer()))
	c.initialize("2025-11-25")
	if x := c.do("DELETE", ""); x.status != http.StatusNoContent {
		t.Fatalf("DELETE: %d %s", x.status, x.body)
	}
	c.post(listBody, 404)
	if x := c.do("DELETE", ""); x.status != http.StatusNotFound {
		t.Errorf("second DELETE: %d, want 404", x.status)
	}
}

func TestHTTPBatch(t *testing.T) {
	c := newHTTPClient(t, mcphttp.Handler(httpServer()))
	c.initialize("2025-03-26")
	x := c.post("["+listBody+","+echoBody+`,{"jsonrpc":"2.0","method":"notifications/x"}]`, 200)
	var got []struct{ ID int }
	if err := json.Unmarshal(x.body, &got); err != nil || len(got) != 2 {
		t.Fatalf("batch answer: %s (%v)", x.body, err)
	}
	c.post(`[{"jsonrpc":"2.0","method":"notifications/x"}]`, 202)
}

func TestHTTPIdleExpiry(t *testing.T) {
	c := newHTTPClient(t, mcphttp.Handler(httpServer(), mcphttp.WithSessionIdleTimeout(50*time.Millisecond)))
	c.initialize("2025-11-25")
	c.post(listBody, 200)
	deadline := time.Now().Add(testTimeout)
	for {
		x := c.do("POST", listBody)
		if x.status == 404 {
			break
		}
		if x.status != 200 || time.Now().After(deadline) {
			t.Fatalf("status %d, want 404 once the session expires", x.status)
		}
		time.Sleep(100 * time.Millisecond) // longer than the timeout: idle between requests
	}
}

func TestHTTPEventStreamResponse(t *testing.T) {
	c := newHTTPClient(t, mcphttp.Handler(httpServer()))
	c.initialize("2025-11-25")
	x := c.post(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"progress","_meta":{"progressToken":1}}}`, 200)
	if ct := x.header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q, want text/event-stream: %s", ct, x.body)
	}
	if len(x.events) != 2 || !bytes.Contains(x.events[0], []byte(`"notifications/progress"`)) || !bytes.Contains(x.events[1], []byte(`"id":7`)) {
		t.Fatalf("events %q, want the notification then the answer", x.events)
	}
	// Without related messages the answer is plain JSON.
	if x := c.post(echoBody, 200); x.header.Get("Content-Type") != "application/json" {
		t.Errorf("echo: Content-Type %q", x.header.Get("Content-Type"))
	}
}

func TestHTTPPanicRecovered(t *testing.T) {
	c := newHTTPClient(t, mcphttp.Handler(httpServer()))
	c.initialize("2025-11-25")
	x := c.post(`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"panic"}}`, 200)
	if !bytes.Contains(x.body, []byte(`"isError":true`)) {
		t.Fatalf("panic: %s", x.body)
	}
	c.post(echoBody, 200)
}

// openStream opens the session's server stream and returns its events.
func (c *httpClient) openStream(ctx context.Context) (<-chan []byte, *http.Response) {
	c.t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", c.url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", c.session)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	events := make(chan []byte, 16)
	go func() {
		defer close(events)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok && data != "" { // not a priming event
				events <- []byte(data)
			}
		}
	}()
	return events, resp
}

func TestHTTPServerStream(t *testing.T) {
	srv := httpServer()
	c := newHTTPClient(t, mcphttp.Handler(srv))
	c.initialize("2025-11-25")
	notify := `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"notify"}}`
	// No stream yet: Notify fails, and the tool says so.
	if x := c.post(notify, 200); !bytes.Contains(x.body, []byte("no server stream")) {
		t.Fatalf("notify without a stream: %s", x.body)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events, resp := c.openStream(ctx)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("GET: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	// One stream per session.
	if x := c.do("GET", ""); x.status != http.StatusConflict {
		t.Errorf("second GET: %d, want 409", x.status)
	}
	if x := c.post(notify, 200); !bytes.Contains(x.body, []byte(`"sent"`)) {
		t.Fatalf("notify: %s", x.body)
	}
	select {
	case e := <-events:
		if !bytes.Contains(e, []byte("notifications/tools/list_changed")) {
			t.Errorf("stream event %s", e)
		}
		c.validate(e)
	case <-time.After(testTimeout):
		t.Fatal("no event on the server stream")
	}
	// DELETE ends the stream.
	c.do("DELETE", "")
	select {
	case _, ok := <-events:
		if ok {
			t.Error("an event after DELETE")
		}
	case <-time.After(testTimeout):
		t.Fatal("the stream outlived its session")
	}
}

func TestHTTPCancel(t *testing.T) {
	b := newBlocker()
	srv := newServer()
	srv.AddTool(b.tool())
	c := newHTTPClient(t, mcphttp.Handler(srv))
	c.initialize("2025-11-25")

	// notifications/cancelled in another POST cancels the call; its POST
	// ends without an answer.
	done := make(chan *exchange, 1)
	go func() {
		done <- c.do("POST", `{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"block","arguments":{"id":"a"}}}`)
	}()
	b.waitStarted(t, 1)
	c.post(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a"}}`, 202)
	if err := b.waitEnded(t, "a"); !errors.Is(err, context.Canceled) {
		t.Errorf("call a ended with %v, want context.Canceled", err)
	}
	if x := <-done; x.status != http.StatusAccepted || len(x.body) != 0 {
		t.Errorf("cancelled call's POST: %d %s", x.status, x.body)
	}

	// A client that goes away before any event of the call's stream
	// cannot resume it: the answer cannot be delivered, so the call is
	// cancelled (see TestHTTPClientGone for one that can resume).
	gone := abandon(c, "b")
	b.waitStarted(t, 1)
	gone()
	if err := b.waitEnded(t, "b"); !errors.Is(err, context.Canceled) {
		t.Errorf("call b ended with %v, want context.Canceled", err)
	}
	c.post(listBody, 200) // the session lives on

	// Without sessions, the POST is the session: going away cancels.
	b = newBlocker()
	srv = newServer()
	srv.AddTool(b.tool())
	c = newHTTPClient(t, mcphttp.Handler(srv, mcphttp.WithStateless()))
	c.assume("2025-11-25")
	gone = abandon(c, "c")
	b.waitStarted(t, 1)
	gone()
	if err := b.waitEnded(t, "c"); !errors.Is(err, context.Canceled) {
		t.Errorf("stateless call c ended with %v, want context.Canceled", err)
	}
}

// abandon posts a call of the block tool; the client goes away when the
// returned function is called.
func abandon(c *httpClient, id string) (goAway func()) {
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", c.url, strings.NewReader(`{"jsonrpc":"2.0","id":"`+id+`","method":"tools/call","params":{"name":"block","arguments":{"id":"`+id+`"}}}`))
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	if c.session != "" {
		req.Header.Set("Mcp-Session-Id", c.session)
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
	b := newBlocker()
	srv := newServer()
	srv.AddTool(b.tool())
	c := newHTTPClient(t, mcphttp.Handler(srv))
	c.initialize("2025-11-25")
	const n = 5
	done := make(chan *exchange, n)
	for i := range n {
		id := string(rune('a' + i))
		go func() {
			done <- c.do("POST", `{"jsonrpc":"2.0","id":"`+id+`","method":"tools/call","params":{"name":"block","arguments":{"id":"`+id+`"}}}`)
		}()
	}
	b.waitStarted(t, n) // all run at once
	close(b.release)
	for range n {
		if x := <-done; x.status != 200 || !bytes.Contains(x.body, []byte("done ")) {
			t.Errorf("call: %d %s", x.status, x.body)
		}
	}
}

func TestHTTPStateless(t *testing.T) {
	srv := httpServer()
	c := newHTTPClient(t, mcphttp.Handler(srv, mcphttp.WithStateless()))
	// Initialize works, but starts no session.
	if x := c.post(initBody, 200); x.header.Get("Mcp-Session-Id") != "" {
		t.Errorf("stateless initialize gave session %q", x.header.Get("Mcp-Session-Id"))
	}
	// Requests need no initialize and no session.
	c.assume("2025-11-25")
	if x := c.post(echoBody, 200); !bytes.Contains(x.body, []byte(`"text":"hi"`)) {
		t.Errorf("call: %s", x.body)
	}
	if x := c.post(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"progress","_meta":{"progressToken":1}}}`, 200); len(x.events) != 2 {
		t.Errorf("progress: %q", x.events)
	}
	if x := c.post(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"notify"}}`, 200); !bytes.Contains(x.body, []byte("stateless")) {
		t.Errorf("notify: %s", x.body)
	}
	c.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, 202)
	for _, m := range []string{"GET", "DELETE"} {
		if x := c.do(m, ""); x.status != http.StatusMethodNotAllowed {
			t.Errorf("%s: %d, want 405", m, x.status)
		}
	}
	// Without the header, the revision is 2025-03-26: batches work.
	c.assume("2025-03-26")
	c.version = ""
	if x := c.post("["+listBody+"]", 200); !bytes.HasPrefix(x.body, []byte("[")) {
		t.Errorf("batch: %s", x.body)
	}
	c.post(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, 400, "MCP-Protocol-Version", "1999-01-01")
}

// TestListenAndServeHTTP serves on a free loopback port, then shuts down
// when the context ends.
func TestListenAndServeHTTP(t *testing.T) {
	logs := &syncBuffer{}
	srv := newServer(rt.WithLogger(slogTo(logs)))
	srv.AddTool(echoTool)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- mcphttp.ListenAndServe(ctx, srv, ":0") }()
	var url string
	deadline := time.Now().Add(testTimeout)
	for url == "" && time.Now().Before(deadline) {
		if _, rest, ok := strings.Cut(logs.String(), "url="); ok {
			url, _, _ = strings.Cut(rest, "\n")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/mcp") {
		t.Fatalf("served at %q, want http://127.0.0.1:PORT/mcp", url)
	}
	mcpschema.RequireAll(t)
	c := &httpClient{t: t, url: url, tr: mcpschema.NewTracker()}
	c.initialize("2025-06-18")
	ctxStream, cancelStream := context.WithCancel(context.Background())
	defer cancelStream()
	events, _ := c.openStream(ctxStream)
	c.post(echoBody, 200)
	cancel()
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("ListenAndServe: %v", err)
		}
	case <-time.After(testTimeout):
		t.Fatal("no shutdown")
	}
	// The open stream was ended, not left hanging.
	for range events {
	}
}

func slogTo(w io.Writer) *slog.Logger { return slog.New(slog.NewTextHandler(w, nil)) }

func TestHTTPLegacySSE(t *testing.T) {
	srv := httpServer()
	mux := http.NewServeMux()
	h := mcphttp.Handler(srv)
	mux.Handle("/mcp", h)
	mux.Handle("/mcp/", h)
	c := newHTTPClient(t, mux)
	base := c.url
	c.url = base + "/mcp/sse"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", c.url, nil)
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
		case <-time.After(testTimeout):
			t.Fatal("no event")
		}
		return event{}
	}
	first := next()
	if first.name != "endpoint" || !strings.HasPrefix(first.data, "message?sessionId=") {
		t.Fatalf("first event %+v, want the endpoint", first)
	}
	c.url = base + "/mcp/" + first.data
	post := func(body string) {
		t.Helper()
		if x := c.do("POST", body, "Accept", ""); x.status != http.StatusAccepted {
			t.Fatalf("POST: %d %s", x.status, x.body)
		}
	}
	post(initBodyAt("2024-11-05"))
	if e := next(); e.name != "message" || !strings.Contains(e.data, `"protocolVersion":"2024-11-05"`) {
		t.Fatalf("initialize answer %+v", e)
	} else {
		c.validate([]byte(e.data))
	}
	post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	post(echoBody)
	if e := next(); !strings.Contains(e.data, `"text":"hi"`) {
		t.Fatalf("call answer %+v", e)
	} else {
		c.validate([]byte(e.data))
	}
	// Its session id is not a Streamable HTTP session, and vice versa.
	id := strings.TrimPrefix(first.data, "message?sessionId=")
	c.url = base + "/mcp"
	c.session = id
	c.post(listBody, http.StatusNotFound)
	c.url = base + "/mcp/message?sessionId=nope"
	c.post(listBody, http.StatusNotFound)
	// The session ends with its stream.
	cancel()
	c.url = base + "/mcp/message?sessionId=" + id
	deadline := time.Now().Add(testTimeout)
	for c.do("POST", listBody).status != http.StatusNotFound {
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
			h := mcphttp.Handler(httpServer(), append(tt.opts, mcphttp.WithStateless())...)
			req := httptest.NewRequest("POST", "http://localhost/mcp", strings.NewReader(listBody))
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
	b := newBlocker()
	srv := newServer(rt.WithMaxInFlight(2))
	srv.AddTool(b.tool())
	c := newHTTPClient(t, mcphttp.Handler(srv))
	c.initialize("2025-11-25")
	done := make(chan *exchange, 3)
	for _, id := range []string{"a", "b", "c"} {
		go func() {
			done <- c.do("POST", `{"jsonrpc":"2.0","id":"`+id+`","method":"tools/call","params":{"name":"block","arguments":{"id":"`+id+`"}}}`)
		}()
	}
	b.waitStarted(t, 2)
	select {
	case id := <-b.started:
		t.Fatalf("call %s started beyond the limit of 2", id)
	case <-time.After(100 * time.Millisecond):
	}
	close(b.release)
	b.waitStarted(t, 1) // the third, once a slot is free
	for range 3 {
		if x := <-done; x.status != 200 || !bytes.Contains(x.body, []byte("done ")) {
			t.Errorf("call: %d %s", x.status, x.body)
		}
	}
}

// TestHTTPSessionFromContext: a handler sees the HTTP session it runs in,
// with the revision negotiated.
func TestHTTPSessionFromContext(t *testing.T) {
	srv := newServer()
	srv.AddTool(tool("whoami", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		s := rt.SessionFromContext(ctx)
		name, _ := s.ClientInfo()
		return rt.TextResult(name + " " + s.ProtocolVersion()), nil
	}))
	c := newHTTPClient(t, mcphttp.Handler(srv))
	c.initialize("2025-06-18")
	if x := c.post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"whoami"}}`, 200); !bytes.Contains(x.body, []byte(`"t 2025-06-18"`)) {
		t.Errorf("whoami: %s", x.body)
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
	case <-time.After(testTimeout):
		t.Fatal("no event")
	}
	return sseEvent{}
}

// TestHTTPResume: a client that loses a POST's event stream gets the rest
// of it, the answer included, by GET with Last-Event-ID.
func TestHTTPResume(t *testing.T) {
	gate := make(chan struct{})
	srv := newServer()
	srv.AddTool(tool("steps", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		for i, step := range []string{"one", "two"} {
			if i == 1 {
				<-gate
			}
			rt.Progress(ctx, float64(i+1), 0, step)
		}
		return rt.TextResult("finished"), nil
	}))
	c := newHTTPClient(t, mcphttp.Handler(srv))
	c.initialize("2025-11-25")

	ctx, cancel := context.WithCancel(context.Background())
	call := `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"steps","_meta":{"progressToken":5}}}`
	c.tr.Client([]byte(call))
	req, _ := http.NewRequestWithContext(ctx, "POST", c.url, strings.NewReader(call))
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Mcp-Session-Id", c.session)
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
		req, _ := http.NewRequest("GET", c.url, nil)
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("Mcp-Session-Id", c.session)
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
	c.validate([]byte(two.data))
	c.validate([]byte(answer.data))
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
	req, _ = http.NewRequestWithContext(ctx2, "GET", c.url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", c.session)
	req.Header.Set("Last-Event-ID", "99_1")
	resp, err = http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET with an unknown Last-Event-ID: %v %v", resp, err)
	}
	if e := nextEvent(t, readEvents(resp.Body)); e.id != "0_0" || e.retry == "" {
		t.Errorf("server stream's priming event %+v, want id 0_0", e)
	}
}
