package rttest

import (
	"context"

	rt "github.com/mcpgen/mcpgen/runtime"
)

// ProgressTool ("progress") sends a notification within its exchange, then
// answers.
var ProgressTool = Tool("progress", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
	err := rt.Progress(ctx, 1, 0, "working")
	if err != nil {
		return nil, err
	}
	return rt.TextResult("done"), nil
})

// NotifyTool ("notify") sends a notification outside any exchange, on the
// session's server stream.
var NotifyTool = Tool("notify", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
	if err := req.Session.Notify("notifications/tools/list_changed", nil); err != nil {
		return rt.ErrorResult(err.Error()), nil
	}
	return rt.TextResult("sent"), nil
})

// PanicTool ("panic") panics.
var PanicTool = Tool("panic", func(context.Context, *rt.ToolRequest) (*rt.CallToolResult, error) { panic("boom") })

// HTTPServer returns NewServer(opts...) with EchoTool, ProgressTool,
// NotifyTool and PanicTool, for the tests of an HTTP transport.
func HTTPServer(opts ...rt.Option) *rt.Server {
	srv := NewServer(opts...)
	srv.AddTool(EchoTool)
	srv.AddTool(ProgressTool)
	srv.AddTool(NotifyTool)
	srv.AddTool(PanicTool)
	return srv
}
