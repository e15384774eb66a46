package rttest

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// Blocker is a tool whose calls block until released or cancelled.
type Blocker struct {
	// Started receives the id argument of each call, when it starts.
	Started chan string
	// Release, closed, lets every call (blocked or still to come) end.
	Release chan struct{}

	mu      sync.Mutex
	ended   map[string]error // the context's error when each call ended
	endedCh chan string
}

// NewBlocker returns a Blocker none of whose calls has started.
func NewBlocker() *Blocker {
	return &Blocker{Started: make(chan string, 100), Release: make(chan struct{}), ended: map[string]error{}, endedCh: make(chan string, 100)}
}

// Tool returns the tool "block", with one string argument "id". A call
// blocks until b.Release is closed, its context is done, or Timeout has
// passed, then answers "done " and its id.
func (b *Blocker) Tool() rt.Tool {
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
			b.Started <- id
			var err error
			select {
			case <-b.Release:
			case <-ctx.Done():
				err = ctx.Err()
			case <-time.After(Timeout):
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

// WaitStarted waits until n calls have started and returns their ids,
// sorted; it fails the test if they do not start within Timeout.
func (b *Blocker) WaitStarted(t testing.TB, n int) []string {
	t.Helper()
	var ids []string
	for range n {
		select {
		case id := <-b.Started:
			ids = append(ids, id)
		case <-time.After(Timeout):
			t.Fatalf("only %d of %d calls started", len(ids), n)
		}
	}
	slices.Sort(ids)
	return ids
}

// WaitEnded waits until the next call to end is the one with the given id,
// and returns its context's error when it ended (nil if it was released).
// It fails the test if another call ends first, or none within Timeout.
func (b *Blocker) WaitEnded(t testing.TB, id string) error {
	t.Helper()
	select {
	case got := <-b.endedCh:
		if got != id {
			t.Fatalf("call %q ended, want %q", got, id)
		}
	case <-time.After(Timeout):
		t.Fatalf("call %q did not end", id)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.ended[id]
}
