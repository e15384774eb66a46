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

// describePatterns names the packages of a command line, for messages.
func describePatterns(patterns []string) string {
	if len(patterns) == 0 {
		return "the package in this directory"
	}
	return strings.Join(patterns, " ")
}
