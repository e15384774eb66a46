package generator

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestEnumsOnlyFromOwnConstants holds the enum rule: constants make an enum
// only for types of the main module; time.Duration, time.Month and a
// third-party module's typed constants leave the schema open.
func TestEnumsOnlyFromOwnConstants(t *testing.T) {
	b, lookup := newTestBuilder(t)
	_, s := buildOK(t, b, lookup, "Foreign")
	for _, tc := range []struct {
		prop     string
		wantEnum bool
	}{
		{"timeout", false},
		{"month", false},
		{"weekday", false},
		{"mode", false},
		{"sizes", true}, // ext is in the main module
		{"waits", false},
	} {
		p, ok := s.Properties.Get(tc.prop)
		if !ok {
			t.Fatalf("no property %s", tc.prop)
		}
		switch {
		case p.Items != nil:
			p = p.Items
		case p.AdditionalProperties != nil:
			p = p.AdditionalProperties
		}
		if got := len(p.Enum) > 0; got != tc.wantEnum {
			t.Errorf("%s: enum %v, want an enum: %v", tc.prop, p.Enum, tc.wantEnum)
		}
		if tc.prop == "sizes" && !slices.Equal(p.Enum, []any{"s", "l", "m"}) {
			t.Errorf("sizes: enum %v, want [s l m]", p.Enum)
		}
	}
}

// TestDocsOfDotlessModule checks that a module whose path has no dot
// (module tools) is not taken for the standard library: its types' doc
// comments describe their properties.
func TestDocsOfDotlessModule(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Setenv("GOFLAGS", "-mod=mod")
	files := map[string]string{
		"go.mod": "module tools\n\ngo 1.26\n\nrequire github.com/mcpgen/mcpgen v0.0.0\n\nreplace github.com/mcpgen/mcpgen => " + root + "\n",
		"kinds/kinds.go": `package kinds

// Shade is how dark a color is, from 0 to 9.
type Shade int
`,
		"server/server.go": `package server

import "tools/kinds"

// Point is a spot on the canvas.
type Point struct{ X, Y int }

type Args struct {
	At    Point       ` + "`json:\"at\"`" + `
	Shade kinds.Shade ` + "`json:\"shade\"`" + `
}

// Draw draws.
//
//mcp:tool
func Draw(in Args) (string, error) { return "", nil }
`,
	}
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := Generate(Config{Dir: filepath.Join(dir, "server")})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 1 {
		t.Fatalf("got %d files, want 1", len(out))
	}
	for _, want := range []string{"Point is a spot on the canvas.", "Shade is how dark a color is, from 0 to 9."} {
		if !strings.Contains(string(out[0].Content), want) {
			t.Errorf("the generated schema lacks the doc comment %q:\n%s", want, out[0].Content)
		}
	}
}
