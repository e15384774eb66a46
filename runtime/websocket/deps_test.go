package websocket_test

import (
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
)

// TestDependencies: outside the standard library, package websocket
// depends on github.com/coder/websocket and the project's runtime alone.
func TestDependencies(t *testing.T) {
	const pkg = "github.com/mcpgen/mcpgen/runtime/websocket"
	deps := rttest.Deps(t, pkg)
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
