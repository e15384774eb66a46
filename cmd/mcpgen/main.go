// Command mcpgen generates MCP server code from Go functions annotated with
// //mcp:tool. Run it from go generate:
//
//	//go:generate go tool mcpgen
//
// Usage:
//
//	mcpgen [-output file] [-check] [-tags list] [packages]
//
// With no packages it generates for the package in the current directory.
// -check writes nothing and exits 1, printing a diff, when a generated file
// is stale: the CI guard that keeps schemas in sync with code.
//
// Exit status: 0 on success (and, with -check, when everything is in sync),
// 1 when the code has problems or a file is stale, 2 on a usage error.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpgen/mcpgen/generator"
	"github.com/rogpeppe/go-internal/diff"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the whole command; it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcpgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	output := fs.String("output", generator.DefaultOutput, "name of the generated file in each package")
	check := fs.Bool("check", false, "write nothing; exit 1 with a diff if a generated file is stale")
	tags := fs.String("tags", "", "comma-separated build tags to load packages with")
	dump := fs.Bool("dump", false, "print the model of each package instead of generating (for debugging)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: mcpgen [-output file] [-check] [-tags list] [packages]\n\n")
		fmt.Fprintf(stderr, "Generates MCP tool registration for functions annotated with //mcp:tool.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(stderr, "mcpgen:", err)
		return 1
	}
	cfg := generator.Config{Dir: wd, Patterns: fs.Args(), Output: *output}
	if *tags != "" {
		cfg.BuildFlags = []string{"-tags=" + *tags}
	}
	if *dump {
		pkgs, err := generator.Load(cfg)
		if err != nil {
			return report(stderr, wd, err)
		}
		for _, p := range pkgs {
			p.Dump(stdout)
		}
		return 0
	}
	files, err := generator.Generate(cfg)
	if err != nil {
		return report(stderr, wd, err)
	}
	status := 0
	for _, f := range files {
		old, readErr := os.ReadFile(f.Path)
		exists := readErr == nil
		rel := relative(wd, f.Path)
		switch {
		case f.Content == nil && !exists, f.Content != nil && exists && bytes.Equal(old, f.Content):
			continue // in sync
		case *check:
			if f.Content == nil {
				fmt.Fprintf(stdout, "%s: stale: the package has no //mcp: annotations any more; remove the file\n", rel)
			} else {
				fmt.Fprintf(stdout, "%s", diff.Diff(rel+" (on disk)", old, rel+" (generated)", f.Content))
			}
			status = 1
		case f.Content == nil:
			if err := os.Remove(f.Path); err != nil {
				fmt.Fprintln(stderr, "mcpgen:", err)
				return 1
			}
		default:
			if err := os.WriteFile(f.Path, f.Content, 0o644); err != nil {
				fmt.Fprintln(stderr, "mcpgen:", err)
				return 1
			}
		}
	}
	if status != 0 {
		fmt.Fprintln(stderr, "mcpgen: generated files are stale; run go generate")
	}
	return status
}

// report prints an error: diagnostics one per line, relative to wd.
func report(stderr io.Writer, wd string, err error) int {
	var diags generator.Diagnostics
	if errors.As(err, &diags) {
		for _, d := range diags.Relative(wd) {
			fmt.Fprintln(stderr, d.String())
		}
		return 1
	}
	fmt.Fprintln(stderr, "mcpgen:", err)
	return 1
}

func relative(wd, path string) string {
	if rel, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return path
}
