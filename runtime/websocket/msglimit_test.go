package websocket_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	ws "github.com/coder/websocket"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
)

// wsClient speaks to a session over conn.
type wsClient struct {
	t    *testing.T
	ctx  context.Context
	conn *ws.Conn
}

func (c wsClient) send(msg string) {
	c.t.Helper()
	if err := c.conn.Write(c.ctx, ws.MessageText, []byte(msg)); err != nil {
		c.t.Fatal(err)
	}
}

// wireMessage is a message the server sends.
type wireMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Data    struct {
			RetryAfter *int `json:"retryAfter"`
		} `json:"data"`
	} `json:"error"`
}

func (c wsClient) read() wireMessage {
	c.t.Helper()
	_, data, err := c.conn.Read(c.ctx)
	if err != nil {
		c.t.Fatal(err)
	}
	var m wireMessage
	if err := json.Unmarshal(data, &m); err != nil {
		c.t.Fatalf("%s: %v", data, err)
	}
	return m
}

// wantResult reads the answer to request id, a result.
func (c wsClient) wantResult(id string) wireMessage {
	c.t.Helper()
	m := c.read()
	if string(m.ID) != id || m.Error != nil || m.Result == nil {
		c.t.Fatalf("answer to %s: id %s, result %s, error %+v; want a result", id, m.ID, m.Result, m.Error)
	}
	return m
}

// wantSlowDown reads the refusal of request id for the rate limit.
func (c wsClient) wantSlowDown(id string, retryAfter int) {
	c.t.Helper()
	m := c.read()
	if string(m.ID) != id || m.Error == nil {
		c.t.Fatalf("answer to %s: id %s, result %s; want the rate limit's error", id, m.ID, m.Result)
	}
	e := m.Error
	if e.Code != runtime.CodeInvalidRequest || !strings.Contains(e.Message, "over the rate limit of 1 requests a second") ||
		e.Data.RetryAfter == nil || *e.Data.RetryAfter != retryAfter {
		c.t.Errorf("refusal of %s: %+v; want code %d, the rate in the message, retryAfter %d", id, *e, runtime.CodeInvalidRequest, retryAfter)
	}
}

// TestWebSocketMessageRateLimit: the requests a client sends over its
// connection count in the bucket its connection attempts count in. Over
// the limit they are answered with an error saying when to retry, and are
// not handled; notifications are still handled, responses to the server's
// requests are not counted, and other clients are not affected.
func TestWebSocketMessageRateLimit(t *testing.T) {
	s := newServer()
	counted := make(chan struct{}, 16) // a value for each call of count
	s.AddTool(runtime.Tool{
		Name:        "count",
		InputSchema: json.RawMessage(`{"type":"object"}`),
		Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.CallToolResult, error) {
			counted <- struct{}{}
			return runtime.TextResult("counted"), nil
		},
	})
	s.AddTool(runtime.Tool{ // asks the client for a ping: a response from it
		Name:        "ask",
		InputSchema: json.RawMessage(`{"type":"object"}`),
		Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.CallToolResult, error) {
			if err := runtime.Ping(ctx); err != nil {
				return nil, err
			}
			return runtime.TextResult("pong"), nil
		},
	})
	started, cancelled := make(chan struct{}), make(chan struct{})
	s.AddTool(runtime.Tool{ // runs until cancelled
		Name:        "wait",
		InputSchema: json.RawMessage(`{"type":"object"}`),
		Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.CallToolResult, error) {
			close(started)
			<-ctx.Done()
			close(cancelled)
			return nil, ctx.Err()
		},
	})
	clock := newClock()
	url := limitedServer(t, s, clock, mcphttp.WithRateLimit(1, 5))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	conn, code, _, msg := dial(t, url, "alice") // the upgrade and a ping: 3 tokens left
	if conn == nil {
		t.Fatalf("alice refused: %d %s", code, msg)
	}
	c := wsClient{t: t, ctx: ctx, conn: conn}
	c.send(`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
	c.wantResult("2")
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`) // 1 left
	c.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"ask"}}`)
	// The bucket is empty; the client's response to the server's ping is
	// not counted, so the call completes.
	ping := c.read()
	if ping.Method != "ping" || ping.ID == nil {
		t.Fatalf("want the server's ping, got %+v", ping)
	}
	c.send(`{"jsonrpc":"2.0","id":` + string(ping.ID) + `,"result":{}}`)
	if m := c.wantResult("3"); !strings.Contains(string(m.Result), "pong") {
		t.Fatalf("ask: %s", m.Result)
	}

	// Over the limit, requests are answered with the error, whatever their
	// id, and are not handled.
	for _, id := range []string{`4`, `"five"`, `6`} {
		c.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"count"}}`)
		c.wantSlowDown(id, 1)
	}
	select {
	case <-counted:
		t.Fatal("a refused call ran")
	default:
	}
	// A connection attempt counts in the same bucket.
	wantRefused(t, url, "alice", http.StatusTooManyRequests, "over the rate limit of 1 requests a second")
	// Another client has a bucket of its own.
	if conn, code, _, msg := dial(t, url, "bob"); conn == nil {
		t.Fatalf("bob refused for alice's rate: %d %s", code, msg)
	}

	// A token back: a call is accepted; the notification that cancels it
	// finds the bucket empty and is handled all the same.
	clock.advance(time.Second)
	c.send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"wait"}}`)
	select {
	case <-started:
	case <-ctx.Done():
		t.Fatal("the call within the limit did not start")
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`)
	select {
	case <-cancelled:
	case <-ctx.Done():
		t.Fatal("the cancellation over the limit was dropped")
	}
	c.send(`{"jsonrpc":"2.0","id":8,"method":"tools/list"}`)
	c.wantSlowDown("8", 1)

	// Once the bucket has refilled, requests are handled again.
	clock.advance(2 * time.Second)
	for _, id := range []string{"9", "10"} {
		c.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"count"}}`)
		c.wantResult(id)
	}
	c.send(`{"jsonrpc":"2.0","id":11,"method":"tools/list"}`)
	c.wantSlowDown("11", 1)
	if got := len(counted); got != 2 {
		t.Errorf("%d calls of count ran, want the 2 accepted", got)
	}
}
