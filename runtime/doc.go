// Package runtime serves MCP (Model Context Protocol) servers whose tools,
// resources and prompts mcpgen generated, or that are written by hand.
//
// Make a server with [NewServer] and its options ([WithInstructions],
// [WithPageSize], …). The RegisterMCP function that mcpgen generates adds
// a package's tools, resources and prompts to it; hand-written ones are
// added with [Server.AddTool], [Server.AddResource],
// [Server.AddResourceTemplate] (matched by [URITemplate]) and
// [Server.AddPrompt], and a [CompleteFunc] completes their arguments.
// Then serve one client on stdin and stdout with [Server.ServeStdio], or
// many over HTTP with package [github.com/mcpgen/mcpgen/runtime/mcphttp]
// (Streamable HTTP, with sessions or stateless, and the older HTTP+SSE
// transport), which a server that speaks only stdio does not link.
//
// A handler gets a request ([ToolRequest], [ResourceRequest],
// [PromptRequest]) and returns a result: [TextResult], [StructuredResult],
// [ContentResult] or [ErrorResult] for a tool, [ResourceContents] for a
// resource, a [GetPromptResult] for a prompt. While it runs it may send
// the client [Progress] and [Log] messages and ask it for input with
// [Elicit], [Sample] and [Roots] (see below); [ClientInfo] and
// [PrincipalFromContext] say who is asking.
//
// Generated code carries each tool's JSON Schema as constant JSON and
// decodes its arguments with the decoders of package
// [github.com/mcpgen/mcpgen/runtime/mcpimpl], which is for generated code
// only; no reflection describes or validates a tool. Both packages depend
// on the standard library only.
//
// A [Session] is one connection to one client. It is independent of the
// transport that carries its messages: the transport hands it incoming
// messages and gives it a way to write outgoing ones. [Server.Serve] runs
// a session over any byte stream; a transport that answers each message on a channel of its own, as HTTP
// does, opens sessions with [Server.OpenSession] and hands them messages
// with [Session.Handle], whose answers go to an [Exchange]. Servers need
// none of that surface: it is for transport packages.
//
// # Protocol revisions
//
// One server answers clients of every revision from 2024-11-05 to
// 2026-07-28, on every transport. Up to 2025-11-25 a client starts with
// initialize, which fixes the revision, its capabilities and its identity
// for the session. Revision 2026-07-28 has no initialize: each request
// carries them in params._meta, server/discover describes the server, and
// [ClientInfo], [ClientCapabilities] and the log level of [Log] are those
// of the request being handled. Over Streamable HTTP such a request stands
// alone, answered as a stateless server answers; subscriptions/listen
// replaces the server stream and resources/subscribe.
//
// # Asking the client for input
//
// [Elicit] (and [AskForm], which goes through it), [Sample] and [Roots]
// ask the client within a request. Up to
// 2025-11-25 they send a request to the client and wait for its answer.
// In 2026-07-28 the server sends no requests: inside tools/call,
// prompts/get and resources/read, a call that has no answer yet returns an
// error matching [ErrInputRequired], the request is answered with an
// InputRequiredResult asking for it, and the client sends the request
// again with the answer. The handler then runs again from the start, and
// the same calls, in the same order, return the answers given so far
// (which travel sealed in the result's requestState; see
// [WithRequestStateKey]). The same handler code thus serves both eras, as
// long as it follows two rules:
//
//   - Make the same calls to [Elicit], [Sample] and [Roots] in the same
//     order on every run: an answer belongs to the n-th call of its kind.
//     Decide what to ask from the arguments and earlier answers only.
//   - Do nothing before such a call that must not happen twice: whatever
//     runs before the last question (writing a file, charging an account,
//     sending progress or log messages) runs again on every round. Put side
//     effects after the last call that asks the client, or make them
//     idempotent, and return as soon as a call fails with
//     [ErrInputRequired].
package runtime
