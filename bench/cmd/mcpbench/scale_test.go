package main

import (
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestListAllAgainstFloor lists the floor server's one tool as the scale
// phase lists, and checks that the time of decoding the answers is
// measured and is part of the listing's.
func TestListAllAgainstFloor(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a server")
	}
	bin := filepath.Join(t.TempDir(), "floor")
	if out, err := exec.Command("go", "build", "-o", bin, "../../servers/floor/stdio").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	p, _, err := startProc("floor", bin)
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	t0 := time.Now()
	tools, pages, size, decode, err := p.listAll()
	total := time.Since(t0)
	if err != nil {
		t.Fatal(err)
	}
	if tools < 1 || pages != 1 || size == 0 {
		t.Errorf("listed %d tools in %d pages of %d bytes, want some in 1", tools, pages, size)
	}
	if decode <= 0 || decode > total {
		t.Errorf("decoding took %v of the listing's %v", decode, total)
	}
}
