package generator

import (
	"bytes"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// goldenModule writes a module holding the package of every golden case
// that generates a file, and the packages of files (path → content), and
// loads them all.
func goldenModule(t *testing.T, files map[string]string) []*Package {
	t.Helper()
	mod := testModule(t, "golden", files)
	paths, err := filepath.Glob("testdata/golden/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no golden cases: %v", err)
	}
	for _, p := range paths {
		arc, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		generates := false
		for _, f := range arc.Files {
			generates = generates || f.Name == DefaultOutput
		}
		if !generates {
			continue // a case of errors
		}
		dir := filepath.Join(mod, strings.TrimSuffix(filepath.Base(p), ".txtar"))
		for _, f := range arc.Files {
			if f.Name != DefaultOutput && f.Name != "errors" && f.Name != "session.txt" {
				writeTestFile(t, filepath.Join(dir, f.Name), string(f.Data))
			}
		}
	}
	pkgs, err := Load(Config{Dir: mod, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// TestRenderStream checks that the file the pipeline renders, parses and
// prints while the declarations are written is, byte for byte, what
// jennifer gives for the whole file, whatever the size of the runs; and
// that a package whose import would be named differently once the
// generated names are known is rendered again with the right name.
func TestRenderStream(t *testing.T) {
	pkgs := goldenModule(t, map[string]string{
		// A tool "find" makes a variable mcpInputSchemaFind, the name of a
		// package its arguments use: the import gets an alias, which only
		// the finished file knows.
		"renamed/mcpInputSchemaFind/mode.go": "package mcpInputSchemaFind\n\n// Mode is a mode.\ntype Mode string\n",
		"renamed/renamed.go": "package renamed\n\nimport \"example.com/golden/renamed/mcpInputSchemaFind\"\n\n" +
			"type Args struct {\n\tMode mcpInputSchemaFind.Mode `json:\"mode\"`\n}\n\n" +
			"// Find finds.\n//\n//mcp:tool\nfunc Find(in Args) (string, error) { return string(in.Mode), nil }\n",
	})
	checked := 0
	for _, p := range pkgs {
		if p.empty() {
			continue
		}
		checked++
		renamed := p.PkgPath == "example.com/golden/renamed"
		f := emitFile(p)
		want, err := f.renderWhole()
		if err != nil {
			t.Fatalf("%s: %v", p.PkgPath, err)
		}
		if renamed && !bytes.Contains(want, []byte("mcpInputSchemaFind2 \"example.com/golden/renamed/mcpInputSchemaFind\"")) {
			t.Fatalf("%s: the import is not renamed, the case tests nothing:\n%s", p.PkgPath, want)
		}
		for _, every := range []int{1, 2, 3, declsPerRun, len(f.starts)} {
			pl := newPipeline(token.NewFileSet(), p.Output, every)
			sf, same := emitStream(p, pl)
			files, err := pl.parsed()
			if err != nil {
				t.Fatalf("%s in runs of %d: %v", p.PkgPath, every, err)
			}
			if want := (len(f.starts) + every - 1) / every; len(files) != want {
				t.Errorf("%s in runs of %d: %d parts, want %d", p.PkgPath, every, len(files), want)
			}
			pf, err := pl.printed(sf)
			if err != nil {
				t.Fatalf("%s in runs of %d: %v", p.PkgPath, every, err)
			}
			if same == renamed {
				t.Errorf("%s in runs of %d: same import names = %v, want %v", p.PkgPath, every, same, !renamed)
			}
			if !same {
				continue
			}
			got, err := pf.assemble()
			if err != nil {
				t.Fatalf("%s in runs of %d: %v", p.PkgPath, every, err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s in runs of %d differs from the whole file:\n%s", p.PkgPath, every, firstDifference(want, got))
			}
		}
		got, _, err := emitChecked(p)
		if err != nil {
			t.Fatalf("%s: %v", p.PkgPath, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: emitChecked differs from the whole file:\n%s", p.PkgPath, firstDifference(want, got))
		}
	}
	if checked < 6 {
		t.Fatalf("only %d packages generate a file", checked)
	}
}

// TestCheckStandIn holds the check of generated code against the loaded
// package's declarations to what it must do: stand in for checking the
// package's files again unless methods are generated, leave out what the
// previously generated file declared, and still find a generated name that
// collides with the package's.
func TestCheckStandIn(t *testing.T) {
	const tool = "type Args struct {\n\tName string `json:\"name\"`\n}\n\n" +
		"// Count counts.\n//\n//mcp:tool\nfunc Count(in Args) (string, error) { return in.Name, nil }\n"
	for _, tc := range []struct {
		name, src string
		standIn   bool
	}{
		{"tools", "package lib\n\nvar helper = 2\n\n" + tool, true},
		// The load does not read the previous file's declarations, so the
		// use of RegisterMCP is a type error of the load's, which must not
		// cost the stand-in.
		{"a use of RegisterMCP", "package lib\n\nimport \"github.com/mcpgen/mcpgen/runtime\"\n\nvar helper = 2\n\n// Serve registers.\nfunc Serve(s *runtime.Server) { RegisterMCP(s) }\n\n" + tool, true},
		{"form methods", "package lib\n\nvar helper = 2\n\n// Note is a form.\n//\n//mcp:form\ntype Note struct {\n\tText string `json:\"text\"`\n}\n\n" + tool, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := testModule(t, "lib", map[string]string{"lib.go": tc.src})
			files, err := Generate(Config{Dir: dir, Fresh: true})
			if err != nil {
				t.Fatal(err)
			}
			// Generated again with the file on disk: its declarations are
			// in the loaded package, and must not collide with the new ones.
			if err := os.WriteFile(files[0].Path, files[0].Content, 0o644); err != nil {
				t.Fatal(err)
			}
			pkgs, err := Load(Config{Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			p := pkgs[0]
			pf, err := emitParts(p, p.check.fset)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.check.standIn(pf.files()) != nil; got != tc.standIn {
				t.Errorf("the loaded package stands in: %v, want %v", got, tc.standIn)
			}
			if diags, missing := checkFiles(p, p.check, pf.files()); missing || len(diags) > 0 {
				t.Errorf("checking the file again: missing %v, diagnostics %v; want none", missing, diags)
			}
			clash, err := parser.ParseFile(p.check.fset, p.Output, "package lib\n\nvar helper = 1\n", 0)
			if err != nil {
				t.Fatal(err)
			}
			diags, missing := checkFiles(p, p.check, append(pf.files(), clash))
			if missing || !strings.Contains(diags.Error(), "helper redeclared in this block") {
				t.Errorf("checking with a clash: missing %v, diagnostics %v; want helper redeclared", missing, diags)
			}
		})
	}
}
