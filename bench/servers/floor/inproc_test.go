package floor

import (
	"testing"

	"github.com/mcpgen/mcpgen/bench/internal/inproc"
)

// BenchmarkCall is one tools/call round trip through the floor's serve loop
// over io.Pipe.
func BenchmarkCall(b *testing.B) {
	b.Run("floor/pipe", func(b *testing.B) { inproc.Bench(b, Serve) })
}

// TestConformance checks the answers the benchmarks rely on.
func TestConformance(t *testing.T) { inproc.Conformance(t, Serve, true) }

// BenchmarkLarge is one call of each large-message case through the serve
// loop over io.Pipe.
func BenchmarkLarge(b *testing.B) {
	b.Run("floor", func(b *testing.B) { inproc.BenchLarge(b, Serve) })
}
