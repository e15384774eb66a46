package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestModuleEdit(t *testing.T) {
	published := source{version: "v1.2.3"}
	checkout := source{checkout: "/src/mcpgen"}
	tests := []struct {
		name   string
		goMod  string // "" for none: a new go.mod
		src    source
		want   string
		notes  editNotes
		modArg string
	}{
		{
			name:  "new module, published mcpgen",
			src:   published,
			want:  "module example.com/new\n\ngo 1.26.0\n\nrequire github.com/mcpgen/mcpgen v1.2.3\n\ntool github.com/mcpgen/mcpgen/cmd/mcpgen\n",
			notes: editNotes{changed: true, tool: true, version: "v1.2.3"},
		},
		{
			name:  "new module, from a checkout",
			src:   checkout,
			want:  "module example.com/new\n\ngo 1.26.0\n\nrequire github.com/mcpgen/mcpgen v0.0.0-00010101000000-000000000000\n\nreplace github.com/mcpgen/mcpgen => /src/mcpgen\n\ntool github.com/mcpgen/mcpgen/cmd/mcpgen\n",
			notes: editNotes{changed: true, tool: true, replace: "/src/mcpgen"},
		},
		{
			name:  "existing module that requires mcpgen already",
			goMod: "module example.com/old\n\ngo 1.26\n\nrequire github.com/mcpgen/mcpgen v1.0.0\n",
			src:   checkout,
			want:  "module example.com/old\n\ngo 1.26\n\nrequire github.com/mcpgen/mcpgen v1.0.0\n\ntool github.com/mcpgen/mcpgen/cmd/mcpgen\n",
			notes: editNotes{changed: true, tool: true},
		},
		{
			name:  "existing module with its own replace",
			goMod: "module example.com/old\n\ngo 1.26\n\nreplace github.com/mcpgen/mcpgen => ../mcpgen\n",
			src:   checkout,
			want:  "module example.com/old\n\ngo 1.26\n\nreplace github.com/mcpgen/mcpgen => ../mcpgen\n\nrequire github.com/mcpgen/mcpgen v0.0.0-00010101000000-000000000000\n\ntool github.com/mcpgen/mcpgen/cmd/mcpgen\n",
			notes: editNotes{changed: true, tool: true},
		},
		{
			name:  "nothing to do",
			goMod: "module example.com/old\n\ngo 1.26\n\nrequire github.com/mcpgen/mcpgen v1.0.0\n\ntool github.com/mcpgen/mcpgen/cmd/mcpgen\n",
			src:   published,
			want:  "module example.com/old\n\ngo 1.26\n\nrequire github.com/mcpgen/mcpgen v1.0.0\n\ntool github.com/mcpgen/mcpgen/cmd/mcpgen\n",
		},
		{
			name:  "mcpgen's own module",
			goMod: "module github.com/mcpgen/mcpgen\n\ngo 1.26\n",
			src:   checkout,
			want:  "module github.com/mcpgen/mcpgen\n\ngo 1.26\n\ntool github.com/mcpgen/mcpgen/cmd/mcpgen\n",
			notes: editNotes{changed: true, tool: true},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.goMod != "" {
				if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(tt.goMod), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			sub := filepath.Join(dir, "srv")
			m, err := planModule(sub, map[bool]string{true: "example.com/new"}[tt.goMod == ""])
			if err != nil {
				t.Fatal(err)
			}
			if m.created != (tt.goMod == "") {
				t.Errorf("created = %v", m.created)
			}
			got, notes, err := m.edit(tt.src)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("go.mod:\n%s\nwant:\n%s", got, tt.want)
			}
			if notes != tt.notes {
				t.Errorf("notes = %+v, want %+v", notes, tt.notes)
			}
		})
	}
}

func TestPlanModuleErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := planModule(filepath.Join(dir, "a b"), ""); err == nil || !strings.Contains(err.Error(), `"a b" cannot be a module path`) {
		t.Errorf("a directory name that is no module path: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n"), 0o644)
	if _, err := planModule(filepath.Join(dir, "x"), "example.com/other"); err == nil || !strings.Contains(err.Error(), "already inside module example.com/m") {
		t.Errorf("-module inside another module: %v", err)
	}
	if m, err := planModule(filepath.Join(dir, "x", "y"), "example.com/m"); err != nil || m.root != dir {
		t.Errorf("-module naming the enclosing module: %+v, %v", m, err)
	}
}

// Run from a checkout (as the tests are), mcpgen finds it.
func TestSourceIsTheCheckout(t *testing.T) {
	src, err := mcpgenSource()
	if err != nil {
		t.Fatal(err)
	}
	root, _ := filepath.Abs("../..")
	if src.version != "" || src.checkout != root {
		t.Errorf("source = %+v, want the checkout %s", src, root)
	}
}
