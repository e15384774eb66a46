package mcphttp_test

import "github.com/modelcontextprotocol/go-sdk/mcp"

// legacySession makes the Go SDK client, which prefers revision 2026-07-28,
// start with initialize at revision 2025-11-25: the tests that use it check
// the flows of that revision (initialize, sessions, logging/setLevel,
// resources/subscribe, resumable streams). Revision 2026-07-28 is tested
// with the SDK's default.
var legacySession = &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}
