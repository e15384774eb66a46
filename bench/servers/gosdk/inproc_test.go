package gosdk

import (
	"context"
	"io"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/bench/internal/inproc"
	"github.com/mcpgen/mcpgen/bench/internal/searchtool"
	"github.com/mcpgen/mcpgen/bench/internal/wire"
)

// serve runs the SDK server over a reader and writer, as StdioTransport does
// over stdin and stdout.
func serve(ctx context.Context, r io.Reader, w io.Writer) error {
	t := &mcp.IOTransport{Reader: io.NopCloser(r), Writer: w.(io.WriteCloser)}
	return NewServer().Run(ctx, t)
}

// BenchmarkCall is one tools/call round trip: over io.Pipe with the same raw
// client as every other server, and through the SDK's own client over its
// in-memory transport (client costs included).
func BenchmarkCall(b *testing.B) {
	b.Run("gosdk/pipe", func(b *testing.B) { inproc.Bench(b, serve) })
	b.Run("gosdk/inmemory", benchInMemory)
}

func benchInMemory(b *testing.B) {
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := NewServer().Connect(ctx, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ss.Close()
	c := mcp.NewClient(&mcp.Implementation{Name: "mcpbench", Version: "0.0.1"}, nil)
	cs, err := c.Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	params := make([]*mcp.CallToolParams, len(wire.Calls))
	for i, call := range wire.Calls {
		params[i] = &mcp.CallToolParams{Name: searchtool.Name, Arguments: rawArgs(call.Args)}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		k := i % len(wire.Calls)
		i++
		res, err := cs.CallTool(ctx, params[k])
		if err != nil {
			b.Fatal(err)
		}
		if res.IsError || len(res.Content) != 1 || res.Content[0].(*mcp.TextContent).Text != wire.Calls[k].Want {
			b.Fatalf("unexpected result %+v", res)
		}
	}
}

// rawArgs passes pre-encoded arguments through the SDK client unchanged.
type rawArgs string

func (a rawArgs) MarshalJSON() ([]byte, error) { return []byte(a), nil }

// TestConformance checks the answers the benchmarks rely on.
func TestConformance(t *testing.T) { inproc.Conformance(t, serve, false) }

// BenchmarkLarge is one call of each large-message case through the serve
// loop over io.Pipe.
func BenchmarkLarge(b *testing.B) {
	b.Run("gosdk", func(b *testing.B) { inproc.BenchLarge(b, serve) })
}
