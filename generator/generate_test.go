package generator

import (
	"go/ast"
	"go/token"
	"strings"
	"testing"
)

// TestParseSource holds the load's parser to reading of mcpgen's previous
// output only its imports, made blank so that nothing is unused, and
// every other file, one of the same name without the header or one with
// the header under another name, whole.
func TestParseSource(t *testing.T) {
	const body = "package p\n\nimport (\n\t\"context\"\n\tmcp \"github.com/mcpgen/mcpgen/runtime\"\n)\n\n" +
		"// RegisterMCP registers.\nfunc RegisterMCP(s *mcp.Server) { _ = context.Background }\n\nvar mcpSchema = []byte(`{}`)\n"
	parse := parseSource(DefaultOutput)
	for _, tc := range []struct {
		name, src string
		whole     bool
	}{
		{DefaultOutput, generatedHeader + "\n\n" + body, false},
		{DefaultOutput, "// Written by hand.\n\n" + body, true},
		{"other.go", generatedHeader + "\n\n" + body, true},
	} {
		fset := token.NewFileSet()
		f, err := parse(fset, "/src/p/"+tc.name, []byte(tc.src))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var decls []string
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				decls = append(decls, d.Tok.String())
			case *ast.FuncDecl:
				decls = append(decls, "func "+d.Name.Name)
			}
		}
		var names []string
		for _, imp := range f.Imports {
			if imp.Name == nil {
				names = append(names, "")
			} else {
				names = append(names, imp.Name.Name)
			}
		}
		got := strings.Join(decls, ", ") + " | " + strings.Join(names, ",")
		want := "import | _,_"
		if tc.whole {
			want = "import, func RegisterMCP, var | ,mcp"
		}
		if got != want {
			t.Errorf("%s (whole %v): declarations and import names %q, want %q", tc.name, tc.whole, got, want)
		}
		if !tc.whole && !ast.IsGenerated(f) {
			t.Errorf("%s: the header comment was not kept: the file is no longer known as generated", tc.name)
		}
	}
}
