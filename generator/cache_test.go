package generator

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestReuse holds generation to its memo: a package whose input did not
// change is not emitted again and its file is returned as it is on disk;
// any change to what the generated code depends on (types and tags of the
// package and of the packages it imports, doc comments in either, the
// generator itself), a file edited by hand, or Fresh, emits it again.
func TestReuse(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOFLAGS", "-mod=mod")
	const (
		lib = "package lib\n\nimport \"example.com/m/shapes\"\n\n" +
			"// Args are the arguments.\ntype Args struct {\n\t// Name is who.\n\tName string `json:\"name\" jsonschema:\"minLength=1\"`\n\tBox shapes.Box `json:\"box\"`\n\tNote string `json:\"note,omitempty\"`\n}\n\n" +
			"// Count counts.\n//\n//mcp:tool\nfunc Count(in Args) (string, error) { return \"\", nil }\n"
		shapes = "package shapes\n\n// Box is a box.\ntype Box struct {\n\t// Width is how wide.\n\tWidth int `json:\"width\"`\n}\n"
	)
	type edit struct{ file, old, new string }
	for _, tc := range []struct {
		name    string
		edits   []edit
		version string
		hand    bool // edit the generated file by hand
		fresh   bool
		emits   int
		want    string // in the generated file
	}{
		{name: "unchanged", emits: 0},
		{name: "doc comment", edits: []edit{{"lib.go", "// Name is who.", "// Name is whom."}}, emits: 1, want: `"Whom."`},
		{name: "tag", edits: []edit{{"lib.go", "minLength=1", "minLength=2"}}, emits: 1, want: `"minLength":2`},
		{name: "type", edits: []edit{{"lib.go", "Name string", "Name []string"}}, emits: 1, want: `"type":"array"`},
		{name: "imported type", edits: []edit{{"shapes/shapes.go", "Width int", "Width float64"}}, emits: 1, want: `"type":"number"`},
		{name: "imported tag", edits: []edit{{"shapes/shapes.go", `json:\"width\"`, `json:\"w\"`}}, emits: 1, want: `"w":`},
		{name: "imported doc comment", edits: []edit{{"shapes/shapes.go", "how wide", "how broad"}}, emits: 1, want: "How broad"},
		{name: "generator version", version: "other", emits: 1},
		{name: "edited by hand", hand: true, emits: 1},
		{name: "fresh", fresh: true, emits: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cache := t.TempDir()
			restore := cacheDir
			cacheDir = func() string { return cache }
			t.Cleanup(func() { cacheDir = restore })
			files := map[string]string{
				"go.mod":           fmt.Sprintf("module example.com/m\n\ngo 1.26\n\nrequire github.com/mcpgen/mcpgen v0.0.0\n\nreplace github.com/mcpgen/mcpgen => %s\n", root),
				"lib.go":           lib,
				"shapes/shapes.go": shapes,
			}
			for _, e := range tc.edits {
				files[e.file] = strings.Replace(files[e.file], strings.ReplaceAll(e.old, `\"`, `"`), strings.ReplaceAll(e.new, `\"`, `"`), 1)
			}
			writeAll := func(files map[string]string) {
				for name, data := range files {
					path := filepath.Join(dir, name)
					if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
						t.Fatal(err)
					}
					// The go command does not trust the cached hash of a
					// file modified in the last seconds; a real edit is older.
					old := time.Now().Add(-time.Hour)
					if err := os.Chtimes(path, old, old); err != nil {
						t.Fatal(err)
					}
				}
			}
			emits := 0
			restoreEmit := onEmit
			onEmit = func(*Package) { emits++ }
			t.Cleanup(func() { onEmit = restoreEmit })
			generate := func(cfg Config) []byte {
				t.Helper()
				out, err := Generate(cfg)
				if err != nil {
					t.Fatal(err)
				}
				if len(out) != 1 || out[0].Content == nil {
					t.Fatalf("want one generated file, got %d", len(out))
				}
				return out[0].Content
			}
			// First generation, from the unedited sources.
			base := map[string]string{"go.mod": files["go.mod"], "lib.go": lib, "shapes/shapes.go": shapes}
			writeAll(base)
			var warned []string
			cfg := Config{Dir: dir, Warn: func(d Diagnostic) { warned = append(warned, d.Msg) }}
			first := generate(cfg)
			firstWarned := warned
			warned = nil
			if len(firstWarned) == 0 {
				t.Fatal("no warning about the undocumented field note")
			}
			gen := filepath.Join(dir, DefaultOutput)
			if err := os.WriteFile(gen, first, 0o644); err != nil {
				t.Fatal(err)
			}
			if emits != 1 {
				t.Fatalf("first generation emitted %d times, want 1", emits)
			}
			emits = 0
			for name, data := range files {
				if data == base[name] {
					delete(files, name) // untouched, as the go command left it
				}
			}
			writeAll(files)
			if tc.version != "" {
				restoreVersion := generatorVersion
				generatorVersion = func() string { return tc.version }
				t.Cleanup(func() { generatorVersion = restoreVersion })
			}
			if tc.hand {
				if err := os.WriteFile(gen, append(first, "// edited\n"...), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cfg.Fresh = tc.fresh
			got := generate(cfg)
			if emits != tc.emits {
				t.Errorf("emitted %d times, want %d", emits, tc.emits)
			}
			if !strings.Contains(string(got), tc.want) {
				t.Errorf("generated file lacks %q", tc.want)
			}
			if tc.emits == 0 && string(got) != string(first) {
				t.Errorf("reused file differs from the one on disk")
			}
			if len(tc.edits) == 0 && !slices.Equal(warned, firstWarned) {
				t.Errorf("warnings %q, want those of the first run %q: a reused file must not hide them", warned, firstWarned)
			}
			if tc.hand && strings.Contains(string(got), "// edited") {
				t.Errorf("the edit by hand survived generation")
			}
			if len(tc.edits) > 0 && string(got) == string(first) {
				t.Errorf("the generated file did not change")
			}
		})
	}
}
