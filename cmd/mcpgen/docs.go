package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/mcpgen/mcpgen/internal/manifest"
	"github.com/rogpeppe/go-internal/diff"
)

const docsUsage = "usage: mcpgen docs [-strict] [-tags list] [-o file] [-check] [packages]"

// runDocs is mcpgen docs: it writes the Markdown reference of the
// packages' tools and other primitives, or with -check reports whether
// the file is stale.
func runDocs(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("mcpgen docs", flag.ContinueOnError)
	flags.SetOutput(stderr)
	tags := flags.String("tags", "", "comma-separated build tags to load packages with")
	output := flags.String("o", "", "the Markdown file to write (default: standard output); in a file with the lines\n"+manifest.BeginMarker+" and "+manifest.EndMarker+"\nonly what is between them is replaced")
	check := flags.Bool("check", false, "write nothing; exit 1 with a diff if the -o file is stale")
	strict := flags.Bool("strict", false, "exit 1 when there are warnings")
	flags.Usage = func() {
		fmt.Fprintf(stderr, "%s\n\n", docsUsage)
		fmt.Fprintf(stderr, "Writes a Markdown reference of the packages' tools: a table of tools, then each tool's\narguments with their types, constraints, defaults and descriptions; then their resources,\nresource templates and prompts. Warnings about the code are printed on standard error,\nas mcpgen prints them.\n\n")
		flags.PrintDefaults()
	}
	if status, ok := parseFlags(flags, args); !ok {
		return status
	}
	if *check && *output == "" {
		fmt.Fprintln(stderr, "mcpgen docs: -check needs the file to check, -o file")
		flags.Usage()
		return 2
	}
	m, wd, warnings, status := loadManifest(flags.Args(), *tags, stderr)
	if m == nil {
		return status
	}
	update := []string{"mcpgen docs"}
	if *tags != "" {
		update = append(update, "-tags", *tags)
	}
	update = append(update, "-o", *output)
	update = append(update, flags.Args()...)
	return strictStatus(stderr, "mcpgen docs", *strict, warnings, writeDocs(m, wd, *output, *check, strings.Join(update, " "), stdout, stderr))
}

// writeDocs writes the reference of m to stdout or to the file output,
// or with check compares it with the file, naming the command that
// updates it, update, when it is stale; it returns the exit status.
func writeDocs(m *manifest.Manifest, wd, output string, check bool, update string, stdout, stderr io.Writer) int {
	md, err := m.Markdown()
	if err != nil {
		fmt.Fprintln(stderr, "mcpgen docs:", err)
		return 1
	}
	if output == "" {
		stdout.Write(md)
		return 0
	}
	old, err := os.ReadFile(output)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintln(stderr, "mcpgen docs:", err)
		return 1
	}
	doc, err := manifest.Document(old, md)
	if err != nil {
		fmt.Fprintf(stderr, "mcpgen docs: %s: %v\n", output, err)
		return 1
	}
	rel := relative(wd, output)
	switch {
	case old != nil && bytes.Equal(old, doc):
		return 0
	case check:
		fmt.Fprintf(stdout, "%s", diff.Diff(rel+" (on disk)", old, rel+" (generated)", doc))
		fmt.Fprintf(stderr, "mcpgen docs: %s is stale; to update it, run %s\n", rel, update)
		return 1
	}
	if err := os.WriteFile(output, doc, 0o644); err != nil {
		fmt.Fprintln(stderr, "mcpgen docs:", err)
		return 1
	}
	return 0
}
