package runtime

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// The transport surface: what a transport that does not run a session
// over a byte stream ([Server.Serve] does that) needs of the session core.
// Package [github.com/mcpgen/mcpgen/runtime/mcphttp], Streamable HTTP and
// HTTP+SSE, is built on it; servers do not call it.

// An Exchange takes what the server sends in answer to one incoming
// message, for a transport that answers each message on a channel of its
// own, as an HTTP POST has its response. Its methods may be called from
// any goroutine; msg may be reused once they return.
//
// An Exchange whose messages can go on an event stream that the client
// resumes may also have a method CloseStream(retry time.Duration) error,
// which [CloseStream] calls.
type Exchange interface {
	// Reply takes the response to a request of the message.
	Reply(msg []byte)
	// Related takes a message that belongs to a request's exchange but is
	// not its response: a notification (progress, a log message) or a
	// request to the client, sent while the request is handled. It fails
	// when the exchange is over.
	Related(msg []byte) error
	// Begin and End bracket a request that is answered after
	// [Session.Handle] returns.
	Begin()
	End()
}

// sendFunc is the transport of a session opened with OpenSession.
type sendFunc func(msg []byte) error

func (f sendFunc) writeMessage(msg []byte) error { return f(msg) }

// OpenSession starts a session of s for a transport: send writes a
// message the server sends outside any request's exchange (a list-changed
// notification, a request to the client) and fails when the client cannot
// receive it; it must be safe for concurrent use. Handlers' contexts
// derive from ctx, whose values they see ([ContextWithPrincipal]); its
// cancellation cancels them. The transport hands the session its incoming
// messages with [Session.Handle] and ends it with [Session.End].
func (s *Server) OpenSession(ctx context.Context, send func(msg []byte) error) *Session {
	return newSession(ctx, s, sendFunc(send))
}

// AssumeVersion makes a session opened with [Server.OpenSession] serve
// requests as if initialize had negotiated protocol revision version, for
// a transport whose requests stand alone (stateless HTTP); an initialize
// may still come. It fails if version is not one of [SupportedVersions].
func (s *Session) AssumeVersion(version string) error {
	rev, ok := headerRevision(version)
	if !ok || version == "" {
		return fmt.Errorf("runtime: unsupported protocol version %q", version)
	}
	s.rev, s.initialized, s.assumed = rev, true, true
	return nil
}

// Handle hands a session opened with [Server.OpenSession] one incoming
// message, a JSON-RPC message or a batch, whose answers go to x; a nil x
// sends them as the session sends messages of its own. Calls of Handle
// must not overlap; msg may be reused once it returns. When x is not nil,
// Handle may leave a request of the message for the caller to run, on its
// own goroutine, before it waits for the exchange to end: the Call it
// returns.
func (s *Session) Handle(msg []byte, x Exchange) Call {
	if x == nil {
		s.handle(msg)
		return Call{}
	}
	return Call{s, s.handleFor(msg, x)} // x is the replier (dispatch.go)
}

// A Call is a request that [Session.Handle] left for the transport to run;
// the zero Call has none.
type Call struct {
	s *Session
	c *callContext
}

// Run runs the request, if any, and returns once it is answered.
func (c Call) Run() {
	if c.c != nil {
		c.s.runCall(c.c)
	}
}

// CancelExchange cancels the calls in flight whose answers go to x, as
// when the client cancels them: their answers can no longer reach it.
func (s *Session) CancelExchange(x Exchange) { s.cancelFor(x) }

// End ends a session opened with [Server.OpenSession]: the calls in flight
// are cancelled, its subscriptions dropped, and notifications no longer go
// to it. It must be called once, after the transport has stopped handing
// it messages.
func (s *Session) End() {
	s.closed.Store(true)
	s.srv.untrack(s) // session_end.go
	s.cancelAll()
	s.workers.close(s)
}

// MaxMessageSize returns the largest incoming message the server accepts,
// in bytes (see [WithMaxMessageSize]).
func (s *Server) MaxMessageSize() int { return s.opts.maxMessage }

// Answers reports whether the server answers requests of method at
// protocol revision 2026-07-28, which has no initialize: a transport may
// refuse others before they reach a session.
func (s *Server) Answers(method string) bool {
	p := &s.prims
	switch method {
	case methodDiscover, methodListen:
		return true
	case methodToolsList, methodToolsCall:
		return s.hasTools()
	case methodResourcesList, methodResourceTemplates, methodResourcesRead:
		return p.hasResources()
	case methodPromptsList, methodPromptsGet:
		return p.hasPrompts()
	case methodComplete:
		return p.hasCompletions()
	}
	return false
}

// answersThrough reports whether a call whose replier is cr answers
// through r: r itself, or a batch or a request of revision 2026-07-28
// that r carries.
func answersThrough(cr, r replier) bool {
	if b, ok := cr.(*batch); ok {
		cr = b.r
	}
	return unwrap(cr) == r
}

// ErrNoStream is matched (with errors.Is) by the error of [CloseStream]
// when the request has no event stream that its client could resume.
var ErrNoStream = errors.New("the request has no resumable event stream")

// streamCloser is an Exchange whose request's event stream can be ended
// while the request is handled, for the client to resume it later.
type streamCloser interface {
	CloseStream(retry time.Duration) error
}

// CloseStream ends the event stream that carries the answer to the request
// of ctx, a handler's context, while the handler goes on (polling, as
// revision 2025-11-25 allows): the client reconnects after retry (when
// retry > 0; otherwise after the delay the stream's first event gave),
// with GET and Last-Event-ID, and receives what the handler sent from then
// on, its result included. A long call thus holds no connection.
//
// Only a request of a Streamable HTTP session at revision 2025-11-25 or
// later, over HTTP/1.1, has such a stream; elsewhere (stdio, WebSocket, a
// stateless server, HTTP/2, an earlier revision) it
// returns an error matching [ErrNoStream], and the handler goes on as if
// it had not been called.
func CloseStream(ctx context.Context, retry time.Duration) error {
	c, _ := ctx.Value(callKey{}).(*callContext)
	if c == nil {
		return errors.New("runtime: CloseStream: the context is not a handler's context of a request")
	}
	c.mu.Lock()
	err, r := c.err, c.r
	c.mu.Unlock()
	if err != nil {
		return fmt.Errorf("runtime: CloseStream: %w", err)
	}
	sc, _ := r.(streamCloser) // a transport's Exchange, if it has a stream
	if sc == nil {
		return fmt.Errorf("runtime: CloseStream: %w: the transport has none", ErrNoStream)
	}
	if s := SessionFromContext(ctx); s != nil && s.rev < rev20251125 {
		// Earlier revisions ask servers to keep the stream open until the
		// response: their clients need not resume it.
		return fmt.Errorf("runtime: CloseStream: %w: clients of protocol revision %s do not expect a stream to end before its response", ErrNoStream, s.rev)
	}
	return sc.CloseStream(retry)
}
