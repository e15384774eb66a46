package runtime_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"reflect"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
)

// call26 is the tools/call of BenchmarkToolsCall as a client of revision
// 2026-07-28 sends it: no initialize before it, its revision, identity and
// capabilities in params._meta.
const call26 = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"ExampleClient","version":"1.0.0"},"io.modelcontextprotocol/clientCapabilities":{}},"name":"search_files","arguments":{"pattern":"*.go","limit":10,"recursive":true}}}` + "\n"

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
			s.AddTool(rttest.SearchTool())
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
			defer reportCPU(b)()
			for b.Loop() {
				roundTrip([]byte(bc.call)) // a copy, as BenchmarkToolsCall's io.WriteString makes
			}
		})
	}
}

// maxCall26Allocs is what one tools/call round trip of searchTool may
// allocate as a client of revision 2026-07-28 sends it: what a call of an
// older revision allocates (maxCallAllocs). The request's own state (what
// its _meta declared, its multi round-trip state and a copy of its id,
// capabilities and clientInfo) is allocated with the call's context;
// clientInfo is decoded only when a handler asks for it. The result is
// written complete, not rewritten.
const maxCall26Allocs = maxCallAllocs

// TestToolsCall2026Allocs pins the allocations of a 2026-07-28 tools/call
// round trip through Serve (see BenchmarkToolsCall2026), and checks that
// the answer is complete: for the call of the benchmark, and for one whose
// client declares every capability and more about itself, as clients do.
func TestToolsCall2026Allocs(t *testing.T) {
	const want = `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"found 3 files matching *.go (limit 10)"}],"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"bench","version":"0"}}}}` + "\n"
	for _, tc := range []struct{ name, call string }{
		{"bench", call26},
		{"declared", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"example-client","title":"Example Client","version":"v1.8.0"},"io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true},"sampling":{"tools":{}},"elicitation":{"form":{},"url":{}}},"io.modelcontextprotocol/logLevel":"info"},"name":"search_files","arguments":{"pattern":"*.go","limit":10,"recursive":true}}}` + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := runtime.NewServer("bench", "0")
			s.AddTool(rttest.SearchTool())
			roundTrip, stop := serve26(t, s)
			call := []byte(tc.call)
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
		})
	}
}

// TestLargeResult2026 checks that a 1 MiB result of revision 2026-07-28
// goes out complete without being decoded and encoded again: a tools/call
// or resources/read result is written complete, and a round trip
// allocates about the answer once. Decoding and encoding them allocated
// more than five times the answer.
func TestLargeResult2026(t *testing.T) {
	big := strings.Repeat("abcdefghijklmnopqrstuvwxyz012345", 1<<15) // 1 MiB
	s := runtime.NewServer("bench", "0")
	s.AddTool(runtime.Tool{
		Name:        "big",
		InputSchema: []byte(`{"type":"object"}`),
		Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.CallToolResult, error) {
			return runtime.TextResult(big), nil
		},
	})
	s.AddResource(runtime.Resource{URI: "mem://big", Name: "big", Handler: func(context.Context, *runtime.ResourceRequest) ([]runtime.ResourceContents, error) {
		return []runtime.ResourceContents{{Text: big}}, nil
	}})
	roundTrip, stop := serve26(t, s)
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	for _, tc := range []struct {
		name, call string
		text       func(result map[string]any) any
		maxAllocs  float64 // bytes allocated per round trip, in answers
	}{
		{"tools/call", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"big",` + meta + `}}`,
			func(r map[string]any) any { return r["content"].([]any)[0].(map[string]any)["text"] }, 1.5},
		{"resources/read", `{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"mem://big",` + meta + `}}`,
			func(r map[string]any) any { return r["contents"].([]any)[0].(map[string]any)["text"] }, 1.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			call := []byte(tc.call + "\n")
			ans := roundTrip(call)
			var resp struct {
				Result map[string]any
			}
			if err := json.Unmarshal(ans, &resp); err != nil {
				t.Fatalf("%.200s: %v", ans, err)
			}
			r := resp.Result
			if r == nil || r["resultType"] != "complete" || tc.text(r) != big {
				t.Fatalf("an incomplete answer: %.200s", ans)
			}
			if info := r["_meta"].(map[string]any)["io.modelcontextprotocol/serverInfo"]; !reflect.DeepEqual(info, map[string]any{"name": "bench", "version": "0"}) {
				t.Errorf("serverInfo %v", info)
			}
			if raceEnabled {
				t.Log("the race detector allocates on its own; allocations not counted")
				return
			}
			const n = 8
			var before, after goruntime.MemStats
			goruntime.ReadMemStats(&before)
			for range n {
				roundTrip(call)
			}
			goruntime.ReadMemStats(&after)
			per := float64(after.TotalAlloc-before.TotalAlloc) / n / float64(len(ans))
			if per > tc.maxAllocs {
				t.Errorf("a round trip allocates %.2f times the answer's %d bytes, want at most %.1f", per, len(ans), tc.maxAllocs)
			}
			t.Logf("%.2f times the answer's %d bytes allocated per round trip", per, len(ans))
		})
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}
