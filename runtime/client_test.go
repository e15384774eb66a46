package runtime_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/mcpschema"
	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// testClient drives one session of Server.Serve over pipes. Every message
// the server writes is checked to be one newline-terminated line of JSON
// and validated against the MCP schema of the negotiated revision.
type testClient struct {
	t      testing.TB
	in     io.WriteCloser // the server's input
	lines  chan []byte    // lines the server wrote, in order
	tr     *mcpschema.Tracker
	cancel context.CancelFunc
	served chan error // Serve's result

	mu       sync.Mutex
	finished bool
}

// start serves srv in a new session and returns its client. The session is
// ended when the test ends; messages left unread then fail the test.
func start(t testing.TB, srv *rt.Server) *testClient {
	t.Helper()
	mcpschema.RequireAll(t)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	c := &testClient{
		t: t, in: inW,
		lines:  make(chan []byte, 4096),
		tr:     mcpschema.NewTracker(),
		cancel: cancel,
		served: make(chan error, 1),
	}
	go func() {
		err := srv.Serve(ctx, inR, outW)
		outW.Close()
		c.served <- err
	}()
	go readLines(outR, c.lines)
	t.Cleanup(func() {
		c.t = t // subtests may have borrowed the client
		if !c.isFinished() {
			if rest := c.finish(); len(rest) > 0 {
				t.Errorf("the server wrote messages the test did not read:\n%s", bytes.Join(rest, []byte("\n")))
			}
		}
		cancel()
		inR.Close()
		outR.Close()
	})
	return c
}

// readLines sends the lines of r, with their newlines, to lines, and closes
// lines at the end of r.
func readLines(r io.Reader, lines chan<- []byte) {
	defer close(lines)
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			lines <- line
		}
		if err != nil {
			return
		}
	}
}

func (c *testClient) isFinished() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.finished
}

// sendRaw writes data to the server as it is, within the test timeout.
func (c *testClient) sendRaw(data []byte) {
	c.t.Helper()
	done := make(chan error, 1)
	go func() {
		_, err := c.in.Write(data)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			c.t.Fatalf("writing to the server: %v", err)
		}
	case <-time.After(rttest.Timeout):
		c.t.Fatalf("timed out writing %.100q to the server", data)
	}
}

// send writes one line to the server.
func (c *testClient) send(line string) {
	c.t.Helper()
	c.tr.Client([]byte(line))
	c.sendRaw([]byte(line + "\n"))
}

// request sends a request; params is marshaled unless it is nil or a
// json.RawMessage.
func (c *testClient) request(id any, method string, params any) {
	c.t.Helper()
	c.send(requestLine(id, method, params))
}

func requestLine(id any, method string, params any) string {
	m := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		m["params"] = params
	}
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// notify sends a notification.
func (c *testClient) notify(method string, params any) {
	c.t.Helper()
	m := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		m["params"] = params
	}
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	c.send(string(b))
}

// check verifies one line the server wrote and returns it without its
// newline.
func (c *testClient) check(line []byte) []byte {
	c.t.Helper()
	body, ok := bytes.CutSuffix(line, []byte("\n"))
	if !ok {
		c.t.Errorf("the server wrote a message without its newline: %.200q", line)
	}
	if !json.Valid(body) {
		c.t.Errorf("the server wrote a line that is not JSON: %.200q", body)
		return body
	}
	if err := c.tr.Server(body); err != nil {
		c.t.Errorf("schema: %v\nmessage: %s", err, body)
	}
	return body
}

// recv returns the next message the server writes.
func (c *testClient) recv() []byte {
	c.t.Helper()
	select {
	case line, ok := <-c.lines:
		if !ok {
			c.t.Fatal("the server's output ended")
		}
		return c.check(line)
	case <-time.After(rttest.Timeout):
		c.t.Fatal("timed out waiting for a message from the server")
	}
	return nil
}

// response is a JSON-RPC response.
type response struct {
	raw    []byte
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
}

type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

func (c *testClient) decode(raw []byte) *response {
	c.t.Helper()
	r := &response{raw: raw}
	if err := json.Unmarshal(raw, r); err != nil {
		c.t.Fatalf("decoding %s: %v", raw, err)
	}
	return r
}

// recvResponse returns the next message, which must be a response with the
// given id (as JSON text).
func (c *testClient) recvResponse(id string) *response {
	c.t.Helper()
	r := c.decode(c.recv())
	if string(r.ID) != id {
		c.t.Fatalf("got a response with id %s, want %s: %s", r.ID, id, r.raw)
	}
	return r
}

// call sends a request and returns its response, which must be the next
// message.
func (c *testClient) call(id any, method string, params any) *response {
	c.t.Helper()
	c.request(id, method, params)
	return c.recvResponse(jsonText(id))
}

// result sends a request and returns its result, failing on an error.
func (c *testClient) result(id any, method string, params any) json.RawMessage {
	c.t.Helper()
	r := c.call(id, method, params)
	if r.Error != nil || r.Result == nil {
		c.t.Fatalf("%s: want a result, got %s", method, r.raw)
	}
	return r.Result
}

// initialize runs the initialize handshake for revision rev and returns
// the result.
func (c *testClient) initialize(rev string) json.RawMessage {
	c.t.Helper()
	res := c.result(0, "initialize", map[string]any{
		"protocolVersion": rev,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "tester", "version": "0.1"},
	})
	c.notify("notifications/initialized", nil)
	return res
}

// toolCall sends tools/call and returns its response.
func (c *testClient) toolCall(id any, name string, args any) *response {
	c.t.Helper()
	params := map[string]any{"name": name}
	if args != nil {
		params["arguments"] = args
	}
	return c.call(id, "tools/call", params)
}

// finish closes the server's input and waits for Serve to return nil; it
// returns the messages written and not yet read.
func (c *testClient) finish() [][]byte {
	c.t.Helper()
	c.mu.Lock()
	c.finished = true
	c.mu.Unlock()
	c.in.Close()
	select {
	case err := <-c.served:
		if err != nil {
			c.t.Errorf("Serve returned %v, want nil", err)
		}
	case <-time.After(rttest.Timeout):
		c.t.Fatal("Serve did not return after its input was closed")
	}
	return c.drain()
}

// drain returns the rest of the server's output, after Serve returned.
func (c *testClient) drain() [][]byte {
	c.t.Helper()
	var rest [][]byte
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				return rest
			}
			rest = append(rest, c.check(line))
		case <-time.After(rttest.Timeout):
			c.t.Fatal("timed out reading the rest of the server's output")
			return rest
		}
	}
}

// jsonText returns v as JSON text.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// wantError checks that r is an error response with the given code and
// message (and data, as JSON, when data is not "").
func wantError(t testing.TB, r *response, code int, message, data string) {
	t.Helper()
	if r.Error == nil || r.Result != nil {
		t.Fatalf("want an error %d, got %s", code, r.raw)
	}
	if r.Error.Code != code || r.Error.Message != message {
		t.Errorf("error = %d %q, want %d %q", r.Error.Code, r.Error.Message, code, message)
	}
	if data != "" {
		jsonEqual(t, "error data", r.Error.Data, data)
	} else if r.Error.Data != nil {
		t.Errorf("error data = %s, want none", r.Error.Data)
	}
}

// jsonEqual checks that the JSON texts got and want are equal values.
func jsonEqual(t testing.TB, what string, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Errorf("%s: %v: %s", what, err, got)
		return
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		panic(fmt.Sprintf("bad want %s: %v", want, err))
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s =\n  %s\nwant\n  %s", what, got, compact(want))
	}
}

func compact(s string) string {
	var b bytes.Buffer
	if json.Compact(&b, []byte(s)) != nil {
		return s
	}
	return b.String()
}

// text returns the text of a tool result's only content block and whether
// the result is an error, failing unless the result has that shape.
func toolText(t testing.TB, r *response) (string, bool) {
	t.Helper()
	if r.Error != nil {
		t.Fatalf("want a tool result, got %s", r.raw)
	}
	var res struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		IsError bool `json:"isError"`
	}
	if err := json.Unmarshal(r.Result, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Content) != 1 || res.Content[0].Type != "text" {
		t.Fatalf("want one text block, got %s", r.Result)
	}
	return res.Content[0].Text, res.IsError
}

// addTool adds two required integers a and b.
var addTool = rt.Tool{
	Name:        "add",
	Description: "Adds two integers.",
	InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"required":["a","b"],"additionalProperties":false}`),
	Handler: func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		d := mcpimpl.ArgumentsDecoder(req.Arguments)
		var a, b int64
		hasA, hasB := false, false
		if d.Object() {
			for {
				key, ok := d.Field()
				if !ok {
					break
				}
				switch string(key) {
				case "a":
					a, _ = d.Int(64)
					hasA = true
				case "b":
					b, _ = d.Int(64)
					hasB = true
				default:
					d.Unknown("a, b")
				}
			}
			if !hasA {
				d.Missing("a")
			}
			if !hasB {
				d.Missing("b")
			}
		}
		if err := d.Err(); err != nil {
			return nil, err
		}
		return rt.Structured(struct {
			Sum int64 `json:"sum"`
		}{a + b}, "")
	},
}

// lines joins messages for a failure report.
func lines(msgs [][]byte) string {
	var b strings.Builder
	for _, m := range msgs {
		b.Write(m)
		b.WriteByte('\n')
	}
	return b.String()
}
