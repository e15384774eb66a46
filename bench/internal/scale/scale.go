// Package scale writes the same large MCP server three ways — annotated for
// mcpgen, registered with the official Go SDK, registered with mcp-go — so
// that start-up, listing, calling and memory can be compared at the size of
// a real server. Each tool has 3 to 8 arguments drawn from strings, bounded
// integers, booleans, a string enum, a list of strings and a nested struct;
// the first argument, query, is the only required one.
package scale

import (
	"fmt"
	"strings"
)

// Kinds are the servers Source can write.
var Kinds = []string{"mcpgen", "gosdk", "mcpgo"}

// ToolName is the MCP name of tool i.
func ToolName(i int) string { return fmt.Sprintf("tool_%04d", i) }

// CallArgs are the arguments of a valid call of any tool, and Answer the
// text the tool answers them with.
const CallArgs = `{"query":"x"}`

// Answer is the text tool i answers CallArgs with.
func Answer(i int) string { return ToolName(i) + ": x" }

type field struct {
	goName, json, goType, doc string
	desc                      string // the description mcpgen makes of doc: the others' jsonschema tag
	mcpgenTag                 string // mcpgen's jsonschema tag: constraints
}

// fields returns the arguments of tool i.
func fields(i int) []field {
	pool := []field{
		{"Limit", "limit", "int", "Limit caps the number of results.", "Caps the number of results.", "minimum=1,maximum=1000"},
		{"Recursive", "recursive", "bool", "Recursive includes nested items.", "Includes nested items.", ""},
		{"Mode", "mode", "Mode", "Mode selects how thoroughly to search.", "Selects how thoroughly to search.", ""},
		{"Tags", "tags", "[]string", "Tags filter the results.", "Tags filter the results.", "maxItems=16"},
		{"Filter", "filter", "*Filter", "Filter narrows the search to a path.", "Narrows the search to a path.", ""},
		{"Owner", "owner", "string", "Owner is the user who owns the items.", "The user who owns the items.", "maxLength=64"},
		{"Offset", "offset", "int", "Offset skips that many results.", "Skips that many results.", "minimum=0"},
	}
	n := 2 + i%6 // with query: 3 to 8 arguments
	out := []field{{"Query", "query", "string", "Query is the text to look for.", "The text to look for.", "minLength=1"}}
	for j := range n {
		out = append(out, pool[(i+j)%len(pool)])
	}
	return out
}

// Source returns the main package of the server of the given kind with n
// tools.
func Source(kind string, n int) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("// Command %s is a synthetic MCP server of %d tools, for benchmarks.\npackage main\n\n", kind, n)
	switch kind {
	case "mcpgen":
		p("import (\n\t\"context\"\n\t\"log\"\n\n\t\"github.com/mcpgen/mcpgen/runtime\"\n)\n\n")
	case "gosdk":
		p("import (\n\t\"context\"\n\t\"log\"\n\n\t\"github.com/modelcontextprotocol/go-sdk/mcp\"\n)\n\n")
	case "mcpgo":
		p("import (\n\t\"context\"\n\t\"log\"\n\n\t\"github.com/mark3labs/mcp-go/mcp\"\n\t\"github.com/mark3labs/mcp-go/server\"\n)\n\n")
	default:
		panic("scale: unknown kind " + kind)
	}
	p("// Mode is how thoroughly to search.\ntype Mode string\n\n")
	p("// The modes.\nconst (\n\tModeFast Mode = \"fast\"\n\tModeFull Mode = \"full\"\n\tModeSafe Mode = \"safe\"\n)\n\n")
	p("// Filter narrows a search.\ntype Filter struct {\n")
	p("\t// Path is the folder to search.\n\tPath string `json:\"path\"%s`\n", tag(kind, "The folder to search.", "minLength=1"))
	p("\t// Depth is how deep to descend.\n\tDepth int `json:\"depth,omitempty\"%s`\n}\n\n", tag(kind, "How deep to descend.", "minimum=0,maximum=10"))
	for i := range n {
		p("// Args%04d are the arguments of %s.\ntype Args%04d struct {\n", i, ToolName(i), i)
		for k, f := range fields(i) {
			opt := ",omitempty"
			if k == 0 {
				opt = ""
			}
			p("\t// %s\n\t%s %s `json:\"%s%s\"%s`\n", f.doc, f.goName, f.goType, f.json, opt, tag(kind, f.desc, f.mcpgenTag))
		}
		p("}\n\n")
		switch kind {
		case "mcpgen":
			p("// Tool%04d searches the items of collection %d.\n//\n//mcp:tool name=%s readonly\n", i, i, ToolName(i))
			p("func Tool%04d(ctx context.Context, in Args%04d) (string, error) {\n\treturn %q + in.Query, nil\n}\n\n", i, i, ToolName(i)+": ")
		case "gosdk":
			p("func tool%04d(ctx context.Context, req *mcp.CallToolRequest, in Args%04d) (*mcp.CallToolResult, any, error) {\n", i, i)
			p("\treturn &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: %q + in.Query}}}, nil, nil\n}\n\n", ToolName(i)+": ")
		case "mcpgo":
			p("func tool%04d(ctx context.Context, req mcp.CallToolRequest, in Args%04d) (*mcp.CallToolResult, error) {\n", i, i)
			p("\treturn mcp.NewToolResultText(%q + in.Query), nil\n}\n\n", ToolName(i)+": ")
		}
	}
	switch kind {
	case "mcpgen":
		p("func main() {\n\ts := runtime.NewServer(\"scale\", \"1.0.0\")\n\tRegisterMCP(s)\n")
		p("\tif err := s.ServeStdio(context.Background()); err != nil {\n\t\tlog.Fatal(err)\n\t}\n}\n")
	case "gosdk":
		p("func main() {\n\ts := mcp.NewServer(&mcp.Implementation{Name: \"scale\", Version: \"1.0.0\"}, nil)\n")
		for i := range n {
			p("\tmcp.AddTool(s, &mcp.Tool{Name: %q, Description: \"Searches the items of collection %d.\", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, tool%04d)\n", ToolName(i), i, i)
		}
		p("\tif err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {\n\t\tlog.Fatal(err)\n\t}\n}\n")
	case "mcpgo":
		p("func main() {\n\ts := server.NewMCPServer(\"scale\", \"1.0.0\", server.WithToolCapabilities(false), server.WithInputSchemaValidation())\n")
		for i := range n {
			p("\ts.AddTool(mcp.NewTool(%q, mcp.WithDescription(\"Searches the items of collection %d.\"), mcp.WithInputSchema[Args%04d](), mcp.WithReadOnlyHintAnnotation(true)), mcp.NewTypedToolHandler(tool%04d))\n", ToolName(i), i, i, i)
		}
		p("\tif err := server.ServeStdio(s); err != nil {\n\t\tlog.Fatal(err)\n\t}\n}\n")
	}
	return b.String()
}

// tag is the schema tag of a field for kind: mcpgen takes constraints
// (and its descriptions from doc comments, without the leading Go name);
// the Go SDK and mcp-go infer their schemas with google/jsonschema-go,
// whose jsonschema tag is a description only, given as mcpgen makes it.
func tag(kind, desc, constraints string) string {
	if kind != "mcpgen" {
		return fmt.Sprintf(" jsonschema:%q", desc)
	}
	if constraints == "" {
		return ""
	}
	return fmt.Sprintf(" jsonschema:%q", constraints)
}
