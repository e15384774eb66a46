// Test servers and tools, as package runtime's tests have them.

package mcphttp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// searchTool is what mcpgen generates for search_files(pattern string,
// limit int 1..100 default 10, recursive bool), written out by hand.
func searchTool() rt.Tool {
	return rt.Tool{
		Name:        "search_files",
		InputSchema: []byte(`{"type":"object","properties":{"pattern":{"type":"string"},"limit":{"type":"integer","minimum":1,"maximum":100,"default":10},"recursive":{"type":"boolean"}},"required":["pattern"],"additionalProperties":false}`),
		Handler: func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
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
			return rt.TextResult("found 3 files matching " + pattern + " (limit " + fmt.Sprint(limit) + ")"), nil
		},
	}
}

// testTimeout bounds every wait in these tests, so that none can hang.
const testTimeout = 60 * time.Second

// quiet is a logger that discards everything.
var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// newServer returns a server named "test" 1.0.0 that logs nowhere, unless
// opts set another logger.
func newServer(opts ...rt.Option) *rt.Server {
	return rt.NewServer("test", "1.0.0", append([]rt.Option{rt.WithLogger(quiet)}, opts...)...)
}

// objSchema is the input schema of a tool without arguments.
const objSchema = `{"type":"object"}`

// tool returns a tool with the given name and handler.
func tool(name string, h rt.ToolHandler) rt.Tool {
	return rt.Tool{Name: name, Description: "The " + name + " tool.", InputSchema: json.RawMessage(objSchema), Handler: h}
}

// echoTool returns its argument "text"; it has one required string
// argument.
var echoTool = rt.Tool{
	Name:        "echo",
	Description: "Echoes text.",
	InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}`),
	Handler: func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		d := mcpimpl.ArgumentsDecoder(req.Arguments)
		var text string
		has := false
		if d.Object() {
			for {
				key, ok := d.Field()
				if !ok {
					break
				}
				switch string(key) {
				case "text":
					text, has = d.String()
				default:
					d.Unknown("text")
				}
			}
			if !has {
				d.Missing("text")
			}
		}
		if err := d.Err(); err != nil {
			return nil, err
		}
		return rt.TextResult(text), nil
	},
}

// syncBuffer is a bytes.Buffer safe for concurrent use.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// blocker is a tool whose calls block until released or cancelled.
type blocker struct {
	started chan string // the id argument of each call, when it starts
	release chan struct{}
	mu      sync.Mutex
	ended   map[string]error // the context's error when each call ended
	endedCh chan string
}

func newBlocker() *blocker {
	return &blocker{started: make(chan string, 100), release: make(chan struct{}), ended: map[string]error{}, endedCh: make(chan string, 100)}
}

func (b *blocker) tool() rt.Tool {
	return rt.Tool{
		Name:        "block",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}}}`),
		Handler: func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
			d := mcpimpl.ArgumentsDecoder(req.Arguments)
			var id string
			if d.Object() {
				for {
					key, ok := d.Field()
					if !ok {
						break
					}
					if string(key) == "id" {
						id, _ = d.String()
					}
				}
			}
			b.started <- id
			var err error
			select {
			case <-b.release:
			case <-ctx.Done():
				err = ctx.Err()
			case <-time.After(testTimeout):
				err = errors.New("never released")
			}
			b.mu.Lock()
			b.ended[id] = err
			b.mu.Unlock()
			b.endedCh <- id
			return rt.TextResult("done " + id), nil
		},
	}
}

func (b *blocker) waitStarted(t testing.TB, n int) []string {
	t.Helper()
	var ids []string
	for range n {
		select {
		case id := <-b.started:
			ids = append(ids, id)
		case <-time.After(testTimeout):
			t.Fatalf("only %d of %d calls started", len(ids), n)
		}
	}
	slices.Sort(ids)
	return ids
}

func (b *blocker) waitEnded(t testing.TB, id string) error {
	t.Helper()
	select {
	case got := <-b.endedCh:
		if got != id {
			t.Fatalf("call %q ended, want %q", got, id)
		}
	case <-time.After(testTimeout):
		t.Fatalf("call %q did not end", id)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.ended[id]
}
