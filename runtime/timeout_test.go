package runtime_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// waiter is a tool handler that waits for its context or d, and reports
// how its context ended.
func waiter(d time.Duration, ended chan<- error) rt.ToolHandler {
	return func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		_, hasDeadline := ctx.Deadline()
		select {
		case <-time.After(d):
			ended <- nil
			if hasDeadline {
				return rt.TextResult("done with a deadline"), nil
			}
			return rt.TextResult("done"), nil
		case <-ctx.Done():
			ended <- ctx.Err()
			return nil, ctx.Err()
		}
	}
}

func TestToolTimeout(t *testing.T) {
	for _, tc := range []struct {
		name       string
		server     time.Duration // WithToolTimeout; 0: not given
		tool       time.Duration // Tool.Timeout
		runs       time.Duration // how long the handler wants
		want       string
		wantErr    bool
		wantCtxErr error
	}{
		{"server default", 50 * time.Millisecond, 0, time.Minute, `tool "slow" timed out after 50ms`, true, context.DeadlineExceeded},
		{"tool overrides server", time.Minute, 30 * time.Millisecond, time.Minute, `tool "slow" timed out after 30ms`, true, context.DeadlineExceeded},
		{"tool alone", 0, 40 * time.Millisecond, time.Minute, `tool "slow" timed out after 40ms`, true, context.DeadlineExceeded},
		{"negative tool timeout disables", 20 * time.Millisecond, -1, 100 * time.Millisecond, "done", false, nil},
		{"no timeout", 0, 0, 10 * time.Millisecond, "done", false, nil},
		{"in time", 0, time.Minute, 10 * time.Millisecond, "done with a deadline", false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var opts []rt.Option
			if tc.server != 0 {
				opts = append(opts, rt.WithToolTimeout(tc.server))
			}
			srv := rttest.NewServer(opts...)
			ended := make(chan error, 1)
			tl := rttest.Tool("slow", waiter(tc.runs, ended))
			tl.Timeout = tc.tool
			srv.AddTool(tl)
			c := start(t, srv)
			c.initialize("2025-11-25")
			text, isErr := toolText(t, c.toolCall(1, "slow", nil))
			if text != tc.want || isErr != tc.wantErr {
				t.Errorf("answer %q (isError %v), want %q (isError %v)", text, isErr, tc.want, tc.wantErr)
			}
			select {
			case err := <-ended:
				if err != tc.wantCtxErr {
					t.Errorf("the handler's context ended with %v, want %v", err, tc.wantCtxErr)
				}
			case <-time.After(rttest.Timeout):
				t.Fatal("the handler did not end")
			}
			c.finish()
		})
	}
}

// A handler that ignores its context is answered for at its deadline; it
// keeps its place among the calls in flight, and its arguments, until it
// returns.
func TestToolTimeoutStubbornHandler(t *testing.T) {
	release := make(chan struct{})
	var late atomic.Value
	srv := rttest.NewServer(rt.WithMaxInFlight(1))
	stubborn := rttest.Tool("stubborn", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		<-release
		var args struct {
			Text string `json:"text"`
		}
		d := mcpimpl.ArgumentsDecoder(req.Arguments)
		if d.Object() {
			for {
				k, ok := d.Field()
				if !ok {
					break
				}
				if string(k) == "text" {
					args.Text, _ = d.String()
				} else {
					d.Skip()
				}
			}
		}
		late.Store(args.Text)
		return rt.TextResult("late"), nil
	})
	stubborn.Timeout = 30 * time.Millisecond
	srv.AddTool(stubborn)
	var quickStarted atomic.Bool
	srv.AddTool(rttest.Tool("quick", func(context.Context, *rt.ToolRequest) (*rt.CallToolResult, error) {
		quickStarted.Store(true)
		return rt.TextResult("quick"), nil
	}))
	c := start(t, srv)
	c.initialize("2025-11-25")
	start := time.Now()
	text, isErr := toolText(t, c.toolCall(1, "stubborn", map[string]string{"text": "kept intact"}))
	if want := `tool "stubborn" timed out after 30ms`; text != want || !isErr {
		t.Fatalf("answer %q (isError %v), want %q as an error", text, isErr, want)
	}
	if d := time.Since(start); d > rttest.Timeout/2 {
		t.Errorf("answered after %v: the answer waited for the handler", d)
	}
	// The stubborn handler still holds the only place in flight.
	c.request(2, "tools/call", map[string]any{"name": "quick"})
	time.Sleep(100 * time.Millisecond)
	if quickStarted.Load() {
		t.Fatal("a call started while the timed-out handler still held the only place in flight")
	}
	close(release)
	text, _ = toolText(t, c.recvResponse("2"))
	if text != "quick" {
		t.Errorf("call after the stubborn one: %q", text)
	}
	if got, _ := late.Load().(string); got != "kept intact" {
		t.Errorf("the timed-out handler read its argument as %q after the answer, want %q", got, "kept intact")
	}
	if rest := c.finish(); len(rest) != 0 {
		t.Errorf("messages after the answers (the late result must not be sent):\n%s", lines(rest))
	}
}

// A client's cancellation of a call with a timeout is still a
// cancellation: nothing is answered, and the handler sees context.Canceled.
func TestToolTimeoutCancelled(t *testing.T) {
	srv := rttest.NewServer(rt.WithToolTimeout(time.Minute))
	ended := make(chan error, 1)
	srv.AddTool(rttest.Tool("slow", waiter(time.Minute, ended)))
	c := start(t, srv)
	c.initialize("2025-11-25")
	c.request(1, "tools/call", map[string]any{"name": "slow"})
	time.Sleep(20 * time.Millisecond)
	c.notify("notifications/cancelled", map[string]any{"requestId": 1})
	select {
	case err := <-ended:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the handler's context ended with %v, want context.Canceled", err)
		}
	case <-time.After(rttest.Timeout):
		t.Fatal("the handler did not end")
	}
	jsonEqual(t, "ping", c.result("p", "ping", nil), `{}`)
	if rest := c.finish(); len(rest) != 0 {
		t.Errorf("messages after the cancellation:\n%s", lines(rest))
	}
}

// Over Streamable HTTP, with sessions and without, a call past its tool's
// timeout is answered at the deadline, and the session serves the next
// request.
func TestToolTimeoutHTTP(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []mcphttp.Option
	}{
		{"session", nil},
		{"stateless", []mcphttp.Option{mcphttp.WithStateless()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			release := make(chan struct{})
			defer close(release)
			srv := rttest.HTTPServer(rt.WithToolTimeout(50 * time.Millisecond))
			srv.AddTool(rttest.Tool("stubborn", func(context.Context, *rt.ToolRequest) (*rt.CallToolResult, error) {
				<-release
				return rt.TextResult("late"), nil
			}))
			c := rttest.NewHTTPClient(t, mcphttp.Handler(srv, tc.opts...))
			if tc.opts == nil {
				c.Initialize("2025-11-25")
			} else {
				c.Assume("2025-11-25")
			}
			x := c.Post(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"stubborn"}}`, 200)
			want := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"tool \"stubborn\" timed out after 50ms"}],"isError":true}}`
			if string(x.Body) != want {
				t.Errorf("answer %s, want %s", x.Body, want)
			}
			c.Post(rttest.ListBody, 200)
		})
	}
}
