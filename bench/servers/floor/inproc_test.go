package main

import (
	"net/http"
	"testing"

	"github.com/mcpgen/mcpgen/bench/internal/httpwire"
	"github.com/mcpgen/mcpgen/bench/internal/inproc"
)

// BenchmarkCall is one tools/call round trip through the floor's serve loop
// over io.Pipe.
func BenchmarkCall(b *testing.B) {
	b.Run("floor/pipe", func(b *testing.B) { inproc.Bench(b, serve) })
}

// TestConformance checks the answers the benchmarks rely on.
func TestConformance(t *testing.T) { inproc.Conformance(t, serve, true) }

// BenchmarkLarge is one call of each large-message case through the serve
// loop over io.Pipe.
func BenchmarkLarge(b *testing.B) {
	b.Run("floor", func(b *testing.B) { inproc.BenchLarge(b, serve) })
}

// TestHTTPConformance checks the answers of the floor over HTTP.
func TestHTTPConformance(t *testing.T) {
	httpwire.Conformance(t, http.HandlerFunc(httpFloor), true)
}
