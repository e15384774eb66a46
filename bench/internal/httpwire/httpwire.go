// Package httpwire is the Streamable HTTP side of the benchmark: a helper
// the servers use to serve their handler on a loopback port, and the client
// the driver and the tests speak to them with. Every client has its own
// connection and, unless the server is stateless, its own session; every
// answer is checked as the stdio client checks it (package wire).
package httpwire

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/bench/internal/httpserve"
	"github.com/mcpgen/mcpgen/bench/internal/searchtool"
	"github.com/mcpgen/mcpgen/bench/internal/wire"
)

// Path is where every server mounts its handler.
const Path = httpserve.Path

// callTimeout bounds every request of a client.
const callTimeout = 30 * time.Second

// fullEvery says how often an answer that passes the cheap check is
// decoded in full all the same.
const fullEvery = 16

// Client is one MCP client over Streamable HTTP, with a connection of its
// own. It is not safe for concurrent use: concurrent clients are separate
// Clients.
type Client struct {
	url     string
	hc      *http.Client
	tr      *http.Transport
	shared  bool   // tr is a pool other clients use too
	session string // Mcp-Session-Id given by initialize; "" when stateless
	version string // the negotiated protocol revision
	id      int64
	req     []byte
	body    bytes.Buffer
}

// NewClient returns a client of the endpoint at url.
func NewClient(url string) *Client {
	tr := &http.Transport{
		Proxy:               nil, // loopback only
		MaxIdleConnsPerHost: 1,
		MaxConnsPerHost:     1,
		DisableCompression:  true,
		IdleConnTimeout:     time.Minute,
	}
	return &Client{url: url, tr: tr, hc: &http.Client{Transport: tr, Timeout: callTimeout}}
}

// Session returns the session id the server gave on initialize, or "".
func (c *Client) Session() string { return c.session }

func (c *Client) post(body []byte) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if c.session != "" {
		req.Header.Set("Mcp-Session-Id", c.session)
	}
	if c.version != "" {
		req.Header.Set("Mcp-Protocol-Version", c.version)
	}
	return c.hc.Do(req)
}

// answer reads the response to a request and returns the JSON-RPC answer
// it carries, whether the server answered with JSON or with an event
// stream (in which case notifications before the answer are skipped). The
// returned slice is valid until the next request.
func (c *Client) answer(resp *http.Response) ([]byte, error) {
	defer resp.Body.Close()
	c.body.Reset()
	if _, err := c.body.ReadFrom(resp.Body); err != nil {
		return nil, fmt.Errorf("reading the answer: %v", err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP %s: %.200q", resp.Status, c.body.Bytes())
	}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch ct {
	case "application/json":
		return bytes.TrimSpace(c.body.Bytes()), nil
	case "text/event-stream":
		return answerEvent(c.body.Bytes())
	}
	return nil, fmt.Errorf("answer of Content-Type %q, want application/json or text/event-stream", resp.Header.Get("Content-Type"))
}

// answerEvent returns the data of the first event of an event stream that
// is a JSON-RPC response (not a notification or a request).
func answerEvent(stream []byte) ([]byte, error) {
	var data []byte
	sc := bufio.NewScanner(bytes.NewReader(stream))
	sc.Buffer(nil, len(stream)+1)
	for more := true; more; {
		more = sc.Scan()
		line := sc.Bytes()
		if !more || len(line) == 0 { // end of an event
			if len(data) > 0 && !bytes.Contains(data, []byte(`"method"`)) {
				return data, nil
			}
			data = data[:0]
			continue
		}
		if v, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			v = bytes.TrimPrefix(v, []byte(" "))
			if len(data) > 0 {
				data = append(data, '\n')
			}
			data = append(data, v...)
		}
	}
	return nil, fmt.Errorf("event stream without an answer: %.200q", stream)
}

// Initialize opens the client's session: initialize, then
// notifications/initialized. A stateless server gives no session id; the
// client then sends none.
func (c *Client) Initialize() error {
	c.id++
	resp, err := c.post(wire.AppendInitialize(c.req[:0], c.id))
	if err != nil {
		return err
	}
	c.session = resp.Header.Get("Mcp-Session-Id")
	line, err := c.answer(resp)
	if err != nil {
		return fmt.Errorf("initialize: %v", err)
	}
	m, err := wire.ParseMessage(line)
	if err != nil {
		return fmt.Errorf("initialize: %v", err)
	}
	r, err := wire.CheckInitialize(m, c.id)
	if err != nil {
		return err
	}
	c.version = r.ProtocolVersion
	resp, err = c.post(wire.AppendInitialized(c.req[:0]))
	if err != nil {
		return err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		return fmt.Errorf("notifications/initialized answered %s, want 202 Accepted", resp.Status)
	}
	return nil
}

// Call makes one tools/call of search_files (alternating between
// wire.Calls by id) and checks the answer: it carries the request's id and
// exactly the expected text, without isError. One answer in fullEvery, and
// any that fails that cheap check, is decoded in full, which decides.
func (c *Client) Call() error {
	c.id++
	call := wire.CallFor(c.id)
	c.req = wire.AppendCall(c.req[:0], c.id, searchtool.Name, call.Args)
	resp, err := c.post(c.req)
	if err != nil {
		return err
	}
	line, err := c.answer(resp)
	if err != nil {
		return fmt.Errorf("tools/call %s: %v", call.Args, err)
	}
	if wire.QuickCheck(line, c.id, call.WantJSON) == nil && c.id%fullEvery != 0 {
		return nil
	}
	return CheckAnswer(line, c.id, call)
}

// CheckAnswer decodes a tools/call answer in full and checks that it
// answers id with the expected result of call.
func CheckAnswer(line []byte, id int64, call wire.Call) error {
	m, err := wire.ParseMessage(line)
	if err != nil {
		return err
	}
	got, err := m.IDInt()
	if err != nil {
		return err
	}
	if got != id {
		return fmt.Errorf("answer carries id %d, want %d", got, id)
	}
	r, err := wire.DecodeCallResult(m)
	if err != nil {
		return fmt.Errorf("tools/call %s: %v", call.Args, err)
	}
	return wire.CheckCall(r, call)
}

// Close ends the client's session (DELETE, as a client that is done does;
// a server may answer 405 when it does not let clients end sessions) and
// closes its connection, unless the client shares a pool (NewPooledClient).
func (c *Client) Close() error {
	if !c.shared {
		defer c.tr.CloseIdleConnections()
	}
	if c.session == "" {
		return nil
	}
	req, err := http.NewRequest(http.MethodDelete, c.url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Mcp-Session-Id", c.session)
	if c.version != "" {
		req.Header.Set("Mcp-Protocol-Version", c.version)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK, http.StatusAccepted, http.StatusNoContent, http.StatusMethodNotAllowed:
		return nil
	}
	return fmt.Errorf("DELETE of the session answered %s", resp.Status)
}

// ErrNoSession is returned by Check when a stateful server gave no session.
var ErrNoSession = errors.New("initialize answered without an Mcp-Session-Id header")

// Check runs what the benchmark does against the endpoint at url and
// reports the problems: sessions are given by a stateful server and not by
// a stateless one, the benchmark's calls are answered right, from several
// clients at once, and a stateful server refuses a session id it never
// gave with 404 Not Found.
func Check(url string, stateless bool) error {
	const clients, calls = 3, 2 * fullEvery
	n := clients
	if !stateless {
		n++
	}
	errs := make(chan error, n)
	for range clients {
		go func() {
			c := NewClient(url)
			errs <- func() error {
				if err := c.Initialize(); err != nil {
					return err
				}
				switch {
				case stateless && c.session != "":
					return fmt.Errorf("stateless server gave session %q", c.session)
				case !stateless && c.session == "":
					return ErrNoSession
				}
				for range calls {
					if err := c.Call(); err != nil {
						return err
					}
				}
				return c.Close()
			}()
		}()
	}
	if !stateless {
		// A stateful server keeps its sessions: it refuses one it never gave.
		c := NewClient(url)
		defer c.tr.CloseIdleConnections()
		c.session, c.version = "no-such-session", wire.ProtocolVersion
		if err := c.Call(); err == nil || !strings.Contains(err.Error(), "HTTP 404") {
			errs <- fmt.Errorf("a call in a session the server never gave: want HTTP 404, got %v", err)
		} else {
			errs <- nil
		}
	}
	var all []string
	for range n {
		if err := <-errs; err != nil {
			all = append(all, err.Error())
		}
	}
	if len(all) > 0 {
		return errors.New(strings.Join(all, "; "))
	}
	return nil
}

// Conformance serves h at Path on a loopback test server and runs Check
// against it.
func Conformance(t testing.TB, h http.Handler, stateless bool) {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle(Path, h)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	if err := Check(srv.URL+Path, stateless); err != nil {
		t.Fatal(err)
	}
}
