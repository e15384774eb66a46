package runtime_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	rt "github.com/mcpgen/mcpgen/runtime"
)

// serveLines sends each request line to the server in a session of its
// own (so that the answers print in order) and prints the answers.
func serveLines(srv *rt.Server, lines ...string) {
	const initialize = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"example","version":"0"}}}`
	for _, line := range lines {
		var out strings.Builder
		srv.Serve(context.Background(), strings.NewReader(initialize+"\n"+line+"\n"), &out)
		answers := strings.Split(strings.TrimSpace(out.String()), "\n")
		fmt.Println(answers[len(answers)-1])
	}
}

func ExampleServer_AddResourceTemplate() {
	srv := rt.NewServer("notes", "1.0.0", rt.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	srv.AddResourceTemplate(rt.ResourceTemplate{
		URITemplate: "notes://{id}",
		Name:        "note",
		MIMEType:    "text/markdown",
		Handler: func(ctx context.Context, req *rt.ResourceRequest) ([]rt.ResourceContents, error) {
			if req.Vars["id"] != "42" {
				return nil, rt.ErrResourceNotFound
			}
			return []rt.ResourceContents{{Text: "# The answer"}}, nil
		},
	})
	serveLines(srv,
		`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"notes://42"}}`,
		`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"notes://7"}}`)
	// Output:
	// {"jsonrpc":"2.0","id":1,"result":{"contents":[{"uri":"notes://42","mimeType":"text/markdown","text":"# The answer"}]}}
	// {"jsonrpc":"2.0","id":2,"error":{"code":-32002,"message":"Resource not found","data":{"uri":"notes://7"}}}
}

func ExampleServer_AddPrompt() {
	srv := rt.NewServer("notes", "1.0.0")
	srv.AddPrompt(rt.Prompt{
		Name:      "summarize",
		Arguments: []rt.PromptArgument{{Name: "style", Required: true, Complete: rt.EnumCompletion("brief", "detailed")}},
		Handler: func(ctx context.Context, req *rt.PromptRequest) (*rt.GetPromptResult, error) {
			return &rt.GetPromptResult{Messages: []rt.PromptMessage{
				{Role: "user", Content: rt.TextContent{Text: "Summarize, " + req.Arguments["style"] + "."}},
			}}, nil
		},
	})
	serveLines(srv,
		`{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"summarize","arguments":{"style":"brief"}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"summarize"},"argument":{"name":"style","value":"D"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":"summarize"}}`)
	// Output:
	// {"jsonrpc":"2.0","id":1,"result":{"messages":[{"role":"user","content":{"type":"text","text":"Summarize, brief."}}]}}
	// {"jsonrpc":"2.0","id":2,"result":{"completion":{"values":["detailed"],"total":1,"hasMore":false}}}
	// {"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Invalid params: style: required argument is missing"}}
}

func ExampleURITemplate() {
	t, err := rt.ParseURITemplate("file:///{+path}{?rev}")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	vars, ok := t.Match("file:///src/main.go?rev=3")
	fmt.Println(vars["path"], vars["rev"], ok)
	fmt.Println(t.Expand(map[string]string{"path": "a b/c.go"}))
	_, err = rt.ParseURITemplate("file:///{path")
	fmt.Println(err)
	// Output:
	// src/main.go 3 true
	// file:///a%20b/c.go
	// URI template "file:///{path", at offset 8: unclosed expression: '{' without '}'
}
