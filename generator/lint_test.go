package generator_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generator"
)

// diagCase is one package and every diagnostic it must give, each as
// "tools.go:line:col: message".
type diagCase struct {
	name string
	src  string
	want []string
}

// loadCases writes each case as a package of one module, loads them all at
// once and returns the diagnostics of each, by case name: the warnings, or
// the errors when the packages have errors.
func loadCases(t *testing.T, cases []diagCase) (map[string][]string, error) {
	t.Helper()
	mod := generator.TestModule(t, "lint", nil)
	for _, c := range cases {
		generator.WriteTestFile(t, filepath.Join(mod, c.name, "tools.go"), c.src)
	}
	got := map[string][]string{}
	var ws generator.Diagnostics
	_, err := generator.Load(generator.Config{Dir: mod, Patterns: []string{"./..."}, Warn: func(d generator.Diagnostic) { ws = append(ws, d) }})
	if diags, ok := err.(generator.Diagnostics); ok {
		ws, err = diags, nil
	}
	for _, d := range ws.Relative(mod) {
		dir, file, _ := strings.Cut(d.String(), "/")
		got[dir] = append(got[dir], file)
	}
	return got, err
}

func checkCases(t *testing.T, cases []diagCase, got map[string][]string) {
	t.Helper()
	for _, c := range cases {
		if !slices.Equal(got[c.name], c.want) {
			t.Errorf("%s: got\n\t%s\nwant\n\t%s", c.name, strings.Join(got[c.name], "\n\t"), strings.Join(c.want, "\n\t"))
		}
	}
}

const lintArgs = `
// Args are the arguments.
type Args struct {
	// Name is who.
	Name string ` + "`json:\"name\"`" + `
}
`

// TestWarnings lists every warning the generator gives about source code,
// each with its position and fix, and a package that gives none.
func TestWarnings(t *testing.T) {
	long := strings.Repeat("x", 1025)
	cases := []diagCase{{
		name: "clean",
		src:  "package clean\n" + lintArgs + "\n// Greet greets.\n//\n//mcp:tool\nfunc Greet(in Args) error { return nil }\n",
	}, {
		name: "spacedirective",
		src:  "package spacedirective\n\n// Greet greets.\n//\n// mcp:tool readonly\nfunc Greet() error { return nil }\n",
		want: []string{`tools.go:5:1: "// mcp:tool" is not a directive and is ignored: write //mcp:tool, with no space after // or the colon`},
	}, {
		name: "spacecolon",
		src:  "package spacecolon\n\n// Greet greets.\n//\n// mcp: tool\nfunc Greet() error { return nil }\n",
		want: []string{`tools.go:5:1: "// mcp: tool" is not a directive and is ignored: write //mcp:tool, with no space after // or the colon`},
	}, {
		name: "nodescription",
		src:  "package nodescription\n\ntype Args struct {\n\tName string `json:\"name\"`\n}\n\n//mcp:tool\nfunc Bare(in Args) error { return nil }\n",
		want: []string{
			`tools.go:4:2: argument "name" of tool "bare" has no description: add a doc or line comment to field Name, or a jsonschema:"description=…" tag`,
			`tools.go:8:6: tool "bare" has no description, and models choose tools by it: add a doc comment to Bare, or description=… to its //mcp:tool line`,
		},
	}, {
		name: "nested",
		src:  "package nested\n\n// Args are the arguments.\ntype Args struct {\n\t// Filter narrows.\n\tFilter Filter `json:\"filter\"`\n}\n\n// Filter is a filter.\ntype Filter struct {\n\tKind string `json:\"kind\"`\n}\n\n// Find finds.\n//\n//mcp:tool\nfunc Find(in Args) error { return nil }\n",
		want: []string{`tools.go:11:2: argument "filter.kind" of tool "find" has no description: add a doc or line comment to field Kind, or a jsonschema:"description=…" tag`},
	}, {
		// Fields of another module's types are not the user's to describe.
		name: "foreign",
		src:  "package foreign\n\nimport \"image\"\n\n// Args are the arguments.\ntype Args struct {\n\t// At is where.\n\tAt image.Point `json:\"at\"`\n}\n\n// Find finds.\n//\n//mcp:tool\nfunc Find(in Args) error { return nil }\n",
	}, {
		// A model takes a duration for seconds unless its description
		// speaks of nanoseconds.
		name: "duration",
		src:  "package duration\n\nimport \"time\"\n\n// Args are the arguments.\ntype Args struct {\n\t// Wait is how long to wait.\n\tWait time.Duration `json:\"wait\"`\n\t// Waits are pauses, in nanoseconds.\n\tWaits []time.Duration `json:\"waits\"`\n\t// Max is the longest wait.\n\tMax *time.Duration `json:\"max\"`\n}\n\n// Sleep sleeps.\n//\n//mcp:tool\nfunc Sleep(in Args) error { return nil }\n",
		want: []string{
			`tools.go:8:2: argument "wait" of tool "sleep" is a time.Duration, an integer of nanoseconds in JSON (1s is 1000000000), and its description does not say so, so a model may send seconds: say "in nanoseconds" in the comment of field Wait, or take a string and parse it with time.ParseDuration`,
			`tools.go:12:2: argument "max" of tool "sleep" is a time.Duration, an integer of nanoseconds in JSON (1s is 1000000000), and its description does not say so, so a model may send seconds: say "in nanoseconds" in the comment of field Max, or take a string and parse it with time.ParseDuration`,
		},
	}, {
		// A required field never takes its default.
		name: "requireddefault",
		src:  "package requireddefault\n\n// Args are the arguments.\ntype Args struct {\n\t// Limit caps the results.\n\tLimit int `json:\"limit\" jsonschema:\"default=10\"`\n\t// Page is the page.\n\tPage int `json:\"page,omitempty\" jsonschema:\"default=1\"`\n}\n\n// Find finds.\n//\n//mcp:tool\nfunc Find(in Args) error { return nil }\n",
		want: []string{`tools.go:6:2: argument "limit" of tool "find" has a default but is required, so the default never applies: add omitempty to its json tag (or make it a pointer), or drop the default`},
	}, {
		name: "unexported",
		src:  "package unexported\n\n// Args are the arguments.\ntype Args struct {\n\t// Name is who.\n\tName string `json:\"name\"`\n\tlimit int `json:\"limit\"`\n\tskip int `json:\"-\"`\n\tplain int\n}\n\n// Find finds.\n//\n//mcp:tool\nfunc Find(in Args) error { _, _, _ = in.limit, in.skip, in.plain; return nil }\n",
		want: []string{`tools.go:7:2: field limit has a json tag but is unexported, so it is no argument of tool "find": export it (Limit)`},
	}, {
		name: "cursorname",
		src:  "package cursorname\n\n// Greet greets.\n//\n//mcp:tool name=" + strings.Repeat("a", 61) + "\nfunc Greet() error { return nil }\n",
		want: []string{`tools.go:6:6: tool name "` + strings.Repeat("a", 61) + `" has 61 characters: Cursor accepts at most 60, and clients that prefix the server's name (mcp__server__tool) fewer; shorten it with name=…`},
	}, {
		name: "claudename",
		src:  "package claudename\n\n// Greet greets.\n//\n//mcp:tool name=" + strings.Repeat("a", 65) + "\nfunc Greet() error { return nil }\n",
		want: []string{`tools.go:6:6: tool name "` + strings.Repeat("a", 65) + `" has 65 characters: Claude accepts at most 64, Cursor 60, and clients that prefix the server's name (mcp__server__tool) fewer; shorten it with name=…`},
	}, {
		// Claude Code names a tool mcp__server__tool: 5+6+2+52 = 65.
		name: "servername",
		src:  "package main\n\nimport \"github.com/mcpgen/mcpgen/runtime\"\n\nfunc main() { _ = runtime.NewServer(\"server\", \"1\") }\n\n// Greet greets.\n//\n//mcp:tool name=" + strings.Repeat("a", 52) + "\nfunc Greet() error { return nil }\n",
		want: []string{`tools.go:10:6: tool "` + strings.Repeat("a", 52) + `" of server "server": Claude Code calls it mcp__server__` + strings.Repeat("a", 52) + `, 65 characters, over Claude's 64; shorten the tool's name (name=…) or the server's`},
	}, {
		// mcp__server__ and 51 characters: 64, within the limit.
		name: "servernameok",
		src:  "package main\n\nimport \"github.com/mcpgen/mcpgen/runtime\"\n\nfunc main() { _ = runtime.NewServer(\"server\", \"1\") }\n\n// Greet greets.\n//\n//mcp:tool name=" + strings.Repeat("a", 51) + "\nfunc Greet() error { return nil }\n",
	}, {
		// A subscribe resource needs MCPOptions passed to NewServer.
		name: "nooptions",
		src:  "package main\n\nimport \"github.com/mcpgen/mcpgen/runtime\"\n\nfunc main() { _ = runtime.NewServer(\"s\", \"1\") }\n\n// Index lists.\n//\n//mcp:resource uri=notes://index subscribe\nfunc Index() (string, error) { return \"\", nil }\n",
		want: []string{`tools.go:5:19: runtime.NewServer is not given MCPOptions(), and a resource annotated subscribe needs them: without them clients cannot subscribe; pass them, as in runtime.NewServer(name, version, MCPOptions()...)`},
	}, {
		name: "options",
		src:  "package main\n\nimport \"github.com/mcpgen/mcpgen/runtime\"\n\nfunc main() { _ = runtime.NewServer(\"s\", \"1\", MCPOptions()...) }\n\n// Index lists.\n//\n//mcp:resource uri=notes://index subscribe\nfunc Index() (string, error) { return \"\", nil }\n",
	}, {
		name: "longdescription",
		src:  "package longdescription\n\n//mcp:tool description=" + long + "\nfunc Greet() error { return nil }\n",
		want: []string{`tools.go:4:6: the description of tool "greet" has 1025 characters; some clients and model APIs cut descriptions longer than 1024: shorten the doc comment, or set a shorter description=…`},
	}}
	got, err := loadCases(t, cases)
	if err != nil {
		t.Fatal(err)
	}
	checkCases(t, cases, got)
}

// TestSignatureErrors lists the errors about a tool function's shape and
// about directives mcpgen does not know: each says what to write instead.
func TestSignatureErrors(t *testing.T) {
	head := func(pkg string) string {
		return "package " + pkg + "\n\nimport \"context\"\n\nvar _ context.Context\n" + lintArgs + "\n// F does.\n//\n//mcp:tool\n"
	}
	const line = 16 // the func line after head
	at := func(col int, msg string) string { return fmt.Sprintf("tools.go:%d:%d: %s", line, col, msg) }
	shape := "a tool must look like func [(r *T)] F([ctx context.Context][, in In]) ([Out, ]error)"
	cases := []diagCase{{
		name: "ctxsecond",
		src:  head("ctxsecond") + "func F(in Args, ctx context.Context) error { return nil }\n",
		want: []string{at(6, "F: the context.Context parameter must come first: func F(ctx context.Context, in Args)")},
	}, {
		name: "twoargs",
		src:  head("twoargs") + "func F(ctx context.Context, a Args, b Args) error { return nil }\n",
		want: []string{at(6, "F: a tool takes one argument struct, not 2 parameters (Args, Args); make them fields of one struct; "+shape)},
	}, {
		name: "errorfirst",
		src:  head("errorfirst") + "func F() (error, string) { return nil, \"\" }\n",
		want: []string{at(6, "F: error must be the last result: (string, error)")},
	}, {
		name: "noresult",
		src:  head("noresult") + "func F() {}\n",
		want: []string{at(6, "F: a tool must return an error (error, or (Out, error)); "+shape)},
	}, {
		name: "threeresults",
		src:  head("threeresults") + "func F() (string, string, error) { return \"\", \"\", nil }\n",
		want: []string{at(6, "F: a tool returns at most two results, one value and an error, not 3; "+shape)},
	}, {
		name: "noerror",
		src:  head("noerror") + "func F() string { return \"\" }\n",
		want: []string{at(6, "F: the last result must be error, not string: return (string, error)")},
	}, {
		name: "colonspace",
		src:  head("colonspace") + "func F() error { return nil }\n\n// G does.\n//\n//mcp: tool\nfunc G() error { return nil }\n",
		want: []string{`tools.go:20:1: "//mcp: tool": no space after the colon: write //mcp:tool`},
	}, {
		name: "uppercase",
		src:  head("uppercase") + "func F() error { return nil }\n\n// G does.\n//\n//mcp:Tool\nfunc G() error { return nil }\n",
		want: []string{`tools.go:20:1: unknown directive //mcp:Tool: write //mcp:tool, in lower case`},
	}, {
		name: "unknown",
		src:  head("unknown") + "func F() error { return nil }\n\n// G does.\n//\n//mcp:bogus\nfunc G() error { return nil }\n",
		want: []string{`tools.go:20:1: unknown directive //mcp:bogus (known: //mcp:tool, //mcp:resource, //mcp:prompt, //mcp:complete, //mcp:form)`},
	}, {
		name: "notstruct",
		src:  head("notstruct") + "func F(ctx context.Context, name string) error { return nil }\n",
		want: []string{at(29, "F: the argument must be a struct or a pointer to one, not string: make it a field, as in type FArgs struct { Name string `json:\"name\"` }")},
	}}
	got, err := loadCases(t, cases)
	if err != nil {
		t.Fatal(err)
	}
	checkCases(t, cases, got)
}
