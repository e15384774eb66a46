package runtime_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
)

// TestCloseStreamStdio: a stream transport has no event stream to end;
// CloseStream says so and the call goes on. (Package mcphttp tests the
// HTTP cases.)
func TestCloseStreamStdio(t *testing.T) {
	closed := make(chan error, 1)
	srv := rttest.NewServer()
	srv.AddTool(rttest.Tool("poll", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		err := rt.CloseStream(ctx, 25*time.Millisecond)
		closed <- err
		if err != nil {
			return rt.TextResult("not closed: " + err.Error()), nil
		}
		return rt.TextResult("finished"), nil
	}))
	c := start(t, srv)
	c.initialize("2025-11-25")
	if got := string(c.result(1, "tools/call", map[string]any{"name": "poll"})); !strings.Contains(got, "not closed: ") {
		t.Errorf("result %s", got)
	}
	if err := <-closed; !errors.Is(err, rt.ErrNoStream) {
		t.Errorf("CloseStream: %v, want an error matching ErrNoStream", err)
	}
	if err := rt.CloseStream(context.Background(), 0); err == nil {
		t.Error("CloseStream outside a handler: no error")
	}
}
