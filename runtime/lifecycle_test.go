package runtime_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/mcpgen/mcpgen/internal/mcpschema"
	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
)

func TestSupportedVersions(t *testing.T) {
	got := rt.SupportedVersions()
	want := append(slices.Clone(mcpschema.Revisions), mcpschema.Stateless)
	if !slices.Equal(got, want) {
		t.Fatalf("SupportedVersions() = %q, want %q", got, want)
	}
	got[0] = "changed"
	if rt.SupportedVersions()[0] != mcpschema.Revisions[0] {
		t.Error("SupportedVersions returns the runtime's own slice")
	}
}

// whoamiTool reports what the handler sees of its request and session.
var whoamiTool = rttest.Tool("whoami", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
	s := req.Session
	name, version := s.ClientInfo()
	return rt.TextResult(fmt.Sprintf("tool=%s rev=%s client=%s/%s ctx=%v", req.Name, s.ProtocolVersion(), name, version, rt.SessionFromContext(ctx) == s)), nil
})

func TestInitialize(t *testing.T) {
	const info = `"serverInfo":{"name":"test","version":"1.0.0"}`
	const infoTitle = `"serverInfo":{"name":"test","version":"1.0.0","title":"Test Server"}`
	for _, tc := range []struct {
		name   string
		ask    string // protocolVersion requested
		opts   []rt.Option
		noTool bool
		want   string // the whole result
	}{
		{name: "2024-11-05", ask: "2024-11-05", want: `{"protocolVersion":"2024-11-05","capabilities":{"logging":{},"tools":{"listChanged":true}},` + info + `}`},
		{name: "2025-03-26", ask: "2025-03-26", want: `{"protocolVersion":"2025-03-26","capabilities":{"logging":{},"tools":{"listChanged":true}},` + info + `}`},
		{name: "2025-06-18", ask: "2025-06-18", want: `{"protocolVersion":"2025-06-18","capabilities":{"logging":{},"tools":{"listChanged":true}},` + info + `}`},
		{name: "2025-11-25", ask: "2025-11-25", want: `{"protocolVersion":"2025-11-25","capabilities":{"logging":{},"tools":{"listChanged":true}},` + info + `}`},
		{name: "unknown revision gets the latest", ask: "2099-01-01", want: `{"protocolVersion":"2025-11-25","capabilities":{"logging":{},"tools":{"listChanged":true}},` + info + `}`},
		{name: "empty revision gets the latest", ask: "", want: `{"protocolVersion":"2025-11-25","capabilities":{"logging":{},"tools":{"listChanged":true}},` + info + `}`},
		{name: "no tools, no tools capability", ask: "2025-06-18", noTool: true, want: `{"protocolVersion":"2025-06-18","capabilities":{"logging":{}},` + info + `}`},
		{name: "instructions", ask: "2024-11-05", opts: []rt.Option{rt.WithInstructions("Use echo.\nThen stop.")},
			want: `{"protocolVersion":"2024-11-05","capabilities":{"logging":{},"tools":{"listChanged":true}},` + info + `,"instructions":"Use echo.\nThen stop."}`},
		{name: "title hidden from 2024-11-05", ask: "2024-11-05", opts: []rt.Option{rt.WithTitle("Test Server")},
			want: `{"protocolVersion":"2024-11-05","capabilities":{"logging":{},"tools":{"listChanged":true}},` + info + `}`},
		{name: "title hidden from 2025-03-26", ask: "2025-03-26", opts: []rt.Option{rt.WithTitle("Test Server")},
			want: `{"protocolVersion":"2025-03-26","capabilities":{"logging":{},"tools":{"listChanged":true}},` + info + `}`},
		{name: "title for 2025-06-18", ask: "2025-06-18", opts: []rt.Option{rt.WithTitle("Test Server")},
			want: `{"protocolVersion":"2025-06-18","capabilities":{"logging":{},"tools":{"listChanged":true}},` + infoTitle + `}`},
		{name: "title for 2025-11-25", ask: "2025-11-25", opts: []rt.Option{rt.WithTitle("Test Server"), rt.WithInstructions("x")},
			want: `{"protocolVersion":"2025-11-25","capabilities":{"logging":{},"tools":{"listChanged":true}},` + infoTitle + `,"instructions":"x"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := rttest.NewServer(tc.opts...)
			if !tc.noTool {
				srv.AddTool(whoamiTool)
			}
			c := start(t, srv)
			jsonEqual(t, "initialize result", c.initialize(tc.ask), tc.want)
			want := tc.ask
			if !slices.Contains(mcpschema.Revisions, want) {
				want = mcpschema.Latest
			}
			if got := c.tr.Revision(); got != want {
				t.Errorf("negotiated %q, want %q", got, want)
			}
			if tc.noTool {
				wantError(t, c.call(1, "tools/list", nil), rt.CodeMethodNotFound, "Method not found: tools/list",
					`{"supported":["initialize","ping","logging/setLevel","tools/list","tools/call"]}`)
				return
			}
			text, isErr := toolText(t, c.toolCall(1, "whoami", nil))
			if who := "tool=whoami rev=" + want + " client=tester/0.1 ctx=true"; text != who || isErr {
				t.Errorf("whoami = %q (isError %v), want %q", text, isErr, who)
			}
		})
	}
}

func TestInitializeInvalidParams(t *testing.T) {
	for _, tc := range []struct {
		name, line, message string
	}{
		{"missing protocolVersion", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{"logging":{}},"clientInfo":{"name":"c","version":"1"}}}`,
			"Invalid params: params.protocolVersion is required"},
		{"no params", `{"jsonrpc":"2.0","id":1,"method":"initialize"}`,
			"Invalid params: params.protocolVersion is required"},
		{"null params", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":null}`,
			"Invalid params: params.protocolVersion is required"},
		{"protocolVersion a number", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":20250618}}`,
			"Invalid params: protocolVersion: must be a string, got 20250618"},
		{"params an array", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":["2025-06-18"]}`,
			"Invalid params: params: must be an object, got an array"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := rttest.NewServer()
			srv.AddTool(whoamiTool)
			c := start(t, srv)
			c.send(tc.line)
			wantError(t, c.recvResponse("1"), rt.CodeInvalidParams, tc.message, "")
			// The session is still not initialized, and can be.
			wantError(t, c.call(2, "tools/list", nil), rt.CodeInvalidRequest,
				"Invalid Request: the session is not initialized; send initialize first", "")
			c.initialize("2025-06-18")
			if c.tr.Revision() != "2025-06-18" {
				t.Errorf("negotiated %q after a failed initialize", c.tr.Revision())
			}
		})
	}
}

func TestSecondInitialize(t *testing.T) {
	srv := rttest.NewServer()
	srv.AddTool(whoamiTool)
	c := start(t, srv)
	c.initialize("2025-03-26")
	r := c.call(5, "initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "other", "version": "2"}})
	wantError(t, r, rt.CodeInvalidRequest, "Invalid Request: the session is already initialized", "")
	text, _ := toolText(t, c.toolCall(6, "whoami", nil))
	if want := "tool=whoami rev=2025-03-26 client=tester/0.1 ctx=true"; text != want {
		t.Errorf("after a second initialize: %q, want %q", text, want)
	}
}

func TestBeforeInitialize(t *testing.T) {
	srv := rttest.NewServer()
	srv.AddTool(rttest.EchoTool)
	c := start(t, srv)
	const notInit = "Invalid Request: the session is not initialized; send initialize first"
	jsonEqual(t, "ping result", c.result(1, "ping", nil), `{}`)
	jsonEqual(t, "ping result", c.result("p", "ping", map[string]any{}), `{}`)
	for i, method := range []string{"tools/list", "tools/call"} {
		wantError(t, c.call(10+i, method, map[string]any{"name": "echo"}), rt.CodeInvalidRequest, notInit, "")
	}
	// A method the server does not have is not found, initialized or not.
	wantError(t, c.call(12, "resources/list", nil), rt.CodeMethodNotFound, "Method not found: resources/list", supported)
	// Notifications before initialize are not answered either.
	c.notify("notifications/initialized", nil)
	c.notify("notifications/whatever", nil)
	jsonEqual(t, "ping result", c.result(2, "ping", nil), `{}`)
	c.initialize("2025-11-25")
	jsonEqual(t, "ping result", c.result(3, "ping", nil), `{}`)
}
