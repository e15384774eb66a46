// Package rttest holds the test code that the tests of package runtime and
// of its transports share: a server that logs nowhere and the tools they
// register, a tool whose calls block until released, a buffer safe for
// concurrent writes, and a Streamable HTTP client that validates every
// message the server sends against the MCP schema of the negotiated
// revision.
//
// Only _test.go files import it: package runtime itself links no net/http,
// and this package does. It imports package runtime, so only external test
// packages (package runtime_test, package mcphttp_test) can use it.
package rttest
