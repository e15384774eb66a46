package generator_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generator"
)

// TestWarningsBesideErrors: errors in one package do not hide the
// warnings of another, nor the comments of its own that look like
// directives but are ignored (which may be why it fails); of the package
// with errors, nothing that needs its incomplete model is warned about.
func TestWarningsBesideErrors(t *testing.T) {
	mod := generator.TestModule(t, "werr", nil)
	generator.WriteTestFile(t, filepath.Join(mod, "bad", "tools.go"), "package bad\n\n// Greet greets.\n//\n//mcp:tool bogus\nfunc Greet() error { return nil }\n\n// Hello says hello.\n//\n// mcp:tool\nfunc Hello() error { return nil }\n\n//mcp:tool\nfunc Bare() error { return nil }\n")
	generator.WriteTestFile(t, filepath.Join(mod, "good", "tools.go"), "package good\n\n//mcp:tool\nfunc Bare() error { return nil }\n")

	var warned []string
	_, err := generator.Load(generator.Config{Dir: mod, Patterns: []string{"./..."}, Warn: func(d generator.Diagnostic) {
		warned = append(warned, generator.Diagnostics{d}.Relative(mod)[0].String())
	}})
	diags, ok := err.(generator.Diagnostics)
	if !ok || len(diags) != 1 || !strings.Contains(diags[0].Msg, `unknown key "bogus"`) {
		t.Fatalf("Load: %v, want the unknown key bogus", err)
	}
	want := []string{
		`bad/tools.go:10:1: "// mcp:tool" is not a directive and is ignored: write //mcp:tool, with no space after // or the colon`,
		`good/tools.go:4:6: tool "bare" has no description, and models choose tools by it: add a doc comment to Bare, or description=… to its //mcp:tool line`,
	}
	if !slices.Equal(warned, want) {
		t.Errorf("warnings:\n\t%s\nwant\n\t%s", strings.Join(warned, "\n\t"), strings.Join(want, "\n\t"))
	}
}
