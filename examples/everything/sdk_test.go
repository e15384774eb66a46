package main

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/mcphttp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestGoSDKClient drives the server with the official Go SDK client over
// Streamable HTTP: a tool whose event stream the server ends before the
// result (the client resumes it), logging, progress, sampling and
// elicitation answered by the client's handlers.
func TestGoSDKClient(t *testing.T) {
	ts := httptest.NewServer(mcphttp.Handler(newServer()))
	defer ts.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	logs := make(chan string, 8)
	progress := make(chan float64, 8)
	client := mcp.NewClient(&mcp.Implementation{Name: "sdk-test", Version: "0.0.1"}, &mcp.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			logs <- req.Params.Data.(string)
		},
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			progress <- req.Params.Progress
		},
		CreateMessageHandler: func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Role: "assistant", Model: "test", Content: &mcp.TextContent{Text: "sampled: " + req.Params.Messages[0].Content.(*mcp.TextContent).Text}}, nil
		},
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"username": "ada", "email": "ada@example.com"}}, nil
		},
	})
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL}, legacySession)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer cs.Close()
	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "debug"}); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"test_reconnection", nil, "Reconnection test completed successfully."},
		{"test_tool_with_logging", nil, "Tool with logging executed successfully"},
		{"test_tool_with_progress", nil, "Tool with progress executed successfully"},
		{"test_sampling", map[string]any{"prompt": "hi"}, "LLM response: sampled: hi"},
		{"test_elicitation", map[string]any{"message": "who?"}, `Elicitation result: action=accept, content={"email":"ada@example.com","username":"ada"}`},
		{"test_error_handling", nil, "This tool intentionally returns an error for testing"},
	} {
		params := &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args}
		if tc.tool == "test_tool_with_progress" {
			params.SetProgressToken("p1")
		}
		res, err := cs.CallTool(ctx, params)
		if err != nil {
			t.Errorf("%s: %v", tc.tool, err)
			continue
		}
		if len(res.Content) != 1 || !strings.HasPrefix(res.Content[0].(*mcp.TextContent).Text, tc.want) {
			t.Errorf("%s: %+v, want text %q", tc.tool, res.Content, tc.want)
		}
		if res.IsError != (tc.tool == "test_error_handling") {
			t.Errorf("%s: isError %v", tc.tool, res.IsError)
		}
	}
	for _, want := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
		if got := receive(t, logs); got != want {
			t.Errorf("log message %q, want %q", got, want)
		}
	}
	for _, want := range []float64{0, 50, 100} {
		if got := receive(t, progress); got != want {
			t.Errorf("progress %v, want %v", got, want)
		}
	}
}

// receive returns the next value of c, failing the test when none comes.
func receive[T any](t *testing.T, c <-chan T) T {
	t.Helper()
	select {
	case v := <-c:
		return v
	case <-time.After(10 * time.Second):
		t.Fatal("nothing received")
	}
	var zero T
	return zero
}
