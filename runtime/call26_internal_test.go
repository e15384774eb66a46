package runtime

import (
	"testing"
	"unsafe"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// TestCall26Size checks that the single allocation of a 2026-07-28
// request that runs as a call stays within a size class of 288 bytes
// (on 64-bit systems): a call of an older revision allocates its
// context alone, 176 bytes, and each byte the allocation grows by costs
// every call of that revision.
func TestCall26Size(t *testing.T) {
	if n := unsafe.Sizeof(call26{}); n > 288 {
		t.Errorf("a call26 is %d bytes, more than the 288 of its size class", n)
	}
}

// BenchmarkParse26 measures the parse of the tools/call of
// BenchmarkToolsCall with and without the _meta of revision 2026-07-28,
// which the parse reads in passing, and the entry of such a request
// (enter2026): what a call of that revision costs before its handler.
func BenchmarkParse26(b *testing.B) {
	const (
		call25 = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search_files","arguments":{"pattern":"*.go","limit":10,"recursive":true}}}`
		call26 = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"ExampleClient","version":"1.0.0"},"io.modelcontextprotocol/clientCapabilities":{}},"name":"search_files","arguments":{"pattern":"*.go","limit":10,"recursive":true}}}`
	)
	for _, bc := range []struct{ name, msg string }{{"2025", call25}, {"2026", call26}} {
		b.Run(bc.name, func(b *testing.B) {
			var d mcpimpl.Decoder
			var m message
			msg := []byte(bc.msg)
			b.ReportAllocs()
			for b.Loop() {
				if err := parseMessage(&d, msg, &m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("enter", func(b *testing.B) {
		srv := NewServer("bench", "0")
		s := &Session{srv: srv}
		var m message
		if err := parseMessage(&s.dec, []byte(call26), &m); err != nil {
			b.Fatal(err)
		}
		r := direct{s}
		b.ReportAllocs()
		for b.Loop() {
			s.initialized, s.assumed = false, false
			if _, done := s.enter2026(&m, r); done {
				b.Fatal("answered")
			}
		}
	})
}
