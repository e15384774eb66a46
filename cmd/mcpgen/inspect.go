package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/mcpgen/mcpgen/generator"
	"github.com/mcpgen/mcpgen/internal/manifest"
)

const inspectUsage = "usage: mcpgen inspect [-strict] [-tags list] [-breaking old.json] [packages]"

// runInspect is mcpgen inspect: it prints the manifest of the packages'
// tools, resources, resource templates and prompts, or with -breaking the
// changes from an older manifest.
func runInspect(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcpgen inspect", flag.ContinueOnError)
	fs.SetOutput(stderr)
	tags := fs.String("tags", "", "comma-separated build tags to load packages with")
	breaking := fs.String("breaking", "", "compare with this manifest (an earlier mcpgen inspect output) and list the changes; exit 1 if any is breaking")
	strict := fs.Bool("strict", false, "exit 1 when there are warnings")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "%s\n\n", inspectUsage)
		fmt.Fprintf(stderr, "Prints the MCP manifest of the packages' tools — names, titles, descriptions, input and\noutput schemas, annotations, as tools/list sends them — and of their resources, resource\ntemplates and prompts, as JSON, without running anything.\nWith -breaking, lists each change from the older manifest as breaking or compatible.\nWarnings about the code are printed on standard error, as mcpgen prints them.\n\n")
		fs.PrintDefaults()
	}
	if status, ok := parseFlags(fs, args); !ok {
		return status
	}
	m, wd, warnings, status := loadManifest(fs.Args(), *tags, stderr)
	if m == nil {
		return status
	}
	if *breaking == "" {
		out, err := m.Encode()
		if err != nil {
			fmt.Fprintln(stderr, "mcpgen inspect:", err)
			return 1
		}
		stdout.Write(out)
		return strictStatus(stderr, "mcpgen inspect", *strict, warnings, 0)
	}
	data, err := os.ReadFile(*breaking)
	if err != nil {
		fmt.Fprintln(stderr, "mcpgen inspect:", err)
		return 1
	}
	old, err := manifest.Parse(data)
	if err != nil {
		fmt.Fprintf(stderr, "mcpgen inspect: %s: %v\n", relative(wd, *breaking), err)
		return 1
	}
	changes, err := manifest.Compare(old, m)
	if err != nil {
		fmt.Fprintln(stderr, "mcpgen inspect:", err)
		return 1
	}
	n := 0
	for _, c := range changes {
		fmt.Fprintln(stdout, c)
		if c.Breaking {
			n++
		}
	}
	status = 0
	if len(changes) == 0 {
		// Said on stderr, so that stdout stays the list of changes.
		fmt.Fprintf(stderr, "mcpgen inspect: no changes since %s\n", *breaking)
	}
	if n > 0 {
		fmt.Fprintf(stderr, "mcpgen inspect: %d breaking %s since %s\n", n, plural(n, "change", "changes"), *breaking)
		status = 1
	}
	return strictStatus(stderr, "mcpgen inspect", *strict, warnings, status)
}

// strictStatus returns status, or 1 after saying why when -strict is set
// and there were warnings.
func strictStatus(stderr io.Writer, cmd string, strict bool, warnings, status int) int {
	if strict && warnings > 0 {
		fmt.Fprintf(stderr, "%s: %d warning(s), and -strict is set\n", cmd, warnings)
		return 1
	}
	return status
}

// loadManifest builds the manifest of the packages, printing the
// generator's warnings on stderr as mcpgen does, and returns it with the
// working directory and the number of warnings; on failure it reports and
// returns nil and the exit status.
func loadManifest(patterns []string, tags string, stderr io.Writer) (m *manifest.Manifest, wd string, warnings, status int) {
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(stderr, "mcpgen:", err)
		return nil, "", 0, 1
	}
	cfg := generator.Config{Dir: wd, Patterns: patterns}
	held := &heldWarnings{wd: wd}
	cfg.Warn = held.add
	if tags != "" {
		cfg.BuildFlags = []string{"-tags=" + tags}
	}
	pkgs, err := generator.Load(cfg)
	status = report(stderr, wd, err)
	warnings = len(held.diags)
	held.print(stderr)
	if err != nil {
		return nil, wd, warnings, status
	}
	m, err = manifest.FromPackages(pkgs)
	if err != nil {
		fmt.Fprintln(stderr, "mcpgen:", err)
		return nil, wd, warnings, 1
	}
	return m, wd, warnings, 0
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
