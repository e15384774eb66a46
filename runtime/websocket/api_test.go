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
	apicheck.Check(t, ".", websocketAPI, "websocketAPI",
		"unexport it, or add it to the list if users are to call it", "mcpimpl", "ratelimit")
}
