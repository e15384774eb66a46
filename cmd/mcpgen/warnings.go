package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/mcpgen/mcpgen/generator"
)

// printWarning prints a generator warning as file:line:col: warning: …,
// relative to wd.
func printWarning(w io.Writer, wd string, d generator.Diagnostic) {
	d = generator.Diagnostics{d}.Relative(wd)[0]
	d.Msg = "warning: " + d.Msg
	fmt.Fprintln(w, d.String())
}

// heldWarnings holds the generator's warnings of a run, to be printed
// after its errors: the errors are what to fix first, and the warnings
// (of the packages without errors, and comments that look like
// directives) are not to be lost among them.
type heldWarnings struct {
	wd    string
	diags []generator.Diagnostic
}

// add is a generator.Config.Warn.
func (h *heldWarnings) add(d generator.Diagnostic) { h.diags = append(h.diags, d) }

// print prints the warnings held, and forgets them.
func (h *heldWarnings) print(w io.Writer) {
	for _, d := range h.diags {
		printWarning(w, h.wd, d)
	}
	h.diags = nil
}

// describePatterns names the packages of a command line, for messages.
func describePatterns(patterns []string) string {
	if len(patterns) == 0 {
		return "the package in this directory"
	}
	return strings.Join(patterns, " ")
}
