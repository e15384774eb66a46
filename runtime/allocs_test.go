package runtime_test

import (
	"bufio"
	"context"
	"io"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
)

// maxCallAllocs is what one tools/call round trip of searchTool may
// allocate, in the runtime and the handler together: the call's context
// and the result in the runtime; the pattern, the formatted limit and the
// text in the handler. Nothing per message besides.
const maxCallAllocs = 6

// TestToolsCallAllocs pins the allocations of a tools/call round trip
// through Serve (see BenchmarkToolsCall), so that a change that adds one
// to the path every call takes is noticed.
func TestToolsCallAllocs(t *testing.T) {
	if raceEnabled {
		t.Log("the race detector allocates on its own; allocations not counted")
		return
	}
	s := runtime.NewServer("bench", "0")
	s.AddTool(rttest.SearchTool())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, inR, outW) }()
	out := bufio.NewReader(outR)
	roundTrip := func(line []byte) {
		if _, err := inW.Write(line); err != nil {
			t.Fatal(err)
		}
		if _, err := out.ReadSlice('\n'); err != nil {
			t.Fatal(err)
		}
	}
	roundTrip([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"0"}}}` + "\n"))
	inW.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"))
	call := []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search_files","arguments":{"pattern":"*.go","limit":10,"recursive":true}}}` + "\n")
	for range 100 { // warm the pools and the workers
		roundTrip(call)
	}
	if n := testing.AllocsPerRun(500, func() { roundTrip(call) }); n > maxCallAllocs {
		t.Errorf("a tools/call round trip allocates %.1f times, want at most %d", n, maxCallAllocs)
	}
	inW.Close()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
}
