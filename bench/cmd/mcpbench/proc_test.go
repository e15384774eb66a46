package main

import (
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/bench/internal/wire"
)

// TestSessionAgainstFloor drives the floor server through every phase the
// benchmark runs, briefly.
func TestSessionAgainstFloor(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a server")
	}
	bin := filepath.Join(t.TempDir(), "floor")
	if out, err := exec.Command("go", "build", "-o", bin, "../../servers/floor/stdio").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	p, d, err := startProc("floor", bin)
	if err != nil {
		t.Fatal(err)
	}
	if d <= 0 {
		t.Errorf("start time %v", d)
	}
	for range 3 * fullEvery {
		if _, err := p.call(); err != nil {
			t.Fatal(err)
		}
	}
	n, _, lat, err := p.sequential(50*time.Millisecond, nil)
	if err != nil || n == 0 || len(lat) != n {
		t.Fatalf("sequential: %d calls, %d latencies, %v", n, len(lat), err)
	}
	if n, _, err := p.pipelined(50*time.Millisecond, 8); err != nil || n == 0 {
		t.Fatalf("pipelined: %d calls, %v", n, err)
	}
	schema, err := p.schemaSummary()
	if err != nil {
		t.Fatal(err)
	}
	if want := "pattern required, limit integer 1..100 default 10, closed"; schema != want {
		t.Errorf("schema %q, want %q", schema, want)
	}
	for _, c := range wire.BadCases {
		got, err := p.bad(c)
		if err != nil {
			t.Fatal(err)
		}
		if got != c.Expected() {
			t.Errorf("%s: %s, want %s", c.Label, got, c.Expected())
		}
	}
	if rss, err := p.peakRSS(); err != nil || rss <= 0 {
		t.Errorf("peak RSS %d, %v", rss, err)
	}
	if exited, clean := p.close(); !exited || !clean {
		t.Errorf("close: exited %v, clean %v", exited, clean)
	}
}
