package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/mcpschema"
	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

func TestConcurrentCalls(t *testing.T) {
	const n = 64
	var started atomic.Int32
	all := make(chan struct{})
	srv := rttest.NewServer()
	srv.AddTool(rt.Tool{
		Name:        "wait",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"i":{"type":"integer"}}}`),
		Handler: func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
			d := mcpimpl.ArgumentsDecoder(req.Arguments)
			var i int64
			if d.Object() {
				for {
					key, ok := d.Field()
					if !ok {
						break
					}
					if string(key) == "i" {
						i, _ = d.Int(64)
					}
				}
			}
			if err := d.Err(); err != nil {
				return nil, err
			}
			if started.Add(1) == n {
				close(all)
			}
			select {
			case <-all:
			case <-time.After(rttest.Timeout):
				return nil, fmt.Errorf("call %d: only %d of %d calls started: they do not run concurrently", i, started.Load(), n)
			}
			// A long text, so that responses are written in many pieces.
			return rt.TextResult(fmt.Sprintf("call %d ", i) + strings.Repeat(strconv.Itoa(int(i)%10), 20000)), nil
		},
	})
	c := start(t, srv)
	c.initialize("2025-11-25")
	want := map[string]int{}
	for i := range n {
		var id any = i + 1
		if i%2 == 1 {
			id = fmt.Sprintf("s%d", i+1)
		}
		c.request(id, "tools/call", map[string]any{"name": "wait", "arguments": map[string]int{"i": i}})
		want[jsonText(id)] = i
	}
	for range n {
		r := c.decode(c.recv())
		i, ok := want[string(r.ID)]
		if !ok {
			t.Fatalf("response with an unexpected or repeated id: %.200s", r.raw)
		}
		delete(want, string(r.ID))
		text, isErr := toolText(t, r)
		if exp := fmt.Sprintf("call %d ", i) + strings.Repeat(strconv.Itoa(i%10), 20000); text != exp || isErr {
			t.Errorf("id %s: got %.80q (isError %v), want %.80q", r.ID, text, isErr, exp)
		}
	}
	if len(want) != 0 {
		t.Errorf("unanswered: %v", want)
	}
	if p := c.tr.Pending(); len(p) != 0 {
		t.Errorf("pending after all answers: %q", p)
	}
}

func TestCancelled(t *testing.T) {
	for _, tc := range []struct {
		name string
		id   any
	}{
		{"number id", 7},
		{"string id", "req-7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := rttest.NewBlocker()
			srv := rttest.NewServer()
			srv.AddTool(b.Tool())
			c := start(t, srv)
			c.initialize("2025-06-18")
			c.request(tc.id, "tools/call", map[string]any{"name": "block", "arguments": map[string]string{"id": "x"}})
			b.WaitStarted(t, 1)
			// Cancelling another id, or without params, changes nothing.
			c.notify("notifications/cancelled", map[string]any{"requestId": "other"})
			c.notify("notifications/cancelled", map[string]any{"requestId": 7.5})
			c.notify("notifications/cancelled", nil)
			jsonEqual(t, "ping", c.result("p1", "ping", nil), `{}`)
			c.notify("notifications/cancelled", map[string]any{"requestId": tc.id, "reason": "user"})
			if err := b.WaitEnded(t, "x"); err != context.Canceled {
				t.Fatalf("the handler's context ended with %v, want context.Canceled", err)
			}
			// Later requests are answered, and the cancelled one never is.
			jsonEqual(t, "ping", c.result("p2", "ping", nil), `{}`)
			c.request("after", "tools/call", map[string]any{"name": "block", "arguments": map[string]string{"id": "y"}})
			b.WaitStarted(t, 1)
			close(b.Release)
			text, _ := toolText(t, c.recvResponse(`"after"`))
			if text != "done y" {
				t.Errorf("call after the cancelled one: %q", text)
			}
			if rest := c.finish(); len(rest) != 0 {
				t.Errorf("messages after the cancellation:\n%s", lines(rest))
			}
			if p := c.tr.Pending(); !slices.Equal(p, []string{jsonText(tc.id)}) {
				t.Errorf("unanswered requests %q, want only the cancelled %s", p, jsonText(tc.id))
			}
		})
	}
}

func TestDuplicateIDInFlight(t *testing.T) {
	b := rttest.NewBlocker()
	srv := rttest.NewServer()
	srv.AddTool(b.Tool())
	c := start(t, srv)
	c.initialize("2025-11-25")
	c.request(5, "tools/call", map[string]any{"name": "block", "arguments": map[string]string{"id": "first"}})
	b.WaitStarted(t, 1)
	// The tracker cannot tell the two requests with id 5 apart; the error
	// answers the second.
	wantError(t, c.call(5, "tools/call", map[string]any{"name": "block", "arguments": map[string]string{"id": "second"}}),
		rt.CodeInvalidRequest, "Invalid Request: id 5 is already in use by a request in flight", "")
	close(b.Release)
	text, _ := toolText(t, c.recvResponse("5"))
	if text != "done first" {
		t.Errorf("first call: %q", text)
	}
	// Once answered, the id may be used again.
	text, _ = toolText(t, c.call(5, "tools/call", map[string]any{"name": "block", "arguments": map[string]string{"id": "third"}}))
	if text != "done third" {
		t.Errorf("third call: %q", text)
	}
	b.WaitStarted(t, 1)
}

func TestEOFAnswersCallsInFlight(t *testing.T) {
	const n = 5
	b := rttest.NewBlocker()
	srv := rttest.NewServer()
	srv.AddTool(b.Tool())
	c := start(t, srv)
	c.initialize("2025-03-26")
	for i := range n {
		c.request(i+1, "tools/call", map[string]any{"name": "block", "arguments": map[string]string{"id": strconv.Itoa(i + 1)}})
	}
	b.WaitStarted(t, n)
	// A last request without its newline, at the end of the input.
	c.tr.Client([]byte(`{"jsonrpc":"2.0","id":"last","method":"ping"}`))
	c.sendRaw([]byte(`{"jsonrpc":"2.0","id":"last","method":"ping"}`))
	c.in.Close()
	jsonEqual(t, "ping", c.recvResponse(`"last"`).Result, `{}`)
	select {
	case err := <-c.served:
		t.Fatalf("Serve returned %v with calls in flight", err)
	case <-time.After(50 * time.Millisecond):
	}
	close(b.Release)
	rest := c.finish()
	var ids []string
	for _, m := range rest {
		r := c.decode(m)
		ids = append(ids, string(r.ID))
		if text, _ := toolText(t, r); text != "done "+string(r.ID) {
			t.Errorf("id %s: %q", r.ID, text)
		}
	}
	slices.Sort(ids)
	if want := []string{"1", "2", "3", "4", "5"}; !slices.Equal(ids, want) {
		t.Errorf("answered after EOF: %q, want %q", ids, want)
	}
	if p := c.tr.Pending(); len(p) != 0 {
		t.Errorf("unanswered: %q", p)
	}
}

func TestContextCancelEndsServe(t *testing.T) {
	b := rttest.NewBlocker()
	srv := rttest.NewServer()
	srv.AddTool(b.Tool())
	c := start(t, srv)
	c.initialize("2025-11-25")
	c.request(1, "tools/call", map[string]any{"name": "block", "arguments": map[string]string{"id": "x"}})
	b.WaitStarted(t, 1)
	c.mu.Lock()
	c.finished = true
	c.mu.Unlock()
	c.cancel()
	select {
	case err := <-c.served:
		if err != nil {
			t.Errorf("Serve returned %v after its context was cancelled, want nil", err)
		}
	case <-time.After(rttest.Timeout):
		t.Fatal("Serve did not return after its context was cancelled")
	}
	if err := b.WaitEnded(t, "x"); err != context.Canceled {
		t.Errorf("the handler's context ended with %v, want context.Canceled", err)
	}
	// Whatever was written is valid; the call's answer may or may not have
	// been written before the session ended.
	for _, m := range c.drain() {
		if r := c.decode(m); string(r.ID) != "1" {
			t.Errorf("unexpected message after cancellation: %s", m)
		}
	}
}

func TestServeWithCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, w := io.Pipe()
	defer w.Close()
	done := make(chan error, 1)
	go func() { done <- rttest.NewServer().Serve(ctx, r, io.Discard) }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve = %v with a cancelled context, want nil", err)
		}
	case <-time.After(rttest.Timeout):
		t.Fatal("Serve did not return")
	}
}

// failingWriter fails every write.
type failingWriter struct{}

var errBrokenPipe = errors.New("broken pipe")

func (failingWriter) Write([]byte) (int, error) { return 0, errBrokenPipe }

func TestServeReportsWriteError(t *testing.T) {
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\n")
	done := make(chan error, 1)
	go func() { done <- rttest.NewServer().Serve(context.Background(), in, failingWriter{}) }()
	select {
	case err := <-done:
		if !errors.Is(err, errBrokenPipe) {
			t.Errorf("Serve = %v, want %v", err, errBrokenPipe)
		}
	case <-time.After(rttest.Timeout):
		t.Fatal("Serve did not return")
	}
}

// errReader returns data, then an error.
type errReader struct {
	data []byte
	err  error
}

func (r *errReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

func TestServeReportsReadError(t *testing.T) {
	errRead := errors.New("read failed")
	var out strings.Builder
	in := &errReader{data: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n"), err: errRead}
	done := make(chan error, 1)
	go func() { done <- rttest.NewServer().Serve(context.Background(), in, &out) }()
	select {
	case err := <-done:
		if !errors.Is(err, errRead) {
			t.Errorf("Serve = %v, want %v", err, errRead)
		}
	case <-time.After(rttest.Timeout):
		t.Fatal("Serve did not return")
	}
	if got, want := out.String(), `{"jsonrpc":"2.0","id":1,"result":{}}`+"\n"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
	mcpschema.RequireAll(t)
	tr := mcpschema.NewTracker()
	tr.Client([]byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err := tr.Server([]byte(strings.TrimSuffix(out.String(), "\n"))); err != nil {
		t.Errorf("schema: %v", err)
	}
}

// sleepTool sleeps for its argument "us" microseconds, then answers it.
var sleepTool = rt.Tool{
	Name:        "sleep",
	InputSchema: json.RawMessage(`{"type":"object","properties":{"us":{"type":"integer"}}}`),
	Handler: func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		d := mcpimpl.ArgumentsDecoder(req.Arguments)
		var us int64
		if d.Object() {
			for {
				key, ok := d.Field()
				if !ok {
					break
				}
				if string(key) == "us" {
					us, _ = d.Int(64)
				}
			}
		}
		if err := d.Err(); err != nil {
			return nil, err
		}
		select {
		case <-time.After(time.Duration(us) * time.Microsecond):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return rt.TextResult(strconv.FormatInt(us, 10)), nil
	},
}

// TestOverlappingSlowCalls sends calls of various lengths, some while
// others run, some after a pause, and checks that each is answered once
// with its own result and that pings between them are answered in order.
func TestOverlappingSlowCalls(t *testing.T) {
	srv := rttest.NewServer()
	srv.AddTool(sleepTool)
	c := start(t, srv)
	c.initialize("2025-11-25")
	durations := []int{0, 300, 50, 1000, 10, 500, 0, 2000, 150, 400}
	want := map[string]string{}
	id := 0
	for round := range 20 {
		for i, us := range durations {
			id++
			c.request(id, "tools/call", map[string]any{"name": "sleep", "arguments": map[string]int{"us": us}})
			want[strconv.Itoa(id)] = strconv.Itoa(us)
			if (round+i)%3 == 0 {
				time.Sleep(time.Duration(us/2) * time.Microsecond)
			}
		}
		for range durations {
			r := c.decode(c.recv())
			w, ok := want[string(r.ID)]
			if !ok {
				t.Fatalf("unexpected or repeated response: %s", r.raw)
			}
			delete(want, string(r.ID))
			if text, isErr := toolText(t, r); text != w || isErr {
				t.Errorf("id %s: %q (isError %v), want %q", r.ID, text, isErr, w)
			}
		}
		jsonEqual(t, "ping", c.result(fmt.Sprintf("ping%d", round), "ping", nil), `{}`)
	}
}

// TestMaxInFlight checks that a session runs at most WithMaxInFlight calls
// at once and answers them all: further calls wait for a slot. Calls sent
// in one write go to worker goroutines; calls sent one by one run on the
// reading goroutine and hand reading over when slow, which must not get
// around the limit either.
func TestMaxInFlight(t *testing.T) {
	for _, oneByOne := range []bool{false, true} {
		t.Run(fmt.Sprintf("oneByOne=%v", oneByOne), func(t *testing.T) {
			const limit, calls = 3, 12
			var running, peak atomic.Int32
			release := make(chan struct{})
			srv := rttest.NewServer(rt.WithMaxInFlight(limit))
			srv.AddTool(rttest.Tool("slow", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
				n := running.Add(1)
				for {
					p := peak.Load()
					if n <= p || peak.CompareAndSwap(p, n) {
						break
					}
				}
				<-release
				running.Add(-1)
				return rt.TextResult("done"), nil
			}))
			c := start(t, srv)
			c.initialize("2025-11-25")
			var lines []string
			for i := range calls {
				line := requestLine(i+1, "tools/call", map[string]any{"name": "slow"})
				c.tr.Client([]byte(line))
				lines = append(lines, line+"\n")
			}
			if oneByOne {
				// The reader stops at the limit, so these writes block
				// until calls end: write from another goroutine.
				go func() {
					for _, l := range lines {
						if _, err := io.WriteString(c.in, l); err != nil {
							return
						}
						time.Sleep(time.Millisecond)
					}
				}()
			} else {
				c.sendRaw([]byte(strings.Join(lines, "")))
			}
			deadline := time.Now().Add(5 * time.Second)
			for running.Load() < limit && time.Now().Before(deadline) {
				time.Sleep(time.Millisecond)
			}
			time.Sleep(20 * time.Millisecond) // room for a wrong extra call to start
			if got := running.Load(); got != limit {
				t.Fatalf("%d calls running, want the limit %d", got, limit)
			}
			close(release)
			for range calls {
				c.recv()
			}
			if p := peak.Load(); p > limit {
				t.Errorf("peak of %d calls at once, over the limit %d", p, limit)
			}
		})
	}
}
