// Package gosdk is the benchmark's server written with the official MCP Go
// SDK, the way its documentation suggests: a typed handler registered with
// mcp.AddTool, the input schema inferred from the argument struct and the
// constraints added to it. Command stdio serves it over stdio; command http
// serves it over Streamable HTTP (mcp.NewStreamableHTTPHandler with its
// default options).
package gosdk

import (
	"context"
	"log"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/bench/internal/largetool"
	"github.com/mcpgen/mcpgen/bench/internal/searchtool"
)

// SearchArgs are the arguments of search_files.
type SearchArgs struct {
	Pattern   string `json:"pattern" jsonschema:"A glob."`
	Limit     int    `json:"limit,omitempty" jsonschema:"Caps the number of files reported."`
	Recursive bool   `json:"recursive,omitempty" jsonschema:"Descends into subdirectories."`
}

// SearchFiles finds files whose name matches a glob pattern.
func SearchFiles(ctx context.Context, req *mcp.CallToolRequest, in SearchArgs) (*mcp.CallToolResult, any, error) {
	text := searchtool.Result(in.Pattern, in.Limit, in.Recursive)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
}

// inputSchema is the schema inferred from SearchArgs with the constraints
// that struct tags cannot express in this SDK: limit's range and default,
// and no properties beyond the declared ones.
func inputSchema() *jsonschema.Schema {
	s, err := jsonschema.For[SearchArgs](nil)
	if err != nil {
		log.Fatal(err)
	}
	limit := s.Properties["limit"]
	limit.Minimum = jsonschema.Ptr(float64(searchtool.MinLimit))
	limit.Maximum = jsonschema.Ptr(float64(searchtool.MaxLimit))
	limit.Default = []byte("10")
	s.Required = []string{"pattern"}
	s.AdditionalProperties = &jsonschema.Schema{Not: &jsonschema.Schema{}}
	return s
}

// MeasureArgs are the arguments of measure_text.
type MeasureArgs struct {
	Text string `json:"text" jsonschema:"The text to measure."`
}

// MakeArgs are the arguments of make_text.
type MakeArgs struct {
	Size int `json:"size" jsonschema:"The length of the text in bytes."`
}

// ItemsArgs are the arguments of list_items.
type ItemsArgs struct {
	Count int `json:"count" jsonschema:"The number of items."`
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// addLargeTools registers the tools of the large-message benchmarks.
func addLargeTools(s *mcp.Server) {
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true}
	mcp.AddTool(s, &mcp.Tool{Name: largetool.MeasureName, Description: largetool.MeasureDescription, Annotations: ro},
		func(ctx context.Context, req *mcp.CallToolRequest, in MeasureArgs) (*mcp.CallToolResult, any, error) {
			return text(largetool.Measure(in.Text)), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: largetool.MakeName, Description: largetool.MakeDescription, Annotations: ro},
		func(ctx context.Context, req *mcp.CallToolRequest, in MakeArgs) (*mcp.CallToolResult, any, error) {
			return text(largetool.Make(in.Size)), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: largetool.ItemsName, Description: largetool.ItemsDescription, Annotations: ro},
		func(ctx context.Context, req *mcp.CallToolRequest, in ItemsArgs) (*mcp.CallToolResult, largetool.Items, error) {
			return nil, largetool.List(in.Count), nil
		})
}

// NewServer returns the server with its tools registered.
func NewServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "bench-gosdk", Version: "0.0.1"}, nil)
	mcp.AddTool(s, &mcp.Tool{
		Name:        searchtool.Name,
		Description: searchtool.Description,
		InputSchema: inputSchema(),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, SearchFiles)
	addLargeTools(s)
	return s
}
