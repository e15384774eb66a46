package generator_test

import (
	"os"
	"path/filepath"
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
