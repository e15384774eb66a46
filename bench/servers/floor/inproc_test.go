package main

import (
	"testing"

	"github.com/mcpgen/mcpgen/bench/internal/inproc"
)

// BenchmarkCall is one tools/call round trip through the floor's serve loop
// over io.Pipe.
func BenchmarkCall(b *testing.B) {
	b.Run("floor/pipe", func(b *testing.B) { inproc.Bench(b, serve) })
}

// TestConformance checks the answers the benchmarks rely on.
func TestConformance(t *testing.T) { inproc.Conformance(t, serve, true) }
