package runtime_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
)

// slowRead waits for its context or d, reports how the context ended, and
// returns "done" (or the context's error).
func slowRead(d time.Duration, ended chan<- error) func(context.Context) error {
	return func(ctx context.Context) error {
		select {
		case <-time.After(d):
			ended <- nil
			return nil
		case <-ctx.Done():
			ended <- ctx.Err()
			return ctx.Err()
		}
	}
}

func TestResourcePromptTimeout(t *testing.T) {
	for _, tc := range []struct {
		name    string
		timeout time.Duration
		runs    time.Duration
		method  string
		params  map[string]any
		wantErr string // "" for a result
		ctxErr  error
	}{
		{"resource", 40 * time.Millisecond, time.Minute, "resources/read", map[string]any{"uri": "test://slow"},
			`Internal error: resources/read of "test://slow" timed out after 40ms`, context.DeadlineExceeded},
		{"template", 30 * time.Millisecond, time.Minute, "resources/read", map[string]any{"uri": "test://slow/7"},
			`Internal error: resources/read of "test://slow/7" timed out after 30ms`, context.DeadlineExceeded},
		{"prompt", 50 * time.Millisecond, time.Minute, "prompts/get", map[string]any{"name": "slow"},
			`Internal error: prompts/get of "slow" timed out after 50ms`, context.DeadlineExceeded},
		{"resource in time", time.Minute, 10 * time.Millisecond, "resources/read", map[string]any{"uri": "test://slow"}, "", nil},
		{"template no bound", -1, 10 * time.Millisecond, "resources/read", map[string]any{"uri": "test://slow/7"}, "", nil},
		{"prompt no bound", 0, 10 * time.Millisecond, "prompts/get", map[string]any{"name": "slow"}, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := rttest.NewServer()
			ended := make(chan error, 1)
			run := slowRead(tc.runs, ended)
			read := func(ctx context.Context, req *rt.ResourceRequest) ([]rt.ResourceContents, error) {
				if err := run(ctx); err != nil {
					return nil, err
				}
				return []rt.ResourceContents{rt.TextContents("text/plain", "done")}, nil
			}
			srv.AddResource(rt.Resource{URI: "test://slow", Name: "slow", Handler: read, Timeout: tc.timeout})
			srv.AddResourceTemplate(rt.ResourceTemplate{URITemplate: "test://slow/{n}", Name: "slow", Handler: read, Timeout: tc.timeout})
			srv.AddPrompt(rt.Prompt{Name: "slow", Timeout: tc.timeout, Handler: func(ctx context.Context, req *rt.PromptRequest) (*rt.GetPromptResult, error) {
				if err := run(ctx); err != nil {
					return nil, err
				}
				return &rt.GetPromptResult{Messages: []rt.PromptMessage{rt.UserMessage("done")}}, nil
			}})
			c := start(t, srv)
			c.initialize("2025-11-25")
			resp := c.call(1, tc.method, tc.params)
			switch {
			case tc.wantErr == "" && (resp.Error != nil || !strings.Contains(string(resp.Result), `"done"`)):
				t.Errorf("answer %s, want a result saying done", resp.raw)
			case tc.wantErr != "" && (resp.Error == nil || resp.Error.Code != rt.CodeInternalError || resp.Error.Message != tc.wantErr):
				t.Errorf("answer %s, want error %d %q", resp.raw, rt.CodeInternalError, tc.wantErr)
			}
			select {
			case err := <-ended:
				if err != tc.ctxErr {
					t.Errorf("the handler's context ended with %v, want %v", err, tc.ctxErr)
				}
			case <-time.After(rttest.Timeout):
				t.Fatal("the handler did not end")
			}
			c.finish()
		})
	}
}

// A read whose handler ignores its context is answered at the deadline;
// the handler keeps its place in flight until it returns, and its late
// result is not sent.
func TestResourceTimeoutStubbornHandler(t *testing.T) {
	release := make(chan struct{})
	srv := rttest.NewServer(rt.WithMaxInFlight(1))
	srv.AddResource(rt.Resource{URI: "test://stubborn", Name: "stubborn", Timeout: 30 * time.Millisecond,
		Handler: func(ctx context.Context, req *rt.ResourceRequest) ([]rt.ResourceContents, error) {
			<-release
			return []rt.ResourceContents{rt.TextContents("text/plain", "late")}, nil
		}})
	var quickStarted atomic.Bool
	srv.AddResource(rt.Resource{URI: "test://quick", Name: "quick",
		Handler: func(ctx context.Context, req *rt.ResourceRequest) ([]rt.ResourceContents, error) {
			quickStarted.Store(true)
			return []rt.ResourceContents{rt.TextContents("text/plain", "quick")}, nil
		}})
	c := start(t, srv)
	c.initialize("2025-11-25")
	begin := time.Now()
	resp := c.call(1, "resources/read", map[string]any{"uri": "test://stubborn"})
	if want := `Internal error: resources/read of "test://stubborn" timed out after 30ms`; resp.Error == nil || resp.Error.Message != want {
		t.Fatalf("answer %s, want error %q", resp.raw, want)
	}
	if d := time.Since(begin); d > rttest.Timeout/2 {
		t.Errorf("answered after %v: the answer waited for the handler", d)
	}
	// The stubborn handler still holds the only place in flight.
	c.request(2, "resources/read", map[string]any{"uri": "test://quick"})
	time.Sleep(100 * time.Millisecond)
	if quickStarted.Load() {
		t.Fatal("a read started while the timed-out handler still held the only place in flight")
	}
	close(release)
	if resp := c.recvResponse("2"); resp.Error != nil || !strings.Contains(string(resp.Result), `"quick"`) {
		t.Errorf("read after the stubborn one: %s", resp.raw)
	}
	if rest := c.finish(); len(rest) != 0 {
		t.Errorf("messages after the answers (the late result must not be sent):\n%s", lines(rest))
	}
}
