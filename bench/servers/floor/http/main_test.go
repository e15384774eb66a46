package main

import (
	"net/http"
	"testing"

	"github.com/mcpgen/mcpgen/bench/internal/httpwire"
)

// TestHTTPConformance checks the answers of the floor over HTTP.
func TestHTTPConformance(t *testing.T) {
	httpwire.Conformance(t, http.HandlerFunc(httpFloor), true)
}
