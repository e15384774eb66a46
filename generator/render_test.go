package generator

import (
	"bytes"
	"fmt"
	"go/token"
	"strings"
	"testing"
)

// TestRenderParts checks that rendering the generated file in parts gives,
// byte for byte, what jennifer gives for the whole file, however the
// declarations are split: for the package of every golden case that
// generates a file, and for a package of many tools.
func TestRenderParts(t *testing.T) {
	var many strings.Builder
	many.WriteString("package many\n\nimport (\n\t\"context\"\n\t\"time\"\n)\n\n")
	for i := range 40 {
		fmt.Fprintf(&many, "type Args%[1]d struct {\n\tName string `json:\"name\" jsonschema:\"pattern=^[a-z]+$\"`\n\tAt time.Time `json:\"at,omitempty\"`\n\tN int `json:\"n,omitempty\" jsonschema:\"minimum=1,maximum=9,default=3\"`\n}\n\n", i)
		fmt.Fprintf(&many, "type Result%[1]d struct {\n\tItems []string `json:\"items\"`\n}\n\n", i)
		fmt.Fprintf(&many, "// Tool%[1]d is tool %[1]d.\n//\n//mcp:tool\nfunc Tool%[1]d(ctx context.Context, in Args%[1]d) (Result%[1]d, error) { return Result%[1]d{}, nil }\n\n", i)
	}
	pkgs := goldenModule(t, map[string]string{"many/many.go": many.String()})
	checked := 0
	for _, p := range pkgs {
		if p.empty() {
			continue
		}
		checked++
		f := emitFile(p)
		want, err := f.renderWhole()
		if err != nil {
			t.Fatalf("%s: %v", p.PkgPath, err)
		}
		for _, parts := range []int{1, 2, 3, len(f.starts)} {
			f.parts = parts
			pf, err := f.parse(token.NewFileSet(), p.Output)
			if err != nil {
				t.Fatalf("%s in %d parts: %v", p.PkgPath, parts, err)
			}
			got, err := pf.print()
			if err != nil {
				t.Fatalf("%s in %d parts: %v", p.PkgPath, parts, err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s in %d parts differs from the whole file:\n%s", p.PkgPath, parts, firstDifference(want, got))
			}
		}
	}
	if checked < 5 {
		t.Fatalf("only %d packages generate a file", checked)
	}
}

// firstDifference shows the lines around the first byte where got differs
// from want.
func firstDifference(want, got []byte) string {
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	line := bytes.Count(want[:i], []byte("\n")) + 1
	around := func(b []byte) string {
		lo := max(0, bytes.LastIndexByte(b[:min(i, len(b))], '\n'))
		hi := min(len(b), i+200)
		return string(b[lo:hi])
	}
	return fmt.Sprintf("line %d\nwant: %q\ngot:  %q", line, around(want), around(got))
}
