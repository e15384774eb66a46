package scale

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcpgen/mcpgen/generator"
)

// Write writes the server of the given kind with n tools into dir, which
// must lie inside the bench module so that it builds with the module's
// dependencies; for mcpgen it also generates mcp_gen.go.
func Write(dir, kind string, n int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(Source(kind, n)), 0o644); err != nil {
		return err
	}
	if kind != "mcpgen" {
		return nil
	}
	files, err := generator.Generate(generator.Config{Dir: dir})
	if err != nil {
		return fmt.Errorf("generating the %d-tool server: %w", n, err)
	}
	for _, f := range files {
		if err := os.WriteFile(f.Path, f.Content, 0o644); err != nil {
			return err
		}
	}
	return nil
}
