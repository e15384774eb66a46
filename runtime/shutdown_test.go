package runtime_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
)

// childGrace is the shutdown grace period of shutdownChild.
const childGrace = 500 * time.Millisecond

// servedMarker is what shutdownChild writes to standard error when
// ServeStdio returned nil.
const servedMarker = "SERVED"

// shutdownChild serves over stdio the way a server's main should: the
// context ends on SIGINT or SIGTERM, and a nil error from ServeStdio is
// exit status 0. Its tools: echo (see echoTool); stubborn blocks and
// ignores its context.
func shutdownChild() int {
	srv := rt.NewServer("child", "1.0.0", rt.WithShutdownGrace(childGrace))
	srv.AddTool(rttest.EchoTool)
	srv.AddTool(rttest.Tool("stubborn", func(context.Context, *rt.ToolRequest) (*rt.CallToolResult, error) {
		select {} // never returns, whatever its context says
	}))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := srv.ServeStdio(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "ServeStdio:", err)
		return 1
	}
	fmt.Fprintln(os.Stderr, servedMarker)
	return 0
}

// stuckPipe takes writes until its buffer is full, then blocks them until
// closed, like a pipe whose reader stopped reading. Its writes must not be
// concurrent.
type stuckPipe struct {
	room   int
	closed chan struct{}
}

func (w *stuckPipe) Write(p []byte) (int, error) {
	if len(p) <= w.room {
		w.room -= len(p)
		return len(p), nil
	}
	<-w.closed
	return 0, io.ErrClosedPipe
}

// TestShutdownAbandonsUnwrittenAnswers ends a session whose client never
// reads its output, by cancelling its context or by ending its input: Serve
// returns nil once the grace period is over, not before, though writes are
// blocked and a handler ignores its context.
func TestShutdownAbandonsUnwrittenAnswers(t *testing.T) {
	for _, endOfInput := range []bool{false, true} {
		t.Run(fmt.Sprintf("endOfInput=%v", endOfInput), func(t *testing.T) {
			const grace = 300 * time.Millisecond
			srv := rttest.NewServer(rt.WithShutdownGrace(grace))
			srv.AddTool(rttest.EchoTool)
			started, release := make(chan struct{}), make(chan struct{})
			defer close(release)
			var stubbornCtx context.Context
			srv.AddTool(rttest.Tool("stubborn", func(ctx context.Context, _ *rt.ToolRequest) (*rt.CallToolResult, error) {
				stubbornCtx = ctx
				close(started)
				<-release // until the test ends, whatever the context says
				return rt.TextResult("released"), nil
			}))
			inR, inW := io.Pipe()
			defer inW.Close()
			out := &stuckPipe{room: 64 << 10, closed: make(chan struct{})}
			defer close(out.closed)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- srv.Serve(ctx, inR, out) }()
			sent := make(chan error, 1)
			go func() {
				io.WriteString(inW, requestLine(0, "initialize", map[string]any{"protocolVersion": "2025-11-25"})+"\n")
				io.WriteString(inW, requestLine("s", "tools/call", map[string]any{"name": "stubborn"})+"\n")
				long := strings.Repeat("x", 100<<10) // larger than the output buffer
				for i := range 50 {
					if _, err := io.WriteString(inW, requestLine(i+1, "tools/call", map[string]any{"name": "echo", "arguments": map[string]string{"text": long}})+"\n"); err != nil {
						sent <- err
						return
					}
				}
				sent <- nil
			}()
			select {
			case <-started:
			case <-time.After(rttest.Timeout):
				t.Fatal("the stubborn call did not start")
			}
			select {
			case err := <-sent:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(rttest.Timeout):
				t.Fatal("the session stopped reading")
			}
			time.Sleep(50 * time.Millisecond) // let the echo answers pile up behind the blocked write
			select {
			case err := <-done:
				t.Fatalf("Serve returned %v with its input open and calls in flight", err)
			default:
			}
			begin := time.Now()
			if endOfInput {
				inW.Close()
			} else {
				cancel()
			}
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Serve = %v, want nil", err)
				}
				if d := time.Since(begin); d < grace || d > grace+2*time.Second {
					t.Errorf("Serve returned %v after the session ended, want the grace period %v (and little more)", d, grace)
				}
			case <-time.After(grace + rttest.Timeout):
				t.Fatal("Serve did not return after the grace period")
			}
			if stubbornCtx.Err() == nil {
				t.Error("the call left at the end of the grace period was not cancelled")
			}
		})
	}
}

// TestEndOfInputLetsCallsFinish ends the input of a session with calls in
// flight: they are not cancelled, and their answers are written, within the
// grace period.
func TestEndOfInputLetsCallsFinish(t *testing.T) {
	const grace = 5 * time.Second
	b := rttest.NewBlocker()
	srv := rttest.NewServer(rt.WithShutdownGrace(grace))
	srv.AddTool(b.Tool())
	c := start(t, srv)
	c.initialize("2025-11-25")
	c.request(1, "tools/call", map[string]any{"name": "block", "arguments": map[string]string{"id": "x"}})
	b.WaitStarted(t, 1)
	c.in.Close()
	time.Sleep(100 * time.Millisecond)
	close(b.Release)
	if err := b.WaitEnded(t, "x"); err != nil {
		t.Errorf("the call ended with %v: the end of input cancelled it", err)
	}
	rest := c.finish()
	if len(rest) != 1 {
		t.Fatalf("after the end of input: %d messages, want the call's answer:\n%s", len(rest), lines(rest))
	}
	if text, _ := toolText(t, c.decode(rest[0])); text != "done x" {
		t.Errorf("answer %q, want %q", text, "done x")
	}
}

// TestShutdownWritesReadyAnswers cancels a session whose calls return when
// cancelled: their answers are written within the grace period, and Serve
// returns as soon as they are, without waiting for the whole period.
func TestShutdownWritesReadyAnswers(t *testing.T) {
	const grace = 5 * time.Second
	b := rttest.NewBlocker()
	srv := rttest.NewServer(rt.WithShutdownGrace(grace))
	srv.AddTool(b.Tool())
	c := start(t, srv)
	c.initialize("2025-11-25")
	for _, id := range []string{"a", "b", "c"} {
		c.request(id, "tools/call", map[string]any{"name": "block", "arguments": map[string]string{"id": id}})
	}
	b.WaitStarted(t, 3)
	c.mu.Lock()
	c.finished = true
	c.mu.Unlock()
	begin := time.Now()
	c.cancel()
	select {
	case err := <-c.served:
		if err != nil {
			t.Errorf("Serve = %v, want nil", err)
		}
		if d := time.Since(begin); d > grace/2 {
			t.Errorf("Serve took %v to return though every call had ended", d)
		}
	case <-time.After(grace + rttest.Timeout):
		t.Fatal("Serve did not return")
	}
	var ids []string
	for _, m := range c.drain() {
		r := c.decode(m)
		ids = append(ids, string(r.ID))
		if text, _ := toolText(t, r); !strings.HasPrefix(text, "done ") {
			t.Errorf("answer %s: %q", r.ID, text)
		}
	}
	if len(ids) != 3 {
		t.Errorf("answers written at shutdown: %q, want the 3 calls in flight", ids)
	}
}

// TestCancelWithUninterruptibleRead cancels a session whose read blocks
// and cannot be closed, like a read of a blocking pipe on standard input:
// Serve returns nil at once, without waiting for the read.
func TestCancelWithUninterruptibleRead(t *testing.T) {
	inR, inW := io.Pipe()
	defer inW.Close()
	in := struct{ io.Reader }{inR} // hides Close
	var out rttest.SyncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- rttest.NewServer().Serve(ctx, in, &out) }()
	io.WriteString(inW, requestLine(1, "ping", nil)+"\n")
	deadline := time.Now().Add(rttest.Timeout)
	for !strings.Contains(out.String(), `"id":1`) && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve = %v, want nil", err)
		}
	case <-time.After(rttest.Timeout):
		t.Fatal("Serve waited for a read that cannot be interrupted")
	}
	// What the abandoned reader reads later is not handled.
	go io.WriteString(inW, requestLine(2, "ping", nil)+"\n")
	time.Sleep(50 * time.Millisecond)
	if got, want := out.String(), `{"jsonrpc":"2.0","id":1,"result":{}}`+"\n"; got != want {
		t.Errorf("output %q, want only %q", got, want)
	}
}
