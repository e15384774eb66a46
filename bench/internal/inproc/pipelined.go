package inproc

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/bench/internal/searchtool"
	"github.com/mcpgen/mcpgen/bench/internal/wire"
)

// BenchPipelined measures tools/call throughput with inflight calls
// outstanding, as the process driver's pipelined phase does, through serve
// running over a pair of operating-system pipes (os.Pipe), so that reads
// and writes are system calls as they are over stdio. One iteration is one
// call answered; every answer is checked cheaply, and the requests freed by
// the answers already buffered are written together.
func BenchPipelined(b *testing.B, serve ServeFunc, inflight int) {
	sr, cw, err := os.Pipe() // client → server
	if err != nil {
		b.Fatal(err)
	}
	cr, sw, err := os.Pipe() // server → client
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		err := serve(ctx, sr, sw)
		sw.Close()
		done <- err
	}()
	r := bufio.NewReaderSize(cr, 256<<10)
	var id int64
	out := wire.AppendInitialize(nil, 1)
	out = wire.AppendInitialized(out)
	if _, err := cw.Write(out); err != nil {
		b.Fatal(err)
	}
	if _, err := wire.ReadLine(r); err != nil {
		b.Fatal(err)
	}
	id = 1
	want := make(map[int64]wire.Call, inflight)
	issue := func(k int) {
		for range k {
			id++
			c := wire.CallFor(id)
			want[id] = c
			out = wire.AppendCall(out, id, searchtool.Name, c.Args)
		}
	}
	lineBuffered := func() bool {
		n := r.Buffered()
		if n == 0 {
			return false
		}
		p, _ := r.Peek(n)
		return bytes.IndexByte(p, '\n') >= 0
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	out = out[:0]
	sent := min(inflight, b.N)
	issue(sent)
	if _, err := cw.Write(out); err != nil {
		b.Fatal(err)
	}
	out = out[:0]
	pending := 0
	for range b.N {
		line, err := wire.ReadLine(r)
		if err != nil {
			b.Fatal(err)
		}
		got, ok := wire.FindID(line)
		c, outstanding := want[got]
		if !ok || !outstanding {
			b.Fatalf("answer %s carries no outstanding id", line)
		}
		if err := wire.QuickCheck(line, got, c.WantJSON); err != nil {
			b.Fatal(err)
		}
		delete(want, got)
		if sent < b.N {
			sent++
			pending++
		}
		if pending > 0 && !lineBuffered() {
			issue(pending)
			pending = 0
			if _, err := cw.Write(out); err != nil {
				b.Fatal(err)
			}
			out = out[:0]
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
	if len(want) != 0 {
		b.Fatalf("%d calls unanswered", len(want))
	}
	cw.Close()
	select {
	case err := <-done:
		if err != nil {
			b.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		b.Fatal("serve did not return at end of input")
	}
	sr.Close()
	cr.Close()
}

// cpuTime returns the process's user and system CPU time so far, which on a
// shared machine is steadier than the elapsed time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
