package generator

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/tools/go/packages"
)

// TestReuse holds generation to its memo: a package whose input did not
// change is not emitted again and its file is returned as it is on disk,
// after the light load alone, with the warnings of the run that generated
// it; any change to what the generated code depends on (types and tags of
// the package and of the packages it imports, doc comments in either, a
// file added to an import, the build flags, the generator itself), a file
// edited by hand, or Fresh, emits it again. A record that cannot be read,
// or lacks the warnings a run wants, costs the full load, not a wrong
// answer.
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
		name     string
		edits    []edit
		version  string
		hand     bool // edit the generated file by hand
		fresh    bool
		flags    []string // build flags of the second run
		corrupt  string   // replaces every record before the second run
		unwarned bool     // the first run has no Warn: its record lacks warnings
		quiet    bool     // the second run has no Warn
		emits    int
		loads    int    // full loads in the second run
		want     string // in the generated file
		warns    string // in a warning of the second run
	}{
		{name: "unchanged", emits: 0, loads: 0},
		{name: "corrupt record", corrupt: "{\"sum\":", emits: 1, loads: 1},
		{name: "record of another format", corrupt: "0123abcd\n", emits: 1, loads: 1},
		{name: "record without warnings", unwarned: true, emits: 0, loads: 1},
		{name: "fresh, without warnings", fresh: true, quiet: true, emits: 1, loads: 1},
		{name: "build flag", flags: []string{"-tags=extra"}, emits: 1, loads: 1},
		{name: "file added to an import", edits: []edit{{"shapes/more.go", "", "package shapes\n\n// Extra is more.\nconst Extra = 1\n"}}, emits: 1, loads: 1},
		{name: "doc comment", edits: []edit{{"lib.go", "// Name is who.", "// Name is whom."}}, emits: 1, want: `"Whom."`},
		{name: "tag", edits: []edit{{"lib.go", "minLength=1", "minLength=2"}}, emits: 1, want: `"minLength":2`},
		{name: "type", edits: []edit{{"lib.go", "Name string", "Name []string"}}, emits: 1, want: `"type":"array"`},
		{name: "imported type", edits: []edit{{"shapes/shapes.go", "Width int", "Width float64"}}, emits: 1, want: `"type":"number"`},
		{name: "imported tag", edits: []edit{{"shapes/shapes.go", `json:\"width\"`, `json:\"w\"`}}, emits: 1, want: `"w":`},
		{name: "imported doc comment", edits: []edit{{"shapes/shapes.go", "how wide", "how broad"}}, emits: 1, want: "How broad"},
		{name: "test file asking with a form", edits: []edit{{"lib_test.go", "", "package lib\n\nimport \"github.com/mcpgen/mcpgen/runtime\"\n\nvar _ = runtime.AskForm[Args]\n"}}, emits: 1, warns: "lib_test.go:5:25: runtime.AskForm[Args] in a test file: mcpgen reads only"},
		{name: "test file not asking", edits: []edit{{"lib_test.go", "", "package lib\n\nvar _ Args\n"}}, emits: 0, loads: 0},
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
			var keys atomic.Int32 // input keys computed, on the loads' goroutines
			emits, loads := 0, 0
			restoreEmit, restoreLoad, restoreKey := onEmit, onLoad, onKey
			onEmit = func(*Package) { emits++ }
			onLoad = func() { loads++ }
			onKey = func() { keys.Add(1) }
			t.Cleanup(func() { onEmit, onLoad, onKey = restoreEmit, restoreLoad, restoreKey })
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
			cfg := Config{Dir: dir, Warn: func(d Diagnostic) { warned = append(warned, d.String()) }}
			if tc.unwarned {
				cfg.Warn = nil
			}
			first := generate(cfg)
			if tc.unwarned {
				// The warnings the second run must report.
				cfg.Warn = func(d Diagnostic) { warned = append(warned, d.String()) }
				if _, err := Load(cfg); err != nil {
					t.Fatal(err)
				}
			}
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
			emits, loads = 0, 0
			keys.Store(0)
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
			if tc.corrupt != "" {
				records, err := filepath.Glob(filepath.Join(cache, "*"))
				if err != nil || len(records) == 0 {
					t.Fatalf("no records in the cache directory (%v)", err)
				}
				for _, r := range records {
					if err := os.WriteFile(r, []byte(tc.corrupt), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			cfg.Fresh = tc.fresh
			cfg.BuildFlags = tc.flags
			report := cfg.Warn
			if tc.quiet {
				cfg.Warn = nil
			}
			got := generate(cfg)
			cfg.Warn = report
			if emits != tc.emits {
				t.Errorf("emitted %d times, want %d", emits, tc.emits)
			}
			if wantLoads := max(tc.loads, tc.emits); loads != wantLoads {
				t.Errorf("loaded with types %d times, want %d", loads, wantLoads)
			}
			// The light load's key is the full load's: a run that does
			// both computes it once.
			if n := keys.Load(); n != 1 {
				t.Errorf("input key computed %d times, want once", n)
			}
			if !strings.Contains(string(got), tc.want) {
				t.Errorf("generated file lacks %q", tc.want)
			}
			if tc.emits == 0 && string(got) != string(first) {
				t.Errorf("reused file differs from the one on disk")
			}
			if tc.quiet {
				warned = firstWarned // what the third run must report
			}
			if len(tc.edits) == 0 && !slices.Equal(warned, firstWarned) {
				t.Errorf("warnings %q, want those of the first run %q: a reused file must not hide them", warned, firstWarned)
			}
			if tc.warns != "" && !slices.ContainsFunc(warned, func(w string) bool { return strings.Contains(w, tc.warns) }) {
				t.Errorf("warnings %q, want one with %q", warned, tc.warns)
			}
			if tc.hand && strings.Contains(string(got), "// edited") {
				t.Errorf("the edit by hand survived generation")
			}
			if tc.want != "" && string(got) == string(first) {
				t.Errorf("the generated file did not change")
			}
			// Whatever the second run did, it left a record that the next
			// run, with the file written, reuses after the light load.
			if err := os.WriteFile(gen, got, 0o644); err != nil {
				t.Fatal(err)
			}
			secondWarned := warned
			warned, emits, loads = nil, 0, 0
			cfg.Fresh = false
			if again := generate(cfg); string(again) != string(got) {
				t.Errorf("third run: the file differs from the second run's")
			}
			if emits != 0 || loads != 0 {
				t.Errorf("third run: emitted %d times and loaded with types %d times, want neither", emits, loads)
			}
			if !slices.Equal(warned, secondWarned) {
				t.Errorf("third run: warnings %q, want those of the second %q", warned, secondWarned)
			}
		})
	}
}

// TestInputKeyAgrees holds the light load of reuseAll to the full load: the
// input key computed from either is the same, for every example package
// (their generated files on disk, as when a run reuses them), and it is
// never empty, which would disable reuse.
func TestInputKeyAgrees(t *testing.T) {
	for _, flags := range [][]string{nil, {"-tags=extra"}} {
		keys := map[string]string{}
		for _, mode := range []packages.LoadMode{keyMode, loadMode} {
			pkgs, err := packages.Load(&packages.Config{Mode: mode, Dir: "..", BuildFlags: flags}, "./examples/...")
			if err != nil {
				t.Fatal(err)
			}
			if len(pkgs) < 2 {
				t.Fatalf("loaded %d example packages, want several", len(pkgs))
			}
			for _, pkg := range pkgs {
				key := inputKey(pkg, DefaultOutput, flags)
				if key == "" {
					t.Errorf("%s (mode %v): no input key", pkg.PkgPath, mode)
				}
				if old, ok := keys[pkg.PkgPath]; ok && old != key {
					t.Errorf("%s, flags %q: light load's key %s, full load's %s", pkg.PkgPath, flags, old, key)
				}
				keys[pkg.PkgPath] = key
			}
		}
	}
}

// TestStdKeyedByStat holds the key of a standard library package to its
// files' names, sizes and modification times: a change to any of them
// changes it, and packages of modules are not taken for the standard
// library.
func TestStdKeyedByStat(t *testing.T) {
	for _, tc := range []struct {
		path   string
		module bool
		std    bool
	}{
		{"fmt", false, true},
		{"net/http", false, true},
		{"example.com/m", true, false},
		{"example.com/m", false, false},
		{"local", true, false},
	} {
		p := &packages.Package{PkgPath: tc.path}
		if tc.module {
			p.Module = &packages.Module{Path: tc.path}
		}
		if got := isStd(p); got != tc.std {
			t.Errorf("isStd(%s, module %v) = %v, want %v", tc.path, tc.module, got, tc.std)
		}
	}
	name := filepath.Join(t.TempDir(), "a.go")
	write := func(data string, mod time.Time) {
		t.Helper()
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(name, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	key := func() string {
		t.Helper()
		var b strings.Builder
		if !hashStd(&b, &packages.Package{PkgPath: "fmt", GoFiles: []string{name}}) {
			t.Fatal("hashStd failed on a file that exists")
		}
		return b.String()
	}
	then := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	write("package fmt\n", then)
	base := key()
	if again := key(); again != base {
		t.Fatalf("the key of an unchanged file changed: %q, then %q", base, again)
	}
	write("package fmt\n", then.Add(time.Second))
	if key() == base {
		t.Error("a new modification time left the key as it was")
	}
	write("package fmt // edited\n", then)
	if key() == base {
		t.Error("a new size left the key as it was")
	}
	if hashStd(io.Discard, &packages.Package{PkgPath: "fmt", GoFiles: []string{name + ".missing"}}) {
		t.Error("hashStd succeeded on a missing file")
	}
}
