package runtime_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// countingWriter counts the writes that reach the client, the system calls
// of a real pipe.
type countingWriter struct {
	w      io.Writer
	writes atomic.Int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.writes.Add(1)
	return c.w.Write(p)
}

// echoStringTool answers with its argument "s".
var echoStringTool = rt.Tool{
	Name:        "echo",
	InputSchema: json.RawMessage(`{"type":"object","properties":{"s":{"type":"string"}}}`),
	Handler: func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		d := mcpimpl.ArgumentsDecoder(req.Arguments)
		var s string
		if d.Object() {
			for {
				key, ok := d.Field()
				if !ok {
					break
				}
				if string(key) == "s" {
					s, _ = d.String()
				} else {
					d.Skip()
				}
			}
		}
		if err := d.Err(); err != nil {
			return nil, err
		}
		return rt.TextResult(s), nil
	},
}

// TestPipelinedAnswersShareWrites sends runs of calls in one write each and
// checks that every call is answered once, correctly, and that the answers
// to a run leave in a few writes rather than one each. A machine busy
// enough to stall the server for longer than a call may take splits a run,
// so the test passes if any of a few runs is written in at most a quarter
// as many writes as it has calls.
func TestPipelinedAnswersShareWrites(t *testing.T) {
	const calls, attempts = 64, 5
	srv := rttest.NewServer()
	srv.AddTool(echoStringTool)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	out := &countingWriter{w: outW}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() {
		served <- srv.Serve(ctx, inR, out)
		outW.Close()
	}()
	lines := make(chan []byte, 4*calls)
	go readLines(outR, lines)
	next := func() []byte {
		t.Helper()
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("the server's output ended")
			}
			return l
		case <-time.After(rttest.Timeout):
			t.Fatal("timed out waiting for an answer")
		}
		return nil
	}
	write := func(s string) {
		t.Helper()
		if _, err := io.WriteString(inW, s); err != nil {
			t.Fatal(err)
		}
	}
	write(requestLine(0, "initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "t", "version": "0"}}) + "\n")
	next()
	write(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	best := int64(calls + 1)
	id := 0
	for range attempts {
		var run strings.Builder
		want := map[string]string{}
		for range calls {
			id++
			s := fmt.Sprintf("answer %d", id)
			run.WriteString(requestLine(id, "tools/call", map[string]any{"name": "echo", "arguments": map[string]string{"s": s}}) + "\n")
			want[fmt.Sprint(id)] = s
		}
		before := out.writes.Load()
		write(run.String())
		for range calls {
			var r struct {
				ID     json.RawMessage `json:"id"`
				Result struct {
					Content []struct{ Text string }
					IsError bool
				}
			}
			line := next()
			if err := json.Unmarshal(line, &r); err != nil {
				t.Fatalf("%v: %s", err, line)
			}
			w, ok := want[string(r.ID)]
			if !ok {
				t.Fatalf("unexpected or repeated answer: %s", line)
			}
			delete(want, string(r.ID))
			if len(r.Result.Content) != 1 || r.Result.Content[0].Text != w || r.Result.IsError {
				t.Fatalf("id %s: got %s, want the text %q", r.ID, line, w)
			}
		}
		best = min(best, out.writes.Load()-before)
	}
	if best > calls/4 {
		t.Errorf("the answers to %d calls sent together took at best %d writes, want at most %d", calls, best, calls/4)
	}
	inW.Close()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
}

// TestHeldAnswersAreWritten checks that answers held back while further
// requests are buffered reach the client without waiting for anything the
// client has not sent yet: when the input stops in the middle of a line,
// and when a call run after them blocks.
func TestHeldAnswersAreWritten(t *testing.T) {
	// line returns a request line, known to c's schema tracker.
	line := func(c *testClient, id int, tool string, args map[string]string) string {
		l := requestLine(id, "tools/call", map[string]any{"name": tool, "arguments": args})
		c.tr.Client([]byte(l))
		return l + "\n"
	}
	call := func(c *testClient, id int, s string) string { return line(c, id, "echo", map[string]string{"s": s}) }
	t.Run("input stops mid-line", func(t *testing.T) {
		srv := rttest.NewServer()
		srv.AddTool(echoStringTool)
		c := start(t, srv)
		c.initialize("2025-11-25")
		third := call(c, 3, "c")
		c.sendRaw([]byte(call(c, 1, "a") + call(c, 2, "b") + third[:20]))
		got := map[string]bool{}
		for range 2 {
			got[string(c.decode(c.recv()).ID)] = true
		}
		if !got["1"] || !got["2"] {
			t.Fatalf("before the third line ends, got answers to %v, want 1 and 2", got)
		}
		c.sendRaw([]byte(third[20:]))
		if r := c.decode(c.recv()); string(r.ID) != "3" {
			t.Fatalf("got %s, want the answer to 3", r.raw)
		}
	})
	t.Run("a later call blocks", func(t *testing.T) {
		b := rttest.NewBlocker()
		srv := rttest.NewServer()
		srv.AddTool(echoStringTool)
		srv.AddTool(b.Tool())
		c := start(t, srv)
		c.initialize("2025-11-25")
		c.sendRaw([]byte(call(c, 1, "a") + line(c, 2, "block", map[string]string{"id": "b"}) + call(c, 3, "c")))
		b.WaitStarted(t, 1)
		got := map[string]bool{}
		for range 2 {
			r := c.decode(c.recv())
			got[string(r.ID)] = true
		}
		if !got["1"] || !got["3"] {
			t.Fatalf("while call 2 blocks, got answers to %v, want 1 and 3", got)
		}
		close(b.Release)
		if r := c.decode(c.recv()); string(r.ID) != "2" {
			t.Fatalf("got %s, want the answer to 2", r.raw)
		}
		b.WaitEnded(t, "b")
	})
}

// BenchmarkPipelinedCalls measures tools/call with 64 calls in flight over
// operating-system pipes, as over stdio: the client writes the calls freed
// by the answers it has read together, as a pipelining client does.
func BenchmarkPipelinedCalls(b *testing.B) {
	const inflight = 64
	s := rt.NewServer("bench", "0")
	s.AddTool(rttest.SearchTool())
	inR, inW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	defer outR.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() {
		served <- s.Serve(ctx, inR, outW)
		inR.Close()
		outW.Close()
	}()
	out := bufio.NewReaderSize(outR, 64<<10)
	io.WriteString(inW, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"0"}}}`+"\n")
	out.ReadSlice('\n')
	io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	const head = `{"jsonrpc":"2.0","id":`
	const tail = `,"method":"tools/call","params":{"name":"search_files","arguments":{"pattern":"*.go","limit":10,"recursive":true}}}` + "\n"
	issue := make(chan int, 1024)
	written := make(chan error, 1)
	go func() {
		var batch []byte
		id := 0
		for k := range issue {
			batch = batch[:0]
			for range k {
				id++
				batch = strconv.AppendInt(append(batch, head...), int64(id), 10)
				batch = append(batch, tail...)
			}
			if _, err := inW.Write(batch); err != nil {
				written <- err
				return
			}
		}
		written <- inW.Close()
	}()
	b.ReportAllocs()
	b.ResetTimer()
	sent := min(inflight, b.N)
	issue <- sent
	pending := 0
	for range b.N {
		line, err := out.ReadSlice('\n')
		if err != nil {
			b.Fatal(err)
		}
		if !bytes.Contains(line, []byte(`"result":{"content"`)) {
			b.Fatalf("not a tool result: %s", line)
		}
		if sent < b.N {
			sent++
			pending++
		}
		if pending > 0 && out.Buffered() == 0 {
			issue <- pending
			pending = 0
		}
	}
	b.StopTimer()
	close(issue)
	if err := <-written; err != nil {
		b.Fatal(err)
	}
	if err := <-served; err != nil {
		b.Fatal(err)
	}
}
