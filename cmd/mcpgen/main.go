// Command mcpgen generates MCP server code from Go functions annotated with
// //mcp:tool. Run it from go generate:
//
//	//go:generate go tool mcpgen
//
// Usage:
//
//	mcpgen [-output file] [-check] [-strict] [-v] [-tags list] [-dump] [packages]
//	mcpgen init [-name name] [-module path] [dir]
//	mcpgen inspect [-strict] [-tags list] [-breaking old.json] [packages]
//	mcpgen docs [-strict] [-tags list] [-o file] [-check] [packages]
//	mcpgen watch [-output file] [-tags list] [-debounce duration] [packages] [-- command [args...]]
//
// With no packages it generates for the package in the current directory.
// -check writes nothing and exits 1, printing a diff, when a generated file
// is stale: the CI guard that keeps schemas in sync with code. Warnings
// (file:line:col: warning: …) about code that works but hurts models and
// clients are printed to stderr; -strict makes them fail the run. -v
// lists every generated file, written or unchanged.
//
// init writes a starter server into dir, default ".", which must be empty
// but for go.mod, go.sum and dot files: main.go (stdio, or -http ADDR), tools.go with one
// annotated tool, tools_test.go (in-process, with package mcptest),
// README.md and .gitignore. When dir is in no module it writes go.mod
// (module path -module, default the directory's name); it adds the mcpgen
// tool directive and, unless the module requires mcpgen already, a
// requirement of the running version — or, when mcpgen runs from a
// checkout rather than a published version, a replace directive to that
// checkout. Then it runs go mod tidy and generates mcp_gen.go and
// mcp.json, the server's manifest, which the test holds the server to. If
// any step fails, everything it wrote is undone.
//
// inspect prints the manifest of the packages' tools as JSON — what
// tools/list would send — and of their resources, prompts and forms
// (runtime.AskForm), from the source, without running anything.
// With -breaking old.json it lists every change since that manifest,
// classified breaking or compatible, and exits 1 if any is breaking.
//
// docs writes a Markdown reference of the tools to standard output or,
// with -o, to a file: the whole file, or only the part between the lines
// <!-- mcpgen docs: begin --> and <!-- mcpgen docs: end --> when it has
// them. -check writes nothing and exits 1, printing a diff, when the file
// is stale.
//
// inspect and docs print the generator's warnings on stderr, as mcpgen
// does, apart from what they write; -strict makes them exit 1 after
// writing it.
//
// watch generates, runs command, and on every saved change of the
// packages' non-test Go files (debounced) generates again and restarts
// command, stopping its whole process group first; when generation fails
// it prints the problems and keeps the running command. Ctrl-C stops both.
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
	"runtime/debug"
	"strings"

	"github.com/mcpgen/mcpgen/generator"
	"github.com/rogpeppe/go-internal/diff"
)

func main() {
	if os.Getenv("GOGC") == "" {
		// A run is short and its heap small; collecting less often saves
		// about a sixth of the time spent rendering a large package.
		debug.SetGCPercent(400)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the whole command; it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "init":
			return runInit(args[1:], stdout, stderr)
		case "inspect":
			return runInspect(args[1:], stdout, stderr)
		case "docs":
			return runDocs(args[1:], stdout, stderr)
		case "watch":
			return runWatch(args[1:], stdout, stderr)
		}
		if c := mistypedCommand(args[0]); c != "" {
			fmt.Fprintf(stderr, "mcpgen: unknown command %q (did you mean mcpgen %s?); run mcpgen -h for the usage\n", args[0], c)
			return 2
		}
	}
	fs := flag.NewFlagSet("mcpgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	output := fs.String("output", generator.DefaultOutput, "name of the generated file in each package")
	check := fs.Bool("check", false, "write nothing; exit 1 with a diff if a generated file is stale")
	tags := fs.String("tags", "", "comma-separated build tags to load packages with")
	dump := fs.Bool("dump", false, "print the model of each package instead of generating (for debugging)")
	verbose := fs.Bool("v", false, "list every generated file, written or unchanged")
	strict := fs.Bool("strict", false, "exit 1 when there are warnings")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: mcpgen [-output file] [-check] [-strict] [-v] [-tags list] [-dump] [packages]\n")
		fmt.Fprintf(stderr, "       mcpgen init [-name name] [-module path] [dir]\n")
		fmt.Fprintf(stderr, "       mcpgen inspect [-strict] [-tags list] [-breaking old.json] [packages]\n")
		fmt.Fprintf(stderr, "       mcpgen docs [-strict] [-tags list] [-o file] [-check] [packages]\n")
		fmt.Fprintf(stderr, "       mcpgen watch [-output file] [-tags list] [-debounce duration] [packages] [-- command [args...]]\n\n")
		fmt.Fprintf(stderr, "Writes mcp_gen.go in each package: the MCP tools, resources, prompts and completions\nof the functions annotated //mcp:tool, //mcp:resource, //mcp:prompt and //mcp:complete,\nwith their schemas, decoders and RegisterMCP.\n\n")
		fs.PrintDefaults()
	}
	if status, ok := parseFlags(fs, args); !ok {
		return status
	}
	if err := generator.CheckOutput(*output); err != nil {
		fmt.Fprintln(stderr, "mcpgen:", err)
		fs.Usage()
		return 2
	}
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(stderr, "mcpgen:", err)
		return 1
	}
	cfg := generator.Config{Dir: wd, Patterns: fs.Args(), Output: *output}
	held := &heldWarnings{wd: wd}
	cfg.Warn = held.add
	if *tags != "" {
		cfg.BuildFlags = []string{"-tags=" + *tags}
	}
	if *dump {
		pkgs, err := generator.Load(cfg)
		status := report(stderr, wd, err)
		held.print(stderr)
		if err != nil {
			return status
		}
		for _, p := range pkgs {
			p.Dump(stdout)
		}
		return 0
	}
	files, err := generator.Generate(cfg)
	status := report(stderr, wd, err)
	warnings := len(held.diags)
	held.print(stderr)
	if err != nil {
		return status
	}
	var stale []string
	if len(files) == 0 {
		fmt.Fprintf(stderr, "mcpgen: no //mcp: annotations (//mcp:tool, //mcp:resource, //mcp:prompt) in %s; nothing generated\n", describePatterns(fs.Args()))
	}
	for _, f := range files {
		old, readErr := os.ReadFile(f.Path)
		exists := readErr == nil
		rel := relative(wd, f.Path)
		switch {
		case f.Content == nil && !exists:
			continue // in sync
		case f.Content != nil && exists && bytes.Equal(old, f.Content):
			if *verbose {
				fmt.Fprintf(stderr, "unchanged %s\n", rel)
			}
		case *check:
			switch {
			case f.Content == nil:
				fmt.Fprintf(stdout, "%s: stale: the package has no //mcp: annotations any more; remove the file\n", rel)
			case !exists:
				// A diff of the whole file would only bury the news.
				fmt.Fprintf(stdout, "%s: missing: the package has //mcp: annotations but no generated file\n", rel)
				rel += missingMark
			default:
				fmt.Fprintf(stdout, "%s", diff.Diff(rel+" (on disk)", old, rel+" (generated)", f.Content))
			}
			stale = append(stale, rel)
			status = 1
		case f.Content == nil:
			if err := os.Remove(f.Path); err != nil {
				fmt.Fprintln(stderr, "mcpgen:", err)
				return 1
			}
			fmt.Fprintf(stderr, "removed %s: no annotations left\n", rel)
		default:
			// Generated content starts with the generated-code header; a
			// file without it was written by hand and is not replaced.
			header, _, _ := bytes.Cut(f.Content, []byte("\n"))
			if exists && !bytes.HasPrefix(old, header) {
				fmt.Fprintf(stderr, "mcpgen: %s was not generated by mcpgen; not overwriting it (rename it, or choose another name with -output)\n", rel)
				return 1
			}
			if err := os.WriteFile(f.Path, f.Content, 0o644); err != nil {
				fmt.Fprintln(stderr, "mcpgen:", err)
				return 1
			}
			if *verbose {
				fmt.Fprintf(stderr, "wrote %s\n", rel)
			}
		}
	}
	if len(stale) > 0 {
		fmt.Fprintln(stderr, staleMessage(stale, fs.Args()))
	}
	if *strict && warnings > 0 {
		fmt.Fprintf(stderr, "mcpgen: %d warning(s), and -strict is set\n", warnings)
		return 1
	}
	return status
}

// parseFlags parses args; when that ends the command (-h, or a usage
// error, already reported) it returns the exit status and false.
func parseFlags(fs *flag.FlagSet, args []string) (int, bool) {
	err := fs.Parse(args)
	switch {
	case err == nil:
		return 0, true
	case errors.Is(err, flag.ErrHelp):
		return 0, false
	}
	return 2, false
}

// report prints an error: diagnostics one per line, relative to wd; it
// returns the exit status, 0 for no error.
func report(stderr io.Writer, wd string, err error) int {
	if err == nil {
		return 0
	}
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
