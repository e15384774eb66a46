package main

import (
	"os"
	"testing"

	"github.com/mcpgen/mcpgen/mcptest"
	"github.com/mcpgen/mcpgen/runtime"
)

// The tools, resources, resource templates and prompts the server lists
// are those of the committed manifest, which mcpgen inspect prints from
// the source (go test -mcptest.update rewrites it).
func TestManifest(t *testing.T) {
	root, err := os.OpenRoot(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	s := runtime.NewServer("notes", "0.1.0", MCPOptions()...)
	RegisterMCP(s, &Notes{root: root, updated: s.ResourceUpdated})
	mcptest.Golden(t, "testdata/mcp.json", mcptest.Start(t, s).Manifest(t))
}
