package inproc

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/mcpgen/mcpgen/bench/internal/searchtool"
	"github.com/mcpgen/mcpgen/bench/internal/wire"
)

// BenchBuffered measures a server's own cost of a tools/call with the
// input always buffered ahead of it, as for a client that never stops
// pipelining: the requests come from a reader that fills each read with
// whole lines, the answers go to a writer that only counts them. Nothing
// waits for the other side, so the time per call, and the CPU time
// reported with it, is the server's own, which on a shared machine varies
// less than that of BenchPipelined.
func BenchBuffered(b *testing.B, serve ServeFunc) {
	in := &callSource{n: int64(b.N)}
	in.pending = wire.AppendInitialized(wire.AppendInitialize(nil, 1))
	out := &lineCounter{}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	if err := serve(context.Background(), in, out); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
	if out.lines != int64(b.N)+1 {
		b.Fatalf("%d answers to %d calls and initialize", out.lines, b.N)
	}
	if !bytes.Contains(out.last, []byte(`"result"`)) {
		b.Fatalf("the last answer is no result: %s", out.last)
	}
}

// callSource reads as initialize, initialized and n calls of search_files.
type callSource struct {
	n, id   int64
	pending []byte
}

func (s *callSource) Read(p []byte) (int, error) {
	for len(s.pending) < len(p) && s.id < s.n {
		s.id++
		c := wire.CallFor(s.id + 1)
		s.pending = wire.AppendCall(s.pending, s.id+1, searchtool.Name, c.Args)
	}
	if len(s.pending) == 0 {
		return 0, io.EOF
	}
	k := copy(p, s.pending)
	if k < len(s.pending) {
		// Only whole lines, as a client's writes arrive.
		if nl := bytes.LastIndexByte(p[:k], '\n'); nl >= 0 {
			k = nl + 1
		}
	}
	s.pending = s.pending[:copy(s.pending, s.pending[k:])]
	return k, nil
}

// lineCounter counts the lines written to it and keeps the last.
type lineCounter struct {
	lines int64
	last  []byte
}

func (w *lineCounter) Write(p []byte) (int, error) {
	w.lines += int64(bytes.Count(p, []byte{'\n'}))
	if t := bytes.TrimSuffix(p, []byte{'\n'}); len(t) > 0 {
		w.last = append(w.last[:0], t[bytes.LastIndexByte(t, '\n')+1:]...)
	}
	return len(p), nil
}
