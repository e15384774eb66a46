package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpgen/mcpgen/generator"
	"github.com/mcpgen/mcpgen/templates"
)

// runInit is mcpgen init: it writes the starter server and generates its
// code.
func runInit(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcpgen init", flag.ContinueOnError)
	fs.SetOutput(stderr)
	name := fs.String("name", "", "the server's name, as it introduces itself to clients (default: the directory's name)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: mcpgen init [-name name] [dir]\n\n")
		fmt.Fprintf(stderr, "Writes a starter MCP server (main.go, tools.go) into dir, default \".\", inside a Go module,\nand generates its mcp_gen.go.\n\n")
		fs.PrintDefaults()
	}
	if status, ok := parseFlags(fs, args); !ok {
		return status
	}
	if fs.NArg() > 1 {
		fs.Usage()
		return 2
	}
	dir := "."
	if fs.NArg() == 1 {
		dir = fs.Arg(0)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		fmt.Fprintln(stderr, "mcpgen init:", err)
		return 1
	}
	if !inModule(abs) {
		fmt.Fprintf(stderr, "mcpgen init: %s is not inside a Go module; run go mod init first\n", dir)
		return 1
	}
	if *name == "" {
		*name = filepath.Base(abs)
	}
	files, contents, err := templates.ServerFiles(templates.Server{Name: *name})
	if err != nil {
		fmt.Fprintln(stderr, "mcpgen init:", err)
		return 1
	}
	var exist []string
	for _, f := range append(files, generator.DefaultOutput) {
		if _, err := os.Stat(filepath.Join(abs, f)); err == nil {
			exist = append(exist, filepath.Join(dir, f))
		}
	}
	if len(exist) > 0 {
		fmt.Fprintf(stderr, "mcpgen init: not overwriting %s; run it in a new directory\n", strings.Join(exist, ", "))
		return 1
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		fmt.Fprintln(stderr, "mcpgen init:", err)
		return 1
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(abs, f), contents[f], 0o644); err != nil {
			fmt.Fprintln(stderr, "mcpgen init:", err)
			return 1
		}
		fmt.Fprintln(stdout, "wrote", filepath.Join(dir, f))
	}
	gen, err := generator.Generate(generator.Config{Dir: abs})
	if err != nil {
		return report(stderr, abs, err)
	}
	for _, f := range gen {
		if err := os.WriteFile(f.Path, f.Content, 0o644); err != nil {
			fmt.Fprintln(stderr, "mcpgen init:", err)
			return 1
		}
		fmt.Fprintln(stdout, "wrote", filepath.Join(dir, filepath.Base(f.Path)))
	}
	fmt.Fprintf(stdout, "\nNext: go mod tidy, then go run %s and talk to it over stdio;\nadd tools to tools.go and run go generate.\n", relDir(dir))
	return 0
}

// inModule reports whether dir or a parent holds a go.mod.
func inModule(dir string) bool {
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return false
		}
		dir = parent
	}
}

// relDir spells dir as go run wants a local package.
func relDir(dir string) string {
	if filepath.IsAbs(dir) || strings.HasPrefix(dir, ".") {
		return dir
	}
	return "./" + dir
}
