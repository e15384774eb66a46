package main

import (
	"os"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/mcptest"
	"github.com/mcpgen/mcpgen/runtime"
)

// The tool the server lists, and the form purge_old asks with, are those
// of the committed manifest, which mcpgen inspect prints from the source
// (go test -mcptest.update rewrites it).
func TestManifest(t *testing.T) {
	root, err := os.OpenRoot(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	s := runtime.NewServer("cleanup", "0.1.0")
	RegisterMCP(s, &Cleaner{root: root, now: time.Now})
	mcptest.Golden(t, "testdata/mcp.json", mcptest.Start(t, s).Manifest(t, new(PurgeConfirm)))
}
