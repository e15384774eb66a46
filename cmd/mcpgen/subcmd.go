package main

import (
	"strings"

	"github.com/mcpgen/mcpgen/internal/spell"
)

// subcommands are the commands of mcpgen other than generating.
var subcommands = []string{"init", "inspect", "docs", "watch"}

// mistypedCommand returns the subcommand that arg, a first argument that
// is no subcommand, was likely meant to be: a word (no path, no dot) that
// starts one, or differs from one by at most two letters. Such a word is
// never a package of the user's module: their import paths have a dot or
// a slash.
func mistypedCommand(arg string) string {
	if arg == "" || strings.ContainsAny(arg, "./\\-") {
		return ""
	}
	for _, c := range subcommands {
		if strings.HasPrefix(c, arg) && len(arg) >= 3 {
			return c
		}
	}
	for _, c := range subcommands {
		if spell.Distance(arg, c) <= 2 {
			return c
		}
	}
	return ""
}
