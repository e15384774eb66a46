package generator_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generator"
)

// genericForms declares a generic struct type for the cases below.
const genericForms = `package %s

import (
	"context"

	"github.com/mcpgen/mcpgen/runtime"
	"example.com/lint/other"
)

// Pair asks for two values.
type Pair[T any] struct {
	// First is the first value.
	First T ` + "`json:\"first\"`" + `
	// Second is the second.
	Second T ` + "`json:\"second,omitempty\" jsonschema:\"maxLength=9\"`" + `
}

var (
	_ = other.Pair[int]{}
	_ context.Context
	_ = runtime.NewServer
)

%s
`

// A generic struct type is no form, nor is any instance of one: the
// methods generated on *Pair[T] would be shared by every instance, which
// each ask their own form. The error is at the use or the directive, and
// says to declare a defined type of the instance.
func TestGenericFormErrors(t *testing.T) {
	src := func(name, body string) string { return fmt.Sprintf(genericForms, name, body) }
	cases := []diagCase{
		{"instance", src("instance", `// Ask asks.
//
//mcp:tool
func Ask(ctx context.Context) (string, error) {
	runtime.AskForm[Pair[string]](ctx, "?")
	runtime.AskForm[Pair[map[string][]int]](ctx, "?")
	return "", nil
}`), []string{
			"tools.go:28:10: runtime.AskForm[instance.Pair[string]]: a form cannot be an instance of a generic type: the methods mcpgen generates on *Pair[T] would be shared by every instance of Pair, and each instance asks its own form; declare a defined type of this instance, e.g. type PairString Pair[string], which keeps the fields, tags and comments, and ask with it",
			"tools.go:29:10: runtime.AskForm[instance.Pair[map[string][]int]]: a form cannot be an instance of a generic type: the methods mcpgen generates on *Pair[T] would be shared by every instance of Pair, and each instance asks its own form; declare a defined type of this instance, e.g. type PairMapStringInt Pair[map[string][]int], which keeps the fields, tags and comments, and ask with it",
		}},
		{"param", src("param", `// AskAny asks with a type parameter.
func AskAny[T any](ctx context.Context) {
	runtime.AskForm[Pair[T]](ctx, "?")
}`), []string{
			"tools.go:26:10: runtime.AskForm[param.Pair[T]]: a form cannot be an instance of a generic type, and in Pair[T], T is a type parameter: the methods mcpgen generates on *Pair[T] would be shared by every instance; ask with a defined type of a concrete instance, e.g. type PairString Pair[string], which keeps the fields, tags and comments",
		}},
		{"marked", src("marked", `// Marked is a generic form of other packages.
//
//mcp:form
type Marked[K comparable, V any] struct {
	A map[K]V `+"`json:\"a\"`"+`
}`), []string{
			"tools.go:26:1: //mcp:form Marked: a form cannot be a generic type: the methods mcpgen generates on *Marked[K, V] would be shared by every instance of it, and each instance asks its own form; mark a defined type of the instance to ask instead, e.g. type MyMarked Marked[string, string], which keeps the fields, tags and comments",
		}},
		{"foreign", src("foreign", `// Ask asks with an instance of another package's generic type.
func Ask(ctx context.Context) {
	runtime.AskForm[other.Pair[bool]](ctx, "?")
}`), []string{
			"tools.go:26:10: runtime.AskForm[other.Pair[bool]]: a form cannot be an instance of a generic type: the methods mcpgen generates on *Pair[T] would be shared by every instance of Pair, and each instance asks its own form; declare a defined type of this instance, e.g. type PairBool Pair[bool], which keeps the fields, tags and comments, and ask with it",
		}},
		{"other", "package other\n\n// Pair is generic.\ntype Pair[T any] struct {\n\tA T `json:\"a\"`\n}\n", nil},
	}
	got, err := loadCases(t, cases)
	if err != nil {
		t.Fatal(err)
	}
	checkCases(t, cases, got)
}

// A defined type of an instance is a plain struct type: a form with the
// instance's fields, their tags and their comments.
func TestDefinedInstanceForm(t *testing.T) {
	mod := generator.TestModule(t, "lint", nil)
	generator.WriteTestFile(t, filepath.Join(mod, "other", "other.go"), "package other\n\n// Pair is generic.\ntype Pair[T any] struct {\n\tA T `json:\"a\"`\n}\n")
	generator.WriteTestFile(t, filepath.Join(mod, "defined", "tools.go"), fmt.Sprintf(genericForms, "defined", `// Names asks for two names.
type Names Pair[string]

// Flag is a defined type of another package's instance.
type Flag other.Pair[bool]

// Ask asks.
//
//mcp:tool
func Ask(ctx context.Context) (string, error) {
	n, _, err := runtime.AskForm[Names](ctx, "?")
	if err != nil || n == nil {
		return "", err
	}
	runtime.AskForm[Flag](ctx, "?")
	return n.First + n.Second, nil
}`))
	pkgs, err := generator.Load(generator.Config{Dir: mod, Patterns: []string{"./defined"}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"Names": `{"properties":{"first":{"type":"string","description":"The first value."},"second":{"type":"string","maxLength":9,"description":"The second."}},"type":"object","required":["first"]}`,
		"Flag":  `{"properties":{"a":{"type":"boolean"}},"type":"object","required":["a"]}`,
	}
	if len(pkgs) != 1 || len(pkgs[0].Forms) != len(want) {
		t.Fatalf("forms: %d packages, want 1 with %d forms", len(pkgs), len(want))
	}
	for _, f := range pkgs[0].Forms {
		b, err := json.Marshal(f.Schema)
		if err != nil {
			t.Fatal(err)
		}
		if name := f.Type.Obj().Name(); string(b) != want[name] {
			t.Errorf("form %s: schema\n%s\nwant\n%s", name, b, want[name])
		}
	}
	// The generated file, which Generate type-checks with the package,
	// gives both types the methods of runtime.Form.
	files, err := generator.Generate(generator.Config{Dir: mod, Patterns: []string{"./defined"}, Fresh: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 {
		t.Fatalf("%d files, want 1", len(files))
	}
	for _, m := range []string{"func (*Names) MCPFormSchema() string", "func (v *Names) MCPDecodeForm(content []byte) error", "func (*Flag) MCPFormSchema() string"} {
		if !strings.Contains(string(files[0].Content), m) {
			t.Errorf("generated file lacks %q", m)
		}
	}
}
