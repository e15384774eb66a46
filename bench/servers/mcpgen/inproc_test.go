package mcpgen

import (
	"bytes"
	"os"
	"testing"

	"github.com/mcpgen/mcpgen/generator"

	"github.com/mcpgen/mcpgen/bench/internal/inproc"
)

// BenchmarkCall is one tools/call round trip through the generated dispatch
// and runtime.Server.Serve over io.Pipe.
func BenchmarkCall(b *testing.B) {
	b.Run("mcpgen/pipe", func(b *testing.B) { inproc.Bench(b, NewServer().Serve) })
}

// TestConformance checks the answers the benchmarks rely on.
func TestConformance(t *testing.T) { inproc.Conformance(t, NewServer().Serve, true) }

// TestGeneratedUpToDate fails when mcp_gen.go is not what the generator
// makes of main.go today: run go generate.
func TestGeneratedUpToDate(t *testing.T) {
	files, err := generator.Generate(generator.Config{Dir: "."})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 {
		t.Fatalf("generator returned %d files, want 1", len(files))
	}
	have, err := os.ReadFile(files[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, files[0].Content) {
		t.Errorf("%s is stale: run go generate ./servers/mcpgen", files[0].Path)
	}
}

// BenchmarkLarge is one call of each large-message case through the serve
// loop over io.Pipe.
func BenchmarkLarge(b *testing.B) {
	b.Run("mcpgen", func(b *testing.B) { inproc.BenchLarge(b, NewServer().Serve) })
}

// BenchmarkPipelined is tools/call throughput with 64 calls in flight
// through runtime.Server.Serve over operating-system pipes.
func BenchmarkPipelined(b *testing.B) {
	b.Run("mcpgen/ospipe", func(b *testing.B) { inproc.BenchPipelined(b, NewServer().Serve, 64) })
}

// BenchmarkBuffered is the server's own cost of a tools/call with the
// input always buffered ahead of it.
func BenchmarkBuffered(b *testing.B) {
	b.Run("mcpgen", func(b *testing.B) { inproc.BenchBuffered(b, NewServer().Serve) })
}
