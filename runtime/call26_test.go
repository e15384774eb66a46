package runtime_test

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
)

// call26 is the tools/call of BenchmarkToolsCall as a client of revision
// 2026-07-28 sends it: no initialize before it, its revision, identity and
// capabilities in params._meta.
const call26 = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"b","version":"0"},"io.modelcontextprotocol/clientCapabilities":{}},"name":"search_files","arguments":{"pattern":"*.go","limit":10,"recursive":true}}}` + "\n"

// serve26 serves s over in-memory pipes to a client of revision
// 2026-07-28 and returns the function making one round trip of line,
// which returns the answer, valid until the next round trip.
func serve26(tb testing.TB, s *runtime.Server) (roundTrip func(line []byte) []byte, stop func() error) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, inR, outW) }()
	out := bufio.NewReaderSize(outR, 2<<20)
	roundTrip = func(line []byte) []byte {
		if _, err := inW.Write(line); err != nil {
			tb.Fatal(err)
		}
		ans, err := out.ReadSlice('\n')
		if err != nil {
			tb.Fatal(err)
		}
		return ans
	}
	stop = func() error {
		inW.Close()
		err := <-served
		cancel()
		outR.Close()
		return err
	}
	return roundTrip, stop
}

// BenchmarkToolsCall2026 is BenchmarkToolsCall for a client of revision
// 2026-07-28: each call carries its _meta, and each result says what it
// is and who answers it. "1MiB" calls a tool returning a megabyte of
// text.
func BenchmarkToolsCall2026(b *testing.B) {
	big := strings.Repeat("abcdefghijklmnopqrstuvwxyz012345", 1<<15) // 1 MiB
	for _, bc := range []struct{ name, call string }{
		{"search", call26},
		{"1MiB", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"big"}}` + "\n"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			s := runtime.NewServer("bench", "0")
			s.AddTool(searchTool())
			s.AddTool(runtime.Tool{
				Name:        "big",
				InputSchema: []byte(`{"type":"object"}`),
				Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.CallToolResult, error) {
					return runtime.TextResult(big), nil
				},
			})
			roundTrip, stop := serve26(b, s)
			defer stop()
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				roundTrip([]byte(bc.call)) // a copy, as BenchmarkToolsCall's io.WriteString makes
			}
		})
	}
}

// maxCall26Allocs is what one tools/call round trip of searchTool may
// allocate as a client of revision 2026-07-28 sends it: those of
// maxCallAllocs, and the request's own state (what its _meta declared and
// its multi round-trip state) in one allocation, its id and capabilities
// in another. The one-letter clientInfo strings of call26 cost none; the
// result is written complete, not rewritten.
const maxCall26Allocs = maxCallAllocs + 2

// TestToolsCall2026Allocs pins the allocations of a 2026-07-28 tools/call
// round trip through Serve (see BenchmarkToolsCall2026), and checks that
// the answer is complete.
func TestToolsCall2026Allocs(t *testing.T) {
	s := runtime.NewServer("bench", "0")
	s.AddTool(searchTool())
	roundTrip, stop := serve26(t, s)
	want := `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"found 3 files matching *.go (limit 10)"}],"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"bench","version":"0"}}}}` + "\n"
	call := []byte(call26)
	if got := roundTrip(call); string(got) != want {
		t.Fatalf("answer\n%s\nwant\n%s", got, want)
	}
	if raceEnabled {
		t.Log("the race detector allocates on its own; allocations not counted")
	} else {
		for range 100 { // warm the pools and the workers
			roundTrip(call)
		}
		n := testing.AllocsPerRun(500, func() { roundTrip(call) })
		if n > maxCall26Allocs {
			t.Errorf("a 2026-07-28 tools/call round trip allocates %.1f times, want at most %d", n, maxCall26Allocs)
		}
		t.Logf("%.1f allocations per round trip", n)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}
