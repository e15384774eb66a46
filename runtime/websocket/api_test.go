package websocket_test

import (
	"testing"

	"github.com/mcpgen/mcpgen/internal/apicheck"
)

// websocketAPI is the reviewed list of the package's exported names.
var websocketAPI = `
	const Subprotocol
	func Handler
	func WithAllowedHosts
	func WithOriginPatterns
	func WithReadLimit
	type Option
`

// TestExportedAPI holds the package's exported names to the reviewed list
// websocketAPI, so that nothing is exported by accident.
func TestExportedAPI(t *testing.T) {
	got, leaks, err := apicheck.Exported(".", "mcpimpl", "ratelimit")
	if err != nil {
		t.Fatal(err)
	}
	extra, missing := apicheck.Compare(got, websocketAPI)
	for _, n := range extra {
		t.Errorf("%s is exported but not in the reviewed list websocketAPI: unexport it, or add it to the list if users are to call it", n)
	}
	for _, n := range missing {
		t.Errorf("%s is in websocketAPI but no longer exported: remove it from the list", n)
	}
	for _, l := range leaks {
		t.Errorf("%s shows a type of an internal package to users", l)
	}
}
