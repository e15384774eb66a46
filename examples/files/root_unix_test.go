//go:build unix

package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestToolsStayInRoot asks the tools for paths outside their root: a
// parent, an absolute path, a symbolic link that points out. None is
// listed or searched; what is inside is.
func TestToolsStayInRoot(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	secret := filepath.Join(base, "secret")
	for _, dir := range []string{filepath.Join(root, "inside"), secret} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(secret, "key.txt"), []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "inside", "ok.txt"), []byte("ok"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../secret", filepath.Join(root, "inside", "rel")); err != nil {
		t.Fatal(err)
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	f := &FS{root: r.FS()}
	ctx := context.Background()
	for _, tc := range []struct {
		dir string
		ok  bool
	}{
		{"inside", true},
		{"", true},
		{"..", false},
		{"../secret", false},
		{"inside/../../secret", false},
		{secret, false},
		{"/", false},
		{"link", false},
		{"inside/rel", false},
	} {
		l, err := f.ListDir(ctx, ListArgs{Dir: tc.dir})
		if tc.ok != (err == nil) {
			t.Errorf("list_dir %q: %+v, %v; want ok=%v", tc.dir, l, err, tc.ok)
		}
		for _, e := range l.Entries {
			if e.Name == "key.txt" {
				t.Errorf("list_dir %q listed a file outside the root", tc.dir)
			}
		}
	}
	found, err := f.SearchFiles(ctx, SearchArgs{Pattern: "*.txt", Recursive: true, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(found, "key.txt") || !strings.Contains(found, "inside/ok.txt") {
		t.Errorf("search_files *.txt = %q, want inside/ok.txt and nothing outside the root", found)
	}
}
