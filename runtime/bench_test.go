package runtime_test

import (
	"bufio"
	"context"
	"io"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
)

// BenchmarkToolsCall measures one tools/call round trip through Serve over
// in-memory pipes: read, parse, dispatch, decode and validate, call, encode,
// write.
func BenchmarkToolsCall(b *testing.B) {
	s := runtime.NewServer("bench", "0")
	s.AddTool(rttest.SearchTool())
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
