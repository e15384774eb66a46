package runtime_test

import (
	"bufio"
	"context"

	"io"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
)

// heapInUse returns the bytes of live heap objects after a collection.
func heapInUse() int64 {
	// Two collections: the first moves pooled buffers to the victim
	// cache, the second frees them.
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// TestMemoryBudget sends calls with large arguments, whose answers are as
// large, and reads no answer: with a budget, the session stops reading
// while it holds the budget, so the heap grows by at most the budget and a
// constant; without one, it grows with every call. Once the client reads,
// the session reads again and answers every call.
func TestMemoryBudget(t *testing.T) {
	const (
		calls   = 64
		argSize = 128 << 10
		maxMsg  = 512 << 10
		budget  = 2 << 20
		// What the process holds besides the budget: the session's read
		// buffer, the message read last, the answers of calls running,
		// the client's line in the pipe, buffers.
		constant = 6 * maxMsg
	)
	for _, tc := range []struct {
		name   string
		budget int
	}{
		{"budget", budget},
		{"no budget", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := rttest.NewServer(rt.WithMemoryBudget(tc.budget), rt.WithMaxMessageSize(maxMsg), rt.WithShutdownGrace(10*time.Millisecond))
			srv.AddTool(rttest.EchoTool)
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			ctx, cancel := context.WithCancel(context.Background())
			served := make(chan error, 1)
			before := heapInUse()
			go func() { served <- srv.Serve(ctx, inR, outW) }()
			defer func() {
				cancel()
				inR.Close()
				outR.Close()
				<-served
			}()
			out := bufio.NewReader(outR)
			io.WriteString(inW, requestLine(0, "initialize", map[string]any{"protocolVersion": "2025-11-25"})+"\n")
			if line, err := out.ReadString('\n'); err != nil || !strings.Contains(line, "protocolVersion") {
				t.Fatalf("initialize: %q, %v", line, err)
			}
			var sent atomic.Int32
			senderDone := make(chan struct{})
			go func() {
				defer close(senderDone)
				text := strings.Repeat("m", argSize)
				for i := range calls {
					line := requestLine(i+1, "tools/call", map[string]any{"name": "echo", "arguments": map[string]string{"text": text}})
					if _, err := io.WriteString(inW, line+"\n"); err != nil {
						return
					}
					sent.Add(1)
				}
			}()
			// Wait until the client sent everything or, with a budget,
			// can send no more.
			last, still := int32(-1), 0
			for deadline := time.Now().Add(rttest.Timeout); sent.Load() < calls && (tc.budget == 0 || still < 50) && time.Now().Before(deadline); {
				time.Sleep(10 * time.Millisecond)
				if n := sent.Load(); n == last {
					still++
				} else {
					last, still = n, 0
				}
			}
			grown := heapInUse() - before
			n := sent.Load()
			t.Logf("%d of %d calls of %d KiB sent, heap grown by %.1f MiB", n, calls, argSize>>10, float64(grown)/(1<<20))
			if tc.budget > 0 {
				if grown > budget+constant {
					t.Errorf("the heap grew by %d bytes, over the budget %d and a constant %d", grown, budget, constant)
				}
				if n == calls {
					t.Errorf("the session read all %d calls with answers unread: it did not stop at its budget", calls)
				}
			} else if grown <= budget+constant {
				// The measure must see what a session holds, or the
				// case with a budget proves nothing.
				t.Errorf("without a budget the heap grew by only %d bytes for %d unread answers of %d bytes", grown, calls, argSize)
			}
			// The client reads now: every call is answered.
			for i := range calls {
				line, err := out.ReadString('\n')
				if err != nil {
					t.Fatalf("answer %d: %v", i, err)
				}
				if !strings.Contains(line, `"result"`) || len(line) < argSize {
					t.Fatalf("answer %d: %.200s", i, line)
				}
			}
			select {
			case <-senderDone:
			case <-time.After(rttest.Timeout):
				t.Fatal("the client could not send its calls")
			}
			if n := sent.Load(); n != calls {
				t.Errorf("only %d of %d calls sent", n, calls)
			}
		})
	}
}
