package generator_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generator"
)

// BenchmarkEmit times rendering the file of a package of 200 tools, the
// largest part of the generator's own work after loading.
func BenchmarkEmit(b *testing.B) {
	dir := syntheticModule(b, 200)
	pkgs, err := generator.Load(generator.Config{Dir: dir})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := generator.Emit(pkgs[0]); err != nil {
			b.Fatal(err)
		}
	}
}

// syntheticModule writes a module whose one package has n annotated tools,
// each with its own argument struct.
func syntheticModule(b *testing.B, n int) string {
	var src strings.Builder
	src.WriteString("package scale\n\nimport \"context\"\n\n")
	for i := range n {
		fmt.Fprintf(&src, "// Args%[1]d are arguments.\ntype Args%[1]d struct {\n\t// Pattern is a glob.\n\tPattern string `json:\"pattern\"`\n\t// Limit caps results.\n\tLimit int `json:\"limit,omitempty\" jsonschema:\"minimum=1,maximum=100,default=10\"`\n\tRecursive bool `json:\"recursive,omitempty\"`\n\tTags []string `json:\"tags,omitempty\"`\n}\n\n", i)
		fmt.Fprintf(&src, "// Tool%[1]d finds files.\n//\n//mcp:tool readonly\nfunc Tool%[1]d(ctx context.Context, in Args%[1]d) (string, error) { return in.Pattern, nil }\n\n", i)
	}
	return generator.TestModule(b, "scale", map[string]string{"tools.go": src.String()})
}

// BenchmarkLoad times loading and modelling a package of 200 tools; the
// go/packages load is most of it.
func BenchmarkLoad(b *testing.B) {
	dir := syntheticModule(b, 200)
	for b.Loop() {
		if _, err := generator.Load(generator.Config{Dir: dir}); err != nil {
			b.Fatal(err)
		}
	}
}
