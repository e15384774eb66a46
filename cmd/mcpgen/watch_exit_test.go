package main

import (
	"errors"
	"testing"
)

func TestExitMessage(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want string
	}{
		{nil, "mcpgen watch: go exited; waiting for a change (the command has no standard input, so a server on stdio stops at once: serve HTTP, as with -http :8080)"},
		{errors.New("exit status 1"), "mcpgen watch: go exited: exit status 1; waiting for a change"},
	} {
		if got := exitMessage("go", tt.err); got != tt.want {
			t.Errorf("exitMessage(go, %v) =\n%s\nwant\n%s", tt.err, got, tt.want)
		}
	}
}
