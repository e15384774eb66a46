package runtime_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// searchTool is what mcpgen generates for search_files(pattern string,
// limit int 1..100 default 10, recursive bool), written out by hand.
func searchTool() runtime.Tool {
	return runtime.Tool{
		Name:        "search_files",
		InputSchema: []byte(`{"type":"object","properties":{"pattern":{"type":"string"},"limit":{"type":"integer","minimum":1,"maximum":100,"default":10},"recursive":{"type":"boolean"}},"required":["pattern"],"additionalProperties":false}`),
		Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.CallToolResult, error) {
			var pattern string
			limit, recursive := 10, false
			d := mcpimpl.ArgumentsDecoder(req.Arguments)
			if d.Object() {
				seen := false
				for {
					key, ok := d.Field()
					if !ok {
						break
					}
					switch string(key) {
					case "pattern":
						seen = true
						if x, ok := d.String(); ok {
							pattern = x
						}
					case "limit":
						if x, ok := d.Int(64); ok {
							if x < 1 {
								d.Invalid("must be an integer ≥ 1")
							}
							if x > 100 {
								d.Invalid("must be an integer ≤ 100")
							}
							limit = int(x)
						}
					case "recursive":
						if x, ok := d.Bool(); ok {
							recursive = x
						}
					default:
						d.Unknown("pattern, limit, recursive")
					}
				}
				if !seen {
					d.Missing("pattern")
				}
			}
			if err := d.Done(); err != nil {
				return nil, err
			}
			_ = recursive
			return runtime.TextResult("found 3 files matching " + pattern + " (limit " + fmt.Sprint(limit) + ")"), nil
		},
	}
}

// BenchmarkToolsCall measures one tools/call round trip through Serve over
// in-memory pipes: read, parse, dispatch, decode and validate, call, encode,
// write.
func BenchmarkToolsCall(b *testing.B) {
	s := runtime.NewServer("bench", "0")
	s.AddTool(searchTool())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.Serve(ctx, inR, outW)
	out := bufio.NewReader(outR)
	roundTrip := func(line string) {
		if _, err := io.WriteString(inW, line); err != nil {
			b.Fatal(err)
		}
		if _, err := out.ReadSlice('\n'); err != nil {
			b.Fatal(err)
		}
	}
	roundTrip(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"0"}}}` + "\n")
	io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	call := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search_files","arguments":{"pattern":"*.go","limit":10,"recursive":true}}}` + "\n"
	b.ReportAllocs()
	b.ResetTimer()
	defer reportCPU(b)()
	for b.Loop() {
		roundTrip(call)
	}
}
