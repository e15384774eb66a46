package mcpgo

import (
	"context"
	"encoding/json"
	"io"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpgen/mcpgen/bench/internal/inproc"
	"github.com/mcpgen/mcpgen/bench/internal/searchtool"
	"github.com/mcpgen/mcpgen/bench/internal/wire"
)

// serve runs the server's stdio loop over a reader and writer, as ServeStdio
// does over stdin and stdout.
func serve(ctx context.Context, r io.Reader, w io.Writer) error {
	return server.NewStdioServer(NewServer()).Listen(ctx, r, w)
}

// BenchmarkCall is one tools/call round trip: over io.Pipe with the same raw
// client as every other server, and through the library's in-process client,
// which calls the server directly with no JSON encoding in between (client
// costs included).
func BenchmarkCall(b *testing.B) {
	b.Run("mcpgo/pipe", func(b *testing.B) { inproc.Bench(b, serve) })
	b.Run("mcpgo/inprocess", benchInProcess)
}

func benchInProcess(b *testing.B) {
	ctx := context.Background()
	c, err := client.NewInProcessClient(NewServer())
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		b.Fatal(err)
	}
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = wire.ProtocolVersion
	init.Params.ClientInfo = mcp.Implementation{Name: "mcpbench", Version: "0.0.1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		b.Fatal(err)
	}
	reqs := make([]mcp.CallToolRequest, len(wire.Calls))
	for i, call := range wire.Calls {
		var args map[string]any
		if err := json.Unmarshal([]byte(call.Args), &args); err != nil {
			b.Fatal(err)
		}
		reqs[i].Params.Name = searchtool.Name
		reqs[i].Params.Arguments = args
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		k := i % len(wire.Calls)
		i++
		res, err := c.CallTool(ctx, reqs[k])
		if err != nil {
			b.Fatal(err)
		}
		if res.IsError || len(res.Content) != 1 || res.Content[0].(mcp.TextContent).Text != wire.Calls[k].Want {
			b.Fatalf("unexpected result %+v", res)
		}
	}
}

// TestConformance checks the answers the benchmarks rely on.
func TestConformance(t *testing.T) { inproc.Conformance(t, serve, false) }

// BenchmarkLarge is one call of each large-message case through the serve
// loop over io.Pipe.
func BenchmarkLarge(b *testing.B) {
	b.Run("mcpgo", func(b *testing.B) { inproc.BenchLarge(b, serve) })
}
