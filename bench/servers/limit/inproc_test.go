package limit

import (
	"testing"

	"github.com/mcpgen/mcpgen/bench/internal/inproc"
)

// BenchmarkCall is one tools/call round trip through the limit's serve loop
// over io.Pipe.
func BenchmarkCall(b *testing.B) {
	b.Run("limit/pipe", func(b *testing.B) { inproc.Bench(b, Serve) })
}

// TestConformance checks that the canned answers pass the checks the
// benchmarks make, the invalid calls included.
func TestConformance(t *testing.T) { inproc.Conformance(t, Serve, true) }

// BenchmarkLarge is one call of each large-message case through the serve
// loop over io.Pipe.
func BenchmarkLarge(b *testing.B) {
	b.Run("limit", func(b *testing.B) { inproc.BenchLarge(b, Serve) })
}

// BenchmarkPipelined is tools/call throughput with 64 calls in flight
// through the limit's serve loop over operating-system pipes.
func BenchmarkPipelined(b *testing.B) {
	b.Run("limit/ospipe", func(b *testing.B) { inproc.BenchPipelined(b, Serve, 64) })
}

// BenchmarkBuffered is the limit's own cost of a tools/call with the input
// always buffered ahead of it.
func BenchmarkBuffered(b *testing.B) {
	b.Run("limit", func(b *testing.B) { inproc.BenchBuffered(b, Serve) })
}
