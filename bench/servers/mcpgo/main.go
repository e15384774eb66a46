// Command mcpgo serves search_files over stdio with mcp-go: a typed handler,
// the constraints declared on the tool's properties, and the server's own
// input validation switched on so that it enforces them.
package main

import (
	"context"
	"log"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

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

func newServer() *server.MCPServer {
	s := server.NewMCPServer("bench-mcpgo", "0.0.1",
		server.WithToolCapabilities(false),
		server.WithInputSchemaValidation(),
		server.WithStrictInputSchemaDefault(),
	)
	tool := mcp.NewTool(searchtool.Name,
		mcp.WithDescription(searchtool.Description),
		mcp.WithString("pattern", mcp.Required(), mcp.Description("Pattern is a glob.")),
		mcp.WithInteger("limit", mcp.Min(searchtool.MinLimit), mcp.Max(searchtool.MaxLimit), mcp.DefaultNumber(searchtool.DefaultLimit)),
		mcp.WithBoolean("recursive"),
		mcp.WithReadOnlyHintAnnotation(true),
	)
	s.AddTool(tool, mcp.NewTypedToolHandler(SearchFiles))
	return s
}

func main() {
	if err := server.ServeStdio(newServer()); err != nil {
		log.Fatal(err)
	}
}
