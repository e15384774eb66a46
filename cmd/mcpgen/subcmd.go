package main

import "strings"

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
		if editDistance(arg, c) <= 2 {
			return c
		}
	}
	return ""
}

// editDistance is the Levenshtein distance of a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
