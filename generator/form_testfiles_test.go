package generator_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generator"
)

// A form used only in a test file gets no methods, since mcpgen generates
// a non-test file from the non-test files: each type of the package that a
// test file asks with, and that is no form, is warned about once, at its
// first use in file order, with the fix. Forms of the package, of other
// packages, and types the warning cannot be about are left alone.
func TestTestFileForms(t *testing.T) {
	files := map[string]string{
		"other/other.go": `package other

// Answer is a form of another package.
//
//mcp:form
type Answer struct {
	OK bool ` + "`json:\"ok\"`" + `
}
`,
		"p/p.go": `package p

import (
	"context"

	"github.com/mcpgen/mcpgen/runtime"
)

// Confirm is asked with in tests only.
type Confirm struct {
	OK bool ` + "`json:\"ok\"`" + `
}

// Used is asked with in the package: a form.
type Used struct {
	OK bool ` + "`json:\"ok\"`" + `
}

// Marked is a form by its directive.
//
//mcp:form
type Marked struct {
	OK bool ` + "`json:\"ok\"`" + `
}

// Level is no struct.
type Level string

func ask(ctx context.Context) { runtime.AskForm[Used](ctx, "?") }
`,
		"p/a_test.go": `package p

import (
	"context"
	"testing"

	mcp "github.com/mcpgen/mcpgen/runtime"
	"example.com/tf/other"
)

// Local is declared in the test.
type Local struct {
	A string ` + "`json:\"a\"`" + `
}

func TestAsk(t *testing.T) {
	ctx := context.Background()
	mcp.AskForm[Confirm](ctx, "?")
	mcp.AskForm[Confirm](ctx, "again")
	mcp.AskForm[Used](ctx, "?")
	mcp.AskForm[Marked](ctx, "?")
	mcp.AskForm[other.Answer](ctx, "?")
	mcp.AskForm[Local, *Local](ctx, "?")
	mcp.AskForm[Level](ctx, "?")
	mcp.AskForm[map[string]int](ctx, "?")
}
`,
		"p/b_test.go": `package p_test

import (
	"context"
	"testing"

	"example.com/tf/p"
	"github.com/mcpgen/mcpgen/runtime"
)

type External struct {
	A string ` + "`json:\"a\"`" + `
}

func TestExternal(t *testing.T) {
	ctx := context.Background()
	runtime.AskForm[p.Confirm](ctx, "?")
	runtime.AskForm[p.Marked](ctx, "?")
	runtime.AskForm[External](ctx, "?")
	runtime.AskForm[string](ctx, "?")
}
`,
		// Excluded from every build: not read.
		"p/c_test.go": `//go:build ignore

package p

import "github.com/mcpgen/mcpgen/runtime"

var _ = runtime.AskForm[Level]
`,
		// AskForm of another package is not runtime's.
		"p/d_test.go": `package p

type fake struct{}

func (fake) AskForm() {}
`,
	}
	mod := generator.TestModule(t, "tf", files)
	var got []string
	_, err := generator.Load(generator.Config{Dir: mod, Patterns: []string{"./..."}, Warn: func(d generator.Diagnostic) {
		if strings.Contains(d.Msg, "test file") {
			got = append(got, d.String())
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		got[i] = strings.TrimPrefix(got[i], mod+string(filepath.Separator))
	}
	want := []string{
		"p/a_test.go:18:14: runtime.AskForm[Confirm] in a test file: mcpgen reads only the package's non-test files, so this use gives Confirm no form methods and the test does not compile; mark Confirm //mcp:form in its doc comment",
		"p/a_test.go:23:14: runtime.AskForm[Local] in a test file: Local is declared in a test file, and mcpgen generates a non-test file, which cannot give it the methods of a form; declare Local in a non-test file of the package and mark it //mcp:form",
		"p/b_test.go:19:18: runtime.AskForm[External] in a test file: External is declared in a test file, and mcpgen generates a non-test file, which cannot give it the methods of a form; declare External in a non-test file of the package and mark it //mcp:form",
	}
	if !slices.Equal(got, want) {
		t.Errorf("warnings:\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

// The scan of test files honours -tags as the go command does: a test
// file that the tags exclude is not read, and one they include is.
func TestTestFileFormsBuildTags(t *testing.T) {
	files := map[string]string{
		"p/p.go": "package p\n\n// Level is no form.\ntype Level struct {\n\tN int `json:\"n\"`\n}\n\n// Other is no form.\ntype Other struct {\n\tN int `json:\"n\"`\n}\n",
		"p/integration_test.go": `//go:build integration && !short

package p

import (
	"context"

	"github.com/mcpgen/mcpgen/runtime"
)

func ask(ctx context.Context) { runtime.AskForm[Level](ctx, "?") }
`,
		"p/unit_test.go": `//go:build !integration

package p

import (
	"context"

	"github.com/mcpgen/mcpgen/runtime"
)

func ask(ctx context.Context) { runtime.AskForm[Other](ctx, "?") }
`,
	}
	mod := generator.TestModule(t, "tags", files)
	for _, c := range []struct {
		flags []string
		want  string // the file warned about
	}{
		{nil, "p/unit_test.go:11:49"},
		{[]string{"-tags=integration"}, "p/integration_test.go:11:49"},
		{[]string{"-tags", "integration"}, "p/integration_test.go:11:49"},
		{[]string{"--tags=foo,integration"}, "p/integration_test.go:11:49"},
		{[]string{"-tags=integration,short"}, ""},
		{[]string{"-tags=integration", "-tags=other"}, "p/unit_test.go:11:49"}, // the last -tags counts
	} {
		var got []string
		_, err := generator.Load(generator.Config{Dir: mod, Patterns: []string{"./..."}, BuildFlags: c.flags, Warn: func(d generator.Diagnostic) {
			if strings.Contains(d.Msg, "test file") {
				got = append(got, strings.TrimPrefix(d.Pos.String(), mod+string(filepath.Separator)))
			}
		}})
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		if c.want != "" {
			want = []string{c.want}
		}
		if !slices.Equal(got, want) {
			t.Errorf("BuildFlags %q: warned at %q, want %q", c.flags, got, want)
		}
	}
}
