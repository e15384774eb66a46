package main

import (
	"context"
	"encoding/json"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestPurgeConfirmGoSDK answers the PurgeConfirm form from the official Go
// SDK client, under revision 2025-11-25 (a request to the client) and
// under 2026-07-28 (an InputRequiredResult, which the SDK answers with its
// handler and retries): the client receives the schema derived from the
// struct, validates its answer against it, and the tool acts on the answer
// decoded by the generated code.
func TestPurgeConfirmGoSDK(t *testing.T) {
	bin := buildServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const wantSchema = `{"type":"object","properties":{"confirm":{"type":"boolean","title":"Delete them","description":"Delete the files for good"}},"required":["confirm"]}`
	for _, era := range []struct {
		name string
		opts *mcp.ClientSessionOptions
	}{{"2025-11-25", legacySession}, {"2026-07-28", nil}} {
		for _, tc := range []struct {
			name   string
			answer *mcp.ElicitResult
			text   string
			left   int
		}{
			{"confirmed", &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}, "deleted 2 of 2 files older than 7 days", 1},
			{"not confirmed", &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": false}}, `nothing deleted: the user chose "accept"`, 3},
			{"declined", &mcp.ElicitResult{Action: "decline"}, `nothing deleted: the user chose "decline"`, 3},
		} {
			t.Run(era.name+"/"+tc.name, func(t *testing.T) {
				root := folder(t)
				var mu sync.Mutex
				var schemas []string
				client := mcp.NewClient(&mcp.Implementation{Name: "form", Version: "0.0.1"}, &mcp.ClientOptions{
					ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
						b, _ := json.Marshal(req.Params.RequestedSchema)
						mu.Lock()
						schemas = append(schemas, string(b))
						mu.Unlock()
						return tc.answer, nil
					},
				})
				cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin, "-root", root)}, era.opts)
				if err != nil {
					t.Fatal(err)
				}
				defer cs.Close()
				if got := cs.InitializeResult().ProtocolVersion; got != era.name {
					t.Fatalf("revision %s, want %s", got, era.name)
				}
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "purge_old", Arguments: map[string]any{"days": 7}})
				if err != nil {
					t.Fatal(err)
				}
				if text := res.Content[0].(*mcp.TextContent).Text; text != tc.text || res.IsError {
					t.Errorf("purge_old = %q (isError %v), want %q", text, res.IsError, tc.text)
				}
				if left := remaining(root); len(left) != tc.left {
					t.Errorf("left %q, want %d files", left, tc.left)
				}
				mu.Lock()
				defer mu.Unlock()
				if len(schemas) != 1 {
					t.Fatalf("asked %d times, want once", len(schemas))
				}
				var got, want any
				json.Unmarshal([]byte(schemas[0]), &got)
				json.Unmarshal([]byte(wantSchema), &want)
				if gb, wb := mustMarshal(got), mustMarshal(want); gb != wb {
					t.Errorf("requested schema %s, want %s", gb, wb)
				}
			})
		}
	}
}

func mustMarshal(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
