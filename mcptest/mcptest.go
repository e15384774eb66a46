// Package mcptest tests MCP servers built on the mcpgen runtime in-process,
// without a subprocess: [Start] connects a client to a *runtime.Server over
// an in-memory pipe, performs the initialize handshake and shuts the
// session down when the test ends.
//
//	func TestGreet(t *testing.T) {
//		s := runtime.NewServer("hello", "0.1.0")
//		RegisterMCP(s)
//		c := mcptest.Start(t, s)
//		res := c.CallTool(t, "greet", GreetArgs{Name: "Ada"}).WantOK()
//		if got := res.Text(); got != "Hi, Ada!" {
//			t.Errorf("greet = %q", got)
//		}
//	}
//
// Arguments are Go values (encoded with encoding/json) or raw JSON
// ([json.RawMessage] or []byte). A protocol error ends the test; a tool
// error is an ordinary [Result] with IsError set, checked with
// [Result.WantOK] and [Result.WantError].
//
// [Client.Manifest] returns what the server lists (tools, resources, resource
// templates, prompts), and the forms it is given, in the format of
// `mcpgen inspect`, and [Golden] compares such output with a file,
// rewriting it when the test runs with -mcptest.update.
//
// The package depends on the standard library and the runtime only.
package mcptest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// DefaultTimeout is how long a request waits for its answer, and how long
// the end of a test waits for the server to stop, unless [WithTimeout]
// says otherwise.
const DefaultTimeout = 30 * time.Second

// Option configures [Start].
type Option func(*config)

type config struct {
	version string
	timeout time.Duration
}

// WithProtocolVersion sets the protocol revision the client asks for in
// initialize (default: the newest the runtime supports).
func WithProtocolVersion(v string) Option { return func(c *config) { c.version = v } }

// WithTimeout sets how long a request waits for its answer and how long
// the end of the test waits for the server to stop (default
// [DefaultTimeout]).
func WithTimeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

// Client is an MCP client connected in-process to one session of a
// server. Its methods may be called from several goroutines; those that
// take a testing.TB end that test on failure, and like t.Fatal must be
// called from its goroutine.
type Client struct {
	t       testing.TB
	timeout time.Duration
	init    json.RawMessage

	wmu sync.Mutex
	w   *io.PipeWriter // client → server

	mu      sync.Mutex
	nextID  int64
	pending map[int64]chan response
	gaveUp  map[int64]bool // requests that timed out: a late answer is not an error
	notes   []Notification
	closed  bool

	served    chan error    // Serve's result
	readDone  chan struct{} // the reading goroutine has returned
	closeOnce sync.Once
	closeErr  error
}

type response struct {
	result json.RawMessage
	err    *RPCError
}

// RPCError is a JSON-RPC error response: the server refused a request.
type RPCError struct {
	Code    int
	Message string
	Data    json.RawMessage
}

// Error returns the message with its code.
func (e *RPCError) Error() string {
	return "jsonrpc error " + strconv.Itoa(e.Code) + ": " + e.Message
}

// Notification is a notification the server sent.
type Notification struct {
	Method string
	Params json.RawMessage
}

// Start serves one session of s over an in-memory pipe and returns a
// client connected to it, initialized (initialize, then
// notifications/initialized). When the test ends, the client closes its
// side of the pipe and waits for the server to answer what is in flight
// and stop; a server that does not stop in time, or that returns an
// error, fails the test.
func Start(t testing.TB, s *runtime.Server, opts ...Option) *Client {
	t.Helper()
	cfg := config{timeout: DefaultTimeout}
	if v := runtime.SupportedVersions(); len(v) > 0 {
		cfg.version = v[len(v)-1]
	}
	for _, o := range opts {
		o(&cfg)
	}
	inR, inW := io.Pipe()   // client → server
	outR, outW := io.Pipe() // server → client
	c := &Client{
		t:        t,
		timeout:  cfg.timeout,
		w:        inW,
		pending:  map[int64]chan response{},
		gaveUp:   map[int64]bool{},
		served:   make(chan error, 1),
		readDone: make(chan struct{}),
	}
	go func() {
		err := s.Serve(context.Background(), inR, outW)
		outW.Close()
		inR.Close()
		c.served <- err
	}()
	go c.read(outR)
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Errorf("mcptest: %v", err)
		}
	})
	params := map[string]any{
		"protocolVersion": cfg.version,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "mcptest", "version": "0"},
	}
	res, err := c.Request("initialize", params)
	if err != nil {
		t.Fatalf("mcptest: initialize: %v", err)
	}
	c.init = res
	if err := c.Notify("notifications/initialized", nil); err != nil {
		t.Fatalf("mcptest: %v", err)
	}
	return c
}

// InitializeResult returns the raw JSON of the server's answer to
// initialize.
func (c *Client) InitializeResult() json.RawMessage { return c.init }

// Close ends the session: it closes the client's side of the pipe, waits
// for the server to answer the requests in flight and return, and returns
// the server's error. Tests rarely call it: Start arranges for it to run
// when the test ends. Calls after the first return the first's result.
func (c *Client) Close() error {
	c.closeOnce.Do(func() {
		c.wmu.Lock()
		c.w.Close()
		c.wmu.Unlock()
		timer := time.NewTimer(c.timeout)
		defer timer.Stop()
		select {
		case err := <-c.served:
			if err != nil {
				c.closeErr = fmt.Errorf("the server's Serve returned %v", err)
			}
		case <-timer.C:
			c.closeErr = fmt.Errorf("the server did not stop within %v of the end of its input (a handler that ignores its context?)", c.timeout)
			return
		}
		<-c.readDone
	})
	return c.closeErr
}

// read reads the server's messages until the pipe closes, handing each
// response to the request waiting for it.
func (c *Client) read(r io.Reader) {
	defer close(c.readDone)
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			c.dispatch(line)
		}
		if err != nil {
			break
		}
	}
	c.mu.Lock()
	c.closed = true
	for id, ch := range c.pending {
		delete(c.pending, id)
		ch <- response{err: &RPCError{Code: -32000, Message: "connection closed before the answer"}}
	}
	c.mu.Unlock()
}

// dispatch handles one message from the server.
func (c *Client) dispatch(line []byte) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int             `json:"code"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data"`
		} `json:"error"`
	}
	if err := json.Unmarshal(line, &m); err != nil {
		c.t.Errorf("mcptest: the server wrote a line that is not a JSON-RPC message: %v: %s", err, line)
		return
	}
	switch {
	case m.Method != "" && m.ID == nil:
		c.mu.Lock()
		c.notes = append(c.notes, Notification{Method: m.Method, Params: m.Params})
		c.mu.Unlock()
	case m.Method != "":
		// A request to the client (sampling, roots, …), which this client
		// does not offer.
		reply, _ := json.Marshal(map[string]any{
			"jsonrpc": "2.0", "id": m.ID,
			"error": map[string]any{"code": -32601, "message": "Method not found: the mcptest client offers no " + m.Method},
		})
		go c.write(reply)
	default:
		id, err := strconv.ParseInt(string(m.ID), 10, 64)
		c.mu.Lock()
		ch := c.pending[id]
		delete(c.pending, id)
		late := c.gaveUp[id]
		delete(c.gaveUp, id)
		c.mu.Unlock()
		if late {
			return
		}
		if err != nil || ch == nil {
			c.t.Errorf("mcptest: the server answered a request that was not sent (id %s): %s", m.ID, line)
			return
		}
		resp := response{result: m.Result}
		if m.Error != nil {
			resp.err = &RPCError{Code: m.Error.Code, Message: m.Error.Message, Data: m.Error.Data}
		}
		ch <- resp
	}
}

func (c *Client) write(msg []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.w.Write(append(msg, '\n'))
	return err
}

// encodeParams returns params as JSON: raw JSON as it is, nil as absent,
// anything else through encoding/json.
func encodeParams(params any) (json.RawMessage, error) {
	var raw []byte
	switch p := params.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		raw = p
	case []byte:
		raw = p
	default:
		b, err := json.Marshal(params)
		if err != nil {
			return nil, err
		}
		return b, nil
	}
	if !json.Valid(raw) {
		return nil, fmt.Errorf("raw JSON %q is not valid JSON", raw)
	}
	return raw, nil
}

// Request sends a request and waits for its answer: the raw JSON of the
// result, or an *[RPCError] when the server answered with an error. params
// is raw JSON ([json.RawMessage] or []byte), nil for none, or a Go value
// encoded with encoding/json.
func (c *Client) Request(method string, params any) (json.RawMessage, error) {
	p, err := encodeParams(params)
	if err != nil {
		return nil, fmt.Errorf("%s: params: %w", method, err)
	}
	ch := make(chan response, 1)
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, fmt.Errorf("%s: the session is closed", method)
	}
	c.nextID++
	id := c.nextID
	c.pending[id] = ch
	c.mu.Unlock()
	msg, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      int64           `json:"id"`
		Method  string          `json:"method"`
		Params  json.RawMessage `json:"params,omitempty"`
	}{"2.0", id, method, p})
	if err != nil {
		return nil, err
	}
	if err := c.write(msg); err != nil {
		c.forget(id)
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	timer := time.NewTimer(c.timeout)
	defer timer.Stop()
	select {
	case r := <-ch:
		if r.err != nil {
			return nil, r.err
		}
		return r.result, nil
	case <-timer.C:
		c.mu.Lock()
		delete(c.pending, id)
		c.gaveUp[id] = true
		c.mu.Unlock()
		return nil, fmt.Errorf("%s: no answer within %v", method, c.timeout)
	}
}

func (c *Client) forget(id int64) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// Notify sends a notification. params is as for [Client.Request].
func (c *Client) Notify(method string, params any) error {
	p, err := encodeParams(params)
	if err != nil {
		return fmt.Errorf("%s: params: %w", method, err)
	}
	msg, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		Method  string          `json:"method"`
		Params  json.RawMessage `json:"params,omitempty"`
	}{"2.0", method, p})
	if err != nil {
		return err
	}
	if err := c.write(msg); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	return nil
}

// Notifications returns the notifications the server has sent so far, in
// order.
func (c *Client) Notifications() []Notification {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Notification(nil), c.notes...)
}

// CallTool calls a tool and returns its result, whose checks report to t.
// args are the arguments: a Go value (encoded with encoding/json), raw
// JSON, or nil for none. A protocol error (an unknown tool, malformed
// arguments JSON) ends the test; use [Client.Request] to examine one.
//
// t is the test or subtest the call belongs to: one client serves the
// subtests of a table-driven test, each reporting to its own t.
func (c *Client) CallTool(t testing.TB, name string, args any) *Result {
	t.Helper()
	a, err := encodeParams(args)
	if err != nil {
		t.Fatalf("mcptest: tools/call %s: arguments: %v", name, err)
	}
	raw, err := c.Request("tools/call", struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments,omitempty"`
	}{name, a})
	if err != nil {
		t.Fatalf("mcptest: tools/call %s: %v", name, err)
	}
	r := &Result{t: t, Raw: raw}
	if err := json.Unmarshal(raw, r); err != nil {
		t.Fatalf("mcptest: tools/call %s: the result does not decode: %v: %s", name, err, raw)
	}
	return r
}
