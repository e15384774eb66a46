package mcphttp_test

import (
	"testing"

	"github.com/mcpgen/mcpgen/internal/apicheck"
)

// mcphttpAPI is the reviewed list of the package's exported names: what a
// user of the HTTP transport reads in its documentation. A name added here
// is a name every user sees, and must be kept.
var mcphttpAPI = `
	const MetadataPath
	const Path
	func AuthorizationHandler
	func Handler
	func LimitHandler
	func ListenAndServe
	func WithAllowedHosts
	func WithAllowedOrigins
	func WithAuthorization
	func WithMaxSessions
	func WithMaxSessionsPerClient
	func WithRateLimit
	func WithSessionIdleTimeout
	func WithStateless
	type Authorization
	type Option
	type TokenVerifier
`

// TestExportedAPI holds the package's exported names to the reviewed list
// mcphttpAPI, so that nothing is exported by accident, and checks that no
// exported declaration shows a type of package mcpimpl or of an internal
// package.
func TestExportedAPI(t *testing.T) {
	apicheck.Check(t, ".", mcphttpAPI, "mcphttpAPI",
		"unexport it, or add it to the list if users are to call it", "mcpimpl", "ratelimit")
}
