package runtime_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
)

// scaleSchema is an input schema of the size and shape of a tool of the
// bench module's 1,000-tool server (six arguments, one of them a nested
// object), about 850 bytes.
func scaleSchema(i int) []byte {
	return fmt.Appendf(nil, `{"properties":{"query":{"type":"string","minLength":1,"description":"The text to look for."},"limit":{"type":"integer","maximum":1000,"minimum":1,"description":"Caps the number of results."},"mode":{"type":"string","enum":["fast","full","safe"],"description":"Selects how thoroughly to search."},"tags":{"items":{"type":"string"},"type":"array","maxItems":16,"description":"Tags filter the results."},"filter":{"properties":{"path":{"type":"string","minLength":1,"description":"The folder to search."},"depth":{"type":"integer","maximum":10,"minimum":0,"description":"How deep to descend."}},"additionalProperties":false,"type":"object","required":["path"],"description":"Narrows the search to a path."},"owner":{"type":"string","maxLength":64,"description":"The user who owns the items."}},"additionalProperties":false,"type":"object","required":["query"],"description":"The arguments of tool_%04d."}`, i)
}

// BenchmarkToolsListAll measures the server's side of listing 1,000 tools
// in pages of 100 over in-memory pipes: each iteration requests every page,
// following nextCursor, and reads each answer whole without decoding it.
// "first" starts a new server for each listing, so that it includes
// encoding the pages; "cached" lists the same server again, and
// "cached-2026" as a client of revision 2026-07-28, each request carrying
// its _meta.
func BenchmarkToolsListAll(b *testing.B) {
	const n = 1000
	newSrv := func() *runtime.Server {
		s := runtime.NewServer("bench", "0")
		for i := range n {
			s.AddTool(runtime.Tool{
				Name:        fmt.Sprintf("tool_%04d", i),
				Description: fmt.Sprintf("Searches the items of collection %d.", i),
				InputSchema: scaleSchema(i),
				Annotations: &runtime.ToolAnnotations{ReadOnlyHint: runtime.Bool(true)},
				Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.CallToolResult, error) {
					return runtime.TextResult("ok"), nil
				},
			})
		}
		return s
	}
	type conn struct {
		in     *io.PipeWriter
		out    *bufio.Reader
		cancel func()
	}
	open := func(s *runtime.Server, rev26 bool) *conn {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		ctx, cancel := context.WithCancel(context.Background())
		go s.Serve(ctx, inR, outW)
		c := &conn{in: inW, out: bufio.NewReaderSize(outR, 256<<10), cancel: func() { cancel(); inW.Close(); outR.Close() }}
		if rev26 {
			return c // no initialize: each request says its revision
		}
		io.WriteString(inW, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"0"}}}`+"\n")
		if _, err := c.out.ReadSlice('\n'); err != nil {
			b.Fatal(err)
		}
		io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
		return c
	}
	cursorKey := []byte(`"nextCursor":"`)
	var req []byte
	meta26 := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	rev26 := false // list as a client of revision 2026-07-28
	list := func(c *conn) (pages, size int) {
		cursor := []byte(nil)
		for {
			req = append(req[:0], `{"jsonrpc":"2.0","id":1,"method":"tools/list"`...)
			switch {
			case rev26 && cursor != nil:
				req = append(append(append(append(req, `,"params":{"cursor":"`...), cursor...), `",`...), meta26+"}"...)
			case rev26:
				req = append(req, `,"params":{`+meta26+"}"...)
			case cursor != nil:
				req = append(append(append(req, `,"params":{"cursor":"`...), cursor...), `"}`...)
			}
			req = append(req, "}\n"...)
			if _, err := c.in.Write(req); err != nil {
				b.Fatal(err)
			}
			line, err := c.out.ReadSlice('\n')
			if err != nil {
				b.Fatal(err)
			}
			pages++
			size += len(line)
			// nextCursor ends a page, but for 2026-07-28 comes before the
			// tools, in the first kilobyte.
			tail := line[max(len(line)-256, 0):]
			i := bytes.Index(tail, cursorKey)
			if i < 0 {
				tail = line[:min(len(line), 1024)]
				if i = bytes.Index(tail, cursorKey); i < 0 {
					return pages, size
				}
			}
			rest := tail[i+len(cursorKey):]
			cursor = append(cursor[:0], rest[:bytes.IndexByte(rest, '"')]...)
		}
	}
	b.Run("first", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			b.StopTimer()
			c := open(newSrv(), false)
			b.StartTimer()
			if pages, _ := list(c); pages != n/100 {
				b.Fatalf("%d pages, want %d", pages, n/100)
			}
			b.StopTimer()
			c.cancel()
			b.StartTimer()
		}
	})
	for _, r := range []struct {
		name  string
		rev26 bool
	}{{"cached", false}, {"cached-2026", true}} {
		b.Run(r.name, func(b *testing.B) {
			c := open(newSrv(), r.rev26)
			defer c.cancel()
			rev26 = r.rev26
			defer func() { rev26 = false }()
			if pages, _ := list(c); pages != n/100 {
				b.Fatalf("%d pages, want %d", pages, n/100)
			}
			b.ReportAllocs()
			var size int
			for b.Loop() {
				_, size = list(c)
			}
			b.ReportMetric(float64(size), "bytes/listing")
		})
	}
}
