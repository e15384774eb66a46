package generator

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// testModule writes a module example.com/name that requires mcpgen,
// replaced by this repository, with files (a path in the module → its
// content), lets the go command complete its go.sum (GOFLAGS=-mod=mod), and
// returns the module's folder.
func testModule(t testing.TB, name string, files map[string]string) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOFLAGS", "-mod=mod")
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "go.mod"), fmt.Sprintf("module example.com/%s\n\ngo 1.26\n\nrequire github.com/mcpgen/mcpgen v0.0.0\n\nreplace github.com/mcpgen/mcpgen => %s\n", name, root))
	for path, data := range files {
		writeTestFile(t, filepath.Join(dir, path), data)
	}
	return dir
}

// writeTestFile writes data to path, making its folder.
func writeTestFile(t testing.TB, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
