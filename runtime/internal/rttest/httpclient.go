package rttest

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
)

// ListBody is a tools/list request with id 2.
const ListBody = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`

// InitBody is an initialize request with id 1 at revision 2025-11-25.
const InitBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`

// InitBodyAt is InitBody at revision rev.
func InitBodyAt(rev string) string { return strings.Replace(InitBody, "2025-11-25", rev, 1) }

// HTTPClient talks to a Streamable HTTP handler the way a client does, and
// validates every message the server sends against the schema of the
// negotiated revision.
type HTTPClient struct {
	T       testing.TB         // the test failures are reported to; a subtest may set its own
	URL     string             // the handler's address
	Session string             // Mcp-Session-Id to send
	Version string             // MCP-Protocol-Version to send
	Tracker *mcpschema.Tracker // validates the messages and follows the revision
}

// NewHTTPClient serves h on a test server, closed when the test ends, and
// returns a client of it without a session.
func NewHTTPClient(t testing.TB, h http.Handler) *HTTPClient {
	t.Helper()
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return NewHTTPClientAt(t, ts.URL)
}

// NewHTTPClientAt returns a client without a session of the Streamable
// HTTP endpoint at url, which the test serves itself.
func NewHTTPClientAt(t testing.TB, url string) *HTTPClient {
	t.Helper()
	mcpschema.RequireAll(t)
	return &HTTPClient{T: t, URL: url, Tracker: mcpschema.NewTracker()}
}

// Exchange is what one HTTP request got.
type Exchange struct {
	Status int         // the response's status code
	Header http.Header // the response's header
	Body   []byte      // the whole response body
	Events [][]byte    // the data of each event, for an event stream
}

// Do sends an HTTP request with the client's headers, then hdr (name,
// value pairs; an empty value deletes the header), and reads the whole
// response. It validates the messages of a JSON or event-stream answer,
// and fails the test if an error status comes as JSON without a JSON-RPC
// error.
func (c *HTTPClient) Do(method, body string, hdr ...string) *Exchange {
	c.T.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, c.URL, strings.NewReader(body))
	if err != nil {
		c.T.Fatal(err)
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	if c.Session != "" {
		req.Header.Set("Mcp-Session-Id", c.Session)
	}
	if c.Version != "" {
		req.Header.Set("MCP-Protocol-Version", c.Version)
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
		c.Tracker.Client([]byte(body))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.T.Fatalf("%s: %v", method, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		c.T.Fatalf("%s: reading the response: %v", method, err)
	}
	x := &Exchange{Status: resp.StatusCode, Header: resp.Header, Body: data}
	switch ct := resp.Header.Get("Content-Type"); {
	case resp.StatusCode == http.StatusOK && ct == "application/json":
		c.Validate(data)
	case ct == "text/event-stream":
		x.Events = SSEData(data)
		for _, e := range x.Events {
			c.Validate(e)
		}
	case resp.StatusCode >= 400 && ct == "application/json":
		var e struct{ Error *struct{ Message string } }
		if json.Unmarshal(data, &e) != nil || e.Error == nil || e.Error.Message == "" {
			c.T.Errorf("%s: error %d without a JSON-RPC error: %s", method, resp.StatusCode, data)
		}
	}
	return x
}

// Validate fails the test (without stopping it) if msg, a message the
// server sent, does not validate against the schema of the negotiated
// revision.
func (c *HTTPClient) Validate(msg []byte) {
	c.T.Helper()
	if err := c.Tracker.Server(msg); err != nil {
		c.T.Errorf("server message does not validate (revision %q): %v\n%s", c.Tracker.Revision(), err, msg)
	}
}

// Post sends one message and expects status want.
func (c *HTTPClient) Post(body string, want int, hdr ...string) *Exchange {
	c.T.Helper()
	x := c.Do(http.MethodPost, body, hdr...)
	if x.Status != want {
		c.T.Fatalf("POST %.80s: status %d, want %d: %s", body, x.Status, want, x.Body)
	}
	return x
}

// Initialize starts a session at rev.
func (c *HTTPClient) Initialize(rev string) {
	c.T.Helper()
	x := c.Post(InitBodyAt(rev), http.StatusOK)
	c.Session = x.Header.Get("Mcp-Session-Id")
	if len(c.Session) < 22 {
		c.T.Fatalf("initialize: session id %q, want at least 128 random bits", c.Session)
	}
	c.Version = rev
	c.Post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, http.StatusAccepted)
}

// Assume makes the client send requests at rev without initialize, as to
// a stateless server.
func (c *HTTPClient) Assume(rev string) {
	c.Tracker = mcpschema.NewTracker()
	c.Tracker.Client([]byte(InitBodyAt(rev)))
	c.Tracker.Server([]byte(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"` + rev + `","capabilities":{},"serverInfo":{"name":"test","version":"1.0.0"}}}`))
	c.Version = rev
}

// OpenStream opens the session's server stream (a GET) and returns the
// data of its events, but for priming events, and the response; the
// channel is closed when the stream ends.
func (c *HTTPClient) OpenStream(ctx context.Context) (<-chan []byte, *http.Response) {
	c.T.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", c.URL, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", c.Session)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.T.Fatal(err)
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

// SSEData returns the data of each event of an event stream.
func SSEData(stream []byte) [][]byte {
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
