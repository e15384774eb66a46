// Package mcphttp serves an MCP server ([runtime.Server]) over HTTP: the
// Streamable HTTP transport of revisions 2025-03-26 and later, with
// sessions or stateless ([WithStateless]), revision 2026-07-28, whose
// requests stand alone, and the older HTTP+SSE transport of revision
// 2024-11-05, for clients that speak only it.
//
// [ListenAndServe] runs an HTTP server for one MCP server at [Path];
// [Handler] returns the http.Handler to mount in a mux of one's own.
// Options restrict the hosts and origins requests may come from (against
// DNS rebinding), limit sessions and request rates per client, and make
// the server an OAuth 2.0 protected resource ([WithAuthorization]), whose
// handlers learn who is asking with [runtime.PrincipalFromContext].
// [AuthorizationHandler] and [LimitHandler] give other handlers, such as
// that of package [github.com/mcpgen/mcpgen/runtime/websocket], the same
// authorization and limits.
//
// It lives apart from package runtime so that a server that speaks only
// stdio does not link net/http, which costs every start of the program
// several milliseconds. Sessions are runtime's: this package carries their
// messages through the transport surface of [runtime.Server.OpenSession]
// and [runtime.Session.Handle].
package mcphttp
