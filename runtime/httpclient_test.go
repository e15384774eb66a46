// A Streamable HTTP client for the tests that exercise the session core
// over package mcphttp (whose own tests have the same client).

package runtime_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/mcpschema"
	rt "github.com/mcpgen/mcpgen/runtime"
)

const listBody = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`

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

// openStream opens the session's server stream and returns its events.
