package bench

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestServersLinkNoTestCode keeps test-only packages out of the benchmark
// servers: every package a binary links is initialised when it starts, and
// the driver times starts. (The servers' HTTP helper, httpserve, is apart
// from the HTTP client, httpwire, for this reason.)
func TestServersLinkNoTestCode(t *testing.T) {
	entries, err := os.ReadDir("servers")
	if err != nil {
		t.Fatal(err)
	}
	testOnly := []string{"testing", "net/http/httptest", "github.com/mcpgen/mcpgen/bench/internal/httpwire"}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		pkg := "./servers/" + e.Name()
		out, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		deps := strings.Fields(string(out))
		for _, p := range testOnly {
			if slices.Contains(deps, p) {
				t.Errorf("%s links %s", pkg, p)
			}
		}
	}
}
