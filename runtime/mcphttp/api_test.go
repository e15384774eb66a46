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
	got, leaks, err := apicheck.Exported(".", "mcpimpl", "ratelimit")
	if err != nil {
		t.Fatal(err)
	}
	extra, missing := apicheck.Compare(got, mcphttpAPI)
	for _, n := range extra {
		t.Errorf("%s is exported but not in the reviewed list mcphttpAPI: unexport it, or add it to the list if users are to call it", n)
	}
	for _, n := range missing {
		t.Errorf("%s is in mcphttpAPI but no longer exported: remove it from the list", n)
	}
	for _, l := range leaks {
		t.Errorf("%s shows a type of package mcpimpl or of an internal package to users; keep the plumbing unexported", l)
	}
}
