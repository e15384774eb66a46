package main

import (
	"fmt"
	"strings"
)

// missingMark follows the name of a stale file that does not exist yet.
const missingMark = " (missing)"

// staleMessage is what -check says after the diffs of the stale files:
// which files (those not written yet marked with missingMark), and the
// command that brings them up to date.
func staleMessage(stale, patterns []string) string {
	update := "go generate"
	if len(patterns) > 0 {
		update += " " + strings.Join(patterns, " ")
	}
	update += " (or this mcpgen command without -check)"
	if len(stale) == 1 && strings.HasSuffix(stale[0], missingMark) {
		return fmt.Sprintf("mcpgen: %s is missing; to write it, run %s", strings.TrimSuffix(stale[0], missingMark), update)
	}
	if len(stale) == 1 {
		return fmt.Sprintf("mcpgen: %s is stale; to update it, run %s", stale[0], update)
	}
	return fmt.Sprintf("mcpgen: %d generated files are stale (%s); to update them, run %s", len(stale), strings.Join(stale, ", "), update)
}
