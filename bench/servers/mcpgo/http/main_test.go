package main

import (
	"fmt"
	"testing"

	"github.com/mcpgen/mcpgen/bench/internal/httpwire"
)

// TestHTTPConformance checks the answers the HTTP benchmark relies on, with
// sessions and without.
func TestHTTPConformance(t *testing.T) {
	for _, stateless := range []bool{false, true} {
		t.Run(fmt.Sprintf("stateless=%v", stateless), func(t *testing.T) {
			httpwire.Conformance(t, httpHandler(stateless), stateless)
		})
	}
}

// TestHTTPIdleSessions checks what the idle-sessions benchmark relies on:
// many sessions over a few connections, all kept until ended.
func TestHTTPIdleSessions(t *testing.T) { httpwire.IdleConformance(t, httpHandler(false), 200, 4) }
