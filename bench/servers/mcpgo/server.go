// Package mcpgo is the benchmark's server written with mcp-go: a typed
// handler, the constraints declared on the tool's properties, and the
// server's own input validation switched on so that it enforces them.
// Command stdio serves it over stdio; command http serves it over
// Streamable HTTP (server.NewStreamableHTTPServer).
package mcpgo

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpgen/mcpgen/bench/internal/largetool"
	"github.com/mcpgen/mcpgen/bench/internal/searchtool"
)

// SearchArgs are the arguments of search_files.
type SearchArgs struct {
	Pattern   string `json:"pattern"`
	Limit     int    `json:"limit,omitempty"`
	Recursive bool   `json:"recursive,omitempty"`
}

// SearchFiles finds files whose name matches a glob pattern.
func SearchFiles(ctx context.Context, req mcp.CallToolRequest, in SearchArgs) (*mcp.CallToolResult, error) {
	if in.Limit == 0 { // the library validates against the schema but does not apply its defaults
		in.Limit = searchtool.DefaultLimit
	}
	return mcp.NewToolResultText(searchtool.Result(in.Pattern, in.Limit, in.Recursive)), nil
}

// NewServer returns the server with its tools registered.
func NewServer() *server.MCPServer {
	s := server.NewMCPServer("bench-mcpgo", "0.0.1",
		server.WithToolCapabilities(false),
		server.WithInputSchemaValidation(),
		server.WithStrictInputSchemaDefault(),
	)
	tool := mcp.NewTool(searchtool.Name,
		mcp.WithDescription(searchtool.Description),
		mcp.WithString("pattern", mcp.Required(), mcp.Description("A glob.")),
		mcp.WithInteger("limit", mcp.Min(searchtool.MinLimit), mcp.Max(searchtool.MaxLimit), mcp.DefaultNumber(searchtool.DefaultLimit)),
		mcp.WithBoolean("recursive"),
		mcp.WithReadOnlyHintAnnotation(true),
	)
	s.AddTool(tool, mcp.NewTypedToolHandler(SearchFiles))
	addLargeTools(s)
	return s
}

// MeasureArgs are the arguments of measure_text.
type MeasureArgs struct {
	Text string `json:"text"`
}

// MakeArgs are the arguments of make_text.
type MakeArgs struct {
	Size int `json:"size"`
}

// ItemsArgs are the arguments of list_items.
type ItemsArgs struct {
	Count int `json:"count"`
}

// addLargeTools registers the tools of the large-message benchmarks.
func addLargeTools(s *server.MCPServer) {
	s.AddTool(mcp.NewTool(largetool.MeasureName,
		mcp.WithDescription(largetool.MeasureDescription),
		mcp.WithString("text", mcp.Required(), mcp.Description("The text to measure.")),
		mcp.WithReadOnlyHintAnnotation(true),
	), mcp.NewTypedToolHandler(func(ctx context.Context, req mcp.CallToolRequest, in MeasureArgs) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(largetool.Measure(in.Text)), nil
	}))
	s.AddTool(mcp.NewTool(largetool.MakeName,
		mcp.WithDescription(largetool.MakeDescription),
		mcp.WithInteger("size", mcp.Required(), mcp.Min(0), mcp.Max(largetool.MaxSize), mcp.Description("The length of the text in bytes.")),
		mcp.WithReadOnlyHintAnnotation(true),
	), mcp.NewTypedToolHandler(func(ctx context.Context, req mcp.CallToolRequest, in MakeArgs) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(largetool.Make(in.Size)), nil
	}))
	s.AddTool(mcp.NewTool(largetool.ItemsName,
		mcp.WithDescription(largetool.ItemsDescription),
		mcp.WithInteger("count", mcp.Required(), mcp.Min(0), mcp.Max(largetool.MaxCount), mcp.Description("The number of items.")),
		mcp.WithOutputSchema[largetool.Items](),
		mcp.WithReadOnlyHintAnnotation(true),
	), mcp.NewStructuredToolHandler(func(ctx context.Context, req mcp.CallToolRequest, in ItemsArgs) (largetool.Items, error) {
		return largetool.List(in.Count), nil
	}))
}
