package generator_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generator"
)

// Outside any module the go command matches no package and reports
// nothing; Generate says that the folder is in no module, and the fix.
func TestNoModule(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tools.go"), []byte("package tools\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOWORK", "off")
	t.Setenv("GOFLAGS", "")
	_, err := generator.Generate(generator.Config{Dir: dir})
	if err == nil {
		t.Fatal("Generate outside a module: no error")
	}
	want := dir + " is in no Go module (no go.mod in it or a parent): run go mod init MODULE-PATH, or mcpgen init for a new server"
	if err.Error() != want {
		t.Errorf("Generate outside a module:\n got %s\nwant %s", err, want)
	}
}

// A folder named without ./ is read by the go command as a package of the
// standard library; the error says how to name the folder.
func TestFolderWithoutDotSlash(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"go.mod":           "module example.com/m\n\ngo 1.26\n",
		"search/search.go": "package search\n",
	} {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GOWORK", "off")
	t.Setenv("GOFLAGS", "")
	for _, tt := range []struct {
		pattern string
		hint    bool
	}{
		{"search", true},
		{"nosuch", false},
	} {
		_, err := generator.Generate(generator.Config{Dir: dir, Patterns: []string{tt.pattern}})
		if err == nil {
			t.Errorf("Generate %s: no error", tt.pattern)
			continue
		}
		const hint = "(for the folder search, write ./search)"
		if got := strings.Contains(err.Error(), hint); got != tt.hint {
			t.Errorf("Generate %s: %v; want the hint %q: %v", tt.pattern, err, hint, tt.hint)
		}
	}
}
