package websocket_test

import (
	"context"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestDependencies: outside the standard library, package websocket
// depends on github.com/coder/websocket and the project's runtime alone.
func TestDependencies(t *testing.T) {
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatal("the go command is needed to list imports:", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	const pkg = "github.com/mcpgen/mcpgen/runtime/websocket"
	out, err := exec.CommandContext(ctx, gocmd, "list", "-deps", pkg).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, pkg) {
		t.Fatalf("go list -deps did not list the package itself: %q", deps)
	}
	for _, dep := range deps {
		first, _, _ := strings.Cut(dep, "/")
		switch {
		case !strings.Contains(first, "."), dep == "github.com/coder/websocket", strings.HasPrefix(dep, "github.com/coder/websocket/"):
		case dep == pkg, strings.HasPrefix(dep, "github.com/mcpgen/mcpgen/runtime"):
		default:
			t.Errorf("%s depends on %s", pkg, dep)
		}
	}
}
