package generator

import (
	"errors"
	"fmt"
	"go/parser"
	"path/filepath"
	"strings"
	"testing"
)

// TestTypeCheck holds the check of generated code to what it must find:
// nothing in generated code that compiles (from a package that does not
// import the runtime yet, so that the runtime must be loaded for the
// check), and each error of code that does not compile, positioned and
// reported as the generator's bug.
func TestTypeCheck(t *testing.T) {
	dir := testModule(t, "lib", map[string]string{
		"lib.go": "package lib\n\nvar helper = 2\n\ntype Args struct {\n\tName string `json:\"name\" jsonschema:\"pattern=^[a-z]+$\"`\n}\n\n" +
			"// Count counts.\n//\n//mcp:tool\nfunc Count(in Args) (map[string]int, error) { return nil, nil }\n",
	})
	cfg := Config{Dir: dir, Output: DefaultOutput}
	pkgs, err := Load(cfg)
	if err != nil {
		t.Fatal(err)
	}
	src, err := Emit(pkgs[0])
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, DefaultOutput)
	lines := strings.Count(string(src), "\n")
	for _, tc := range []struct {
		name   string
		extra  string
		errors []string
	}{
		{name: "compiles"},
		{name: "type error", extra: "var _ int = \"x\"\n", errors: []string{
			fmt.Sprintf("%s:%d:13: mcpgen bug: the generated code does not compile: cannot use \"x\" (untyped string constant) as int value in variable declaration; nothing was written (please report this)", out, lines+1),
		}},
		{name: "collides with the package", extra: "var helper = 1\n", errors: []string{
			fmt.Sprintf("%s:%d:5: mcpgen bug: the generated code does not compile: helper redeclared in this block", out, lines+1),
		}},
		{name: "syntax", extra: "func {\n", errors: []string{
			fmt.Sprintf("%s:%d:6: mcpgen bug: the generated code does not compile: expected 'IDENT', found '{'", out, lines+1),
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := typeCheck(cfg, pkgs, []File{{Path: out, Content: []byte(string(src) + tc.extra)}})
			if len(tc.errors) == 0 {
				if err != nil {
					t.Fatalf("generated code reported as not compiling: %v", err)
				}
				return
			}
			var diags Diagnostics
			if !errors.As(err, &diags) {
				t.Fatalf("got %v, want diagnostics", err)
			}
			for _, want := range tc.errors {
				found := false
				for _, d := range diags {
					found = found || strings.HasPrefix(d.String(), want)
				}
				if !found {
					t.Errorf("no diagnostic starts with\n%s\ngot:\n%v", want, diags)
				}
			}
		})
	}
}

// TestEmitChecked holds the check made while the file is printed to what
// it must find: the file as Emit renders it, checked when the load reached
// every package it imports and left to typeCheck when not; and an error in
// any of the parts the file is parsed in found.
func TestEmitChecked(t *testing.T) {
	const tool = "type Args struct {\n\tName string `json:\"name\" jsonschema:\"pattern=^[a-z]+$\"`\n}\n\n" +
		"// Count counts.\n//\n//mcp:tool\nfunc Count(in Args) (map[string]int, error) { return nil, nil }\n"
	for _, tc := range []struct {
		name, src   string
		wantChecked bool
	}{
		{"imports loaded", "package lib\n\nimport (\n\t\"context\"\n\t\"regexp\"\n\n\t\"github.com/mcpgen/mcpgen/runtime\"\n\t\"github.com/mcpgen/mcpgen/runtime/mcpimpl\"\n)\n\n" +
			"var helper runtime.Tool\n\nvar _ *mcpimpl.Decoder\n\nvar _ = regexp.MustCompile\n\nvar _ context.Context\n\n" + tool, true},
		{"runtime not loaded", "package lib\n\nvar helper = 2\n\n" + tool, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := testModule(t, "lib", map[string]string{"lib.go": tc.src})
			pkgs, err := Load(Config{Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			p := pkgs[0]
			src, checked, err := emitChecked(p)
			if err != nil {
				t.Fatal(err)
			}
			want, err := Emit(p)
			if err != nil {
				t.Fatal(err)
			}
			if string(src) != string(want) {
				t.Errorf("emitChecked renders\n%s\nEmit renders\n%s", src, want)
			}
			if checked != tc.wantChecked {
				t.Errorf("checked = %v, want %v", checked, tc.wantChecked)
			}
			if !tc.wantChecked {
				return
			}
			pf, err := emitParts(p, p.check.fset)
			if err != nil {
				t.Fatal(err)
			}
			extra, err := parser.ParseFile(p.check.fset, p.Output, "package lib\n\nvar helper = 1\n", 0)
			if err != nil {
				t.Fatal(err)
			}
			diags, missing := checkFiles(p, p.check, append(pf.files(), extra))
			if missing || len(diags) == 0 || !strings.Contains(diags.Error(), "helper redeclared in this block") {
				t.Errorf("checking the parts with a clash: missing %v, diagnostics %v; want helper redeclared", missing, diags)
			}
			if diags, missing := checkFiles(p, p.check, pf.files()); missing || len(diags) > 0 {
				t.Errorf("checking the parts: missing %v, diagnostics %v; want none", missing, diags)
			}
		})
	}
}
