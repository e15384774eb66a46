package mcphttp_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
)

// TestHTTPClientGone: a client that goes away in the middle of a call
// cancels it when the answer can no longer reach it, and not when it can
// resume the call's event stream.
func TestHTTPClientGone(t *testing.T) {
	for _, tc := range []struct {
		name string
		// talk: the handler sends a message on the call's event stream
		// before it waits, which makes the answer resumable.
		talk bool
		// after the client went away: "" waits, "delete" ends the session.
		after      string
		batch      bool // the call is in a JSON-RPC batch (revision 2025-03-26)
		wantCancel bool
	}{
		{name: "JSON answer", wantCancel: true},
		{name: "JSON answer to a batch", batch: true, wantCancel: true},
		{name: "resumable event stream", talk: true},
		{name: "resumable event stream, session ended", talk: true, after: "delete", wantCancel: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gate := make(chan struct{})
			started := make(chan struct{})
			ended := make(chan error, 1)
			srv := rttest.NewServer()
			srv.AddTool(rttest.Tool("wait", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
				if tc.talk {
					rt.Progress(ctx, 1, 0, "started")
				}
				close(started)
				select {
				case <-gate:
					ended <- nil
					return rt.TextResult("finished"), nil
				case <-ctx.Done():
					ended <- ctx.Err()
					return nil, ctx.Err()
				}
			}))
			c := rttest.NewHTTPClient(t, mcphttp.Handler(srv))
			rev := "2025-11-25"
			if tc.batch {
				rev = "2025-03-26"
			}
			c.Initialize(rev)

			ctx, goAway := context.WithCancel(context.Background())
			call := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"wait","_meta":{"progressToken":"p"}}}`
			c.Tracker.Client([]byte(call))
			if tc.batch {
				call = "[" + call + "]"
			}
			req, _ := http.NewRequestWithContext(ctx, "POST", c.URL, strings.NewReader(call))
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Mcp-Session-Id", c.Session)
			req.Header.Set("Mcp-Protocol-Version", rev)
			respc := make(chan *http.Response, 1)
			go func() {
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					respc <- nil
					return
				}
				respc <- resp
			}()
			var lastID string
			if tc.talk {
				resp := <-respc
				if resp == nil {
					t.Fatal("the POST failed")
				}
				events := readEvents(resp.Body)
				nextEvent(t, events) // priming
				started := nextEvent(t, events)
				if !strings.Contains(started.data, "started") {
					t.Fatalf("first event %+v", started)
				}
				lastID = started.id
			} else {
				select {
				case <-started:
				case <-time.After(10 * time.Second):
					t.Fatal("the call did not start")
				}
			}
			goAway()
			switch tc.after {
			case "delete":
				time.Sleep(50 * time.Millisecond)
				c.Do("DELETE", "")
			}
			// A cancellation must come (a busy machine may take a while);
			// a call that must go on is watched for a while before it is
			// let finish.
			wait := 300 * time.Millisecond
			if tc.wantCancel {
				wait = 10 * time.Second
			}
			select {
			case err := <-ended:
				if !tc.wantCancel {
					t.Fatalf("the call ended (%v) when its client went away, though it can resume", err)
				}
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("the call's context ended with %v, want context.Canceled", err)
				}
				if tc.after == "" {
					c.Post(rttest.ListBody, 200) // the session lives on
				}
				return
			case <-time.After(wait):
				if tc.wantCancel {
					t.Fatal("the call was not cancelled when its answer could no longer be delivered")
				}
			}
			// The call goes on; its answer waits for the client to resume.
			close(gate)
			if err := <-ended; err != nil {
				t.Fatalf("call ended with %v", err)
			}
			get, _ := http.NewRequest("GET", c.URL, nil)
			get.Header.Set("Accept", "text/event-stream")
			get.Header.Set("Mcp-Session-Id", c.Session)
			get.Header.Set("Last-Event-ID", lastID)
			resp, err := http.DefaultClient.Do(get)
			if err != nil || resp.StatusCode != 200 {
				t.Fatalf("GET with Last-Event-ID: %v %v", resp, err)
			}
			answer := nextEvent(t, readEvents(resp.Body))
			if !strings.Contains(answer.data, `"finished"`) || !strings.Contains(answer.data, `"id":7`) {
				t.Fatalf("resumed answer %+v", answer)
			}
			c.Validate([]byte(answer.data))
		})
	}
}
