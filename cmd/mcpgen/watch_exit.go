package main

import "fmt"

// exitMessage says that the watched command, name, ended with err on its
// own. A command that ended well and at once is most often a server on
// stdio: the watch gives it no standard input, so it sees the end of its
// input and stops.
func exitMessage(name string, err error) string {
	if err != nil {
		return fmt.Sprintf("mcpgen watch: %s exited: %v; waiting for a change", name, err)
	}
	return fmt.Sprintf("mcpgen watch: %s exited; waiting for a change (the command has no standard input, so a server on stdio stops at once: serve HTTP, as with -http :8080)", name)
}
