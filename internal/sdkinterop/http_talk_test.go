package sdkinterop

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/internal/mcpschema"
	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
)

// talkServer serves the tools of TestGoSDKHTTPRootsCancelListChanged:
// roots lists the client's roots; slow says on started when it runs and
// waits for its context to end, sending what ended it on ended.
func talkServer(started chan<- struct{}, ended chan<- error) *rt.Server {
	srv := rt.NewServer("talk", "1.0.0", rt.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	obj := json.RawMessage(`{"type":"object"}`)
	srv.AddTool(rt.Tool{Name: "roots", Description: "Lists the client's roots.", InputSchema: obj,
		Handler: func(ctx context.Context, _ *rt.ToolRequest) (*rt.CallToolResult, error) {
			roots, err := rt.Roots(ctx)
			if err != nil {
				return nil, err
			}
			b, _ := json.Marshal(roots)
			return rt.TextResult(string(b)), nil
		}})
	srv.AddTool(rt.Tool{Name: "slow", Description: "Waits until cancelled.", InputSchema: obj,
		Handler: func(ctx context.Context, _ *rt.ToolRequest) (*rt.CallToolResult, error) {
			started <- struct{}{}
			select {
			case <-ctx.Done():
				ended <- ctx.Err()
				return nil, ctx.Err()
			case <-time.After(30 * time.Second):
				ended <- nil
				return rt.TextResult("slept"), nil
			}
		}})
	return srv
}

// TestGoSDKHTTPRootsCancelListChanged drives a server over Streamable HTTP
// with the official Go SDK client, in a session of revision 2025-11-25 and
// at revision 2026-07-28: a tool lists the client's roots (roots/list on
// the request's stream, or an input request of an InputRequiredResult),
// and sees a change the client makes; cancelling the client's context
// during a call cancels the handler's context; a tool added while serving
// reaches the client's ToolListChangedHandler (on the session's stream, or
// on subscriptions/listen) and the next tools/list. Every message the
// server writes is validated against the schema of its revision.
func TestGoSDKHTTPRootsCancelListChanged(t *testing.T) {
	for _, rev := range []string{"2025-11-25", mcpschema.Stateless} {
		t.Run(rev, func(t *testing.T) {
			mcpschema.Require(t, rev)
			started := make(chan struct{}, 1)
			ended := make(chan error, 1)
			srv := talkServer(started, ended)
			rec := newHTTPRecorder()
			ts := httptest.NewServer(rec.wrap(mcphttp.Handler(srv)))
			defer ts.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()

			changed := make(chan struct{}, 4)
			client := mcp.NewClient(&mcp.Implementation{Name: "sdk", Version: "1.8.0"}, &mcp.ClientOptions{
				ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
			})
			client.AddRoots(&mcp.Root{URI: "file:///srv/data", Name: "data"})
			var opts *mcp.ClientSessionOptions
			if rev != mcpschema.Stateless {
				opts = legacySession
			}
			cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL}, opts)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			if got := cs.InitializeResult().ProtocolVersion; got != rev {
				t.Fatalf("the SDK chose revision %q, want %s", got, rev)
			}
			call := func(name string) string {
				t.Helper()
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: map[string]any{}})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if res.IsError {
					t.Fatalf("%s: isError: %v", name, res.Content)
				}
				return res.Content[0].(*mcp.TextContent).Text
			}

			// Roots: asked once while the client announces no change (in a
			// session), asked again after the client's
			// notifications/roots/list_changed.
			want := `[{"uri":"file:///srv/data","name":"data"}]`
			for range 2 {
				if got := call("roots"); got != want {
					t.Errorf("roots = %s, want %s", got, want)
				}
			}
			client.AddRoots(&mcp.Root{URI: "file:///srv/more"})
			want = `[{"uri":"file:///srv/data","name":"data"},{"uri":"file:///srv/more"}]`
			if got := call("roots"); got != want {
				t.Errorf("roots after the client added one = %s, want %s", got, want)
			}
			if rev == mcpschema.Stateless {
				// Each request carries its own answer: three calls, three
				// input requests, and no request on a stream of the server.
				if n := rec.count(true, "input:roots/list"); n != 3 {
					t.Errorf("%d roots/list input requests, want 3", n)
				}
				if n := rec.count(true, "roots/list"); n != 0 {
					t.Errorf("%d roots/list requests, want none in revision %s", n, rev)
				}
			} else {
				if n := rec.count(false, "notifications/roots/list_changed"); n != 1 {
					t.Errorf("the client sent %d notifications/roots/list_changed, want 1", n)
				}
				if n := rec.count(true, "roots/list"); n != 2 {
					t.Errorf("%d roots/list requests, want 2: one before the change, one after", n)
				}
			}

			// Cancellation: the client gives up on a call; the handler's
			// context ends.
			callCtx, callCancel := context.WithCancel(ctx)
			done := make(chan error, 1)
			go func() {
				_, err := cs.CallTool(callCtx, &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{}})
				done <- err
			}()
			select {
			case <-started:
			case <-time.After(10 * time.Second):
				t.Fatal("the slow tool did not start")
			}
			callCancel()
			if err := <-done; !errors.Is(err, context.Canceled) {
				t.Errorf("the cancelled call returned %v, want context.Canceled", err)
			}
			select {
			case err := <-ended:
				if !errors.Is(err, context.Canceled) {
					t.Errorf("the handler's context ended with %v, want context.Canceled", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the handler's context was not cancelled")
			}
			if rev != mcpschema.Stateless {
				// The client also says so with notifications/cancelled;
				// the server may have cancelled the call first, when its
				// POST, which had no resumable stream, was closed.
				rec.waitFor(t, "the client's notifications/cancelled", func() bool {
					return rec.client["notifications/cancelled"] == 1
				})
			}

			// List changes: once the client listens, a tool added while
			// serving is announced and listed.
			rec.waitFor(t, "the client to listen for changes", func() bool {
				if rev == mcpschema.Stateless {
					return rec.client["subscriptions/listen"] > 0
				}
				return rec.streams > 0
			})
			srv.AddTool(rt.Tool{Name: "extra", Description: "Added while serving.", InputSchema: json.RawMessage(`{"type":"object"}`),
				Handler: func(context.Context, *rt.ToolRequest) (*rt.CallToolResult, error) { return rt.TextResult("extra"), nil }})
			select {
			case <-changed:
			case <-time.After(10 * time.Second):
				t.Fatal("no notifications/tools/list_changed reached the client")
			}
			if n := rec.count(true, "notifications/tools/list_changed"); n != 1 {
				t.Errorf("the server sent %d notifications/tools/list_changed, want 1", n)
			}
			tools, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tl := range tools.Tools {
				names = append(names, tl.Name)
			}
			if !slices.Contains(names, "extra") {
				t.Errorf("tools/list after the change = %v, want extra among them", names)
			}
			if got := call("extra"); got != "extra" {
				t.Errorf("extra = %q", got)
			}
			if err := cs.Close(); err != nil && !strings.Contains(err.Error(), "closed") {
				t.Errorf("close: %v", err)
			}
			rec.check(t, rev)
		})
	}
}
