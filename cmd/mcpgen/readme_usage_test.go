package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The README's synopsis of the command is the usage that mcpgen -h prints.
func TestReadmeUsage(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if status := run([]string{"-h"}, &stdout, &stderr); status != 0 {
		t.Fatalf("mcpgen -h: exit status %d", status)
	}
	var want []string
	for line := range strings.Lines(stderr.String()) {
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		want = append(want, strings.TrimPrefix(line, "usage: "))
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	block := "```\n" + strings.Join(want, "\n") + "\n```\n"
	if !bytes.Contains(readme, []byte(block)) {
		t.Errorf("README.md has no block with the usage of mcpgen -h:\n%s", block)
	}
}
