package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readmeFile matches a code block of the README that is a whole file, the
// block marked with a comment naming the file.
var readmeFile = regexp.MustCompile("(?s)<!-- file: (\\S+) -->\n```go\n(.*?)```\n")

// The README's "Use it in your module" files, copied as shown into a new
// module, generate, build, vet and pass their test.
func TestReadmeModuleCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files := readmeFile.FindAllSubmatch(readme, -1)
	var names []string
	for _, f := range files {
		name := string(f[1])
		names = append(names, name)
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, f[2], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Join(names, " "); got != "search/search.go main.go search/search_test.go" {
		t.Fatalf("README files = %s, want search/search.go main.go search/search_test.go", got)
	}
	goMod := "module example.com/you\n\ngo 1.26\n\nrequire github.com/mcpgen/mcpgen v0.0.0\n\nreplace github.com/mcpgen/mcpgen => " + root + "\n\ntool github.com/mcpgen/mcpgen/cmd/mcpgen\n"
	goSum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte(goMod), 0o644)
	os.WriteFile(filepath.Join(dir, "go.sum"), goSum, 0o644)
	for _, args := range [][]string{
		{"mod", "tidy"},
		{"generate", "./..."},
		{"build", "-o", os.DevNull, "./..."},
		{"vet", "./..."},
		{"test", "-count=1", "./search", "-mcptest.update"},
		{"test", "-count=1", "./..."},
	} {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "search", "testdata", "mcp.json")); err != nil {
		t.Errorf("the README's test wrote no manifest: %v", err)
	}
}
