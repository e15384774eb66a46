package runtime

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// A transport delivers a session's outgoing messages.
type transport interface {
	// writeMessage writes one whole message; safe for concurrent use.
	writeMessage(msg []byte) error
}

// An inliner is a transport that can run a call on the goroutine that read
// it. Handing a call to another goroutine costs a thread wake-up, the
// largest part of a round trip on a small machine; when no other request is
// waiting, running it in place is faster, as long as reading resumes
// elsewhere if the call takes long.
type inliner interface {
	// idle reports whether no further input is already waiting.
	idle() bool
}

// Session is one client connection: it owns the negotiated protocol
// revision, the requests in flight, and a way to send messages to the
// client. It does not depend on the transport that carries it.
type Session struct {
	srv *Server
	out transport
	ctx context.Context // cancelled when the session ends

	// Set by initialize, read by later requests; the read loop orders them.
	rev         revision
	initialized bool
	assumed     bool // initialized by the transport (stateless HTTP); initialize may still come
	clientName  string
	clientVer   string

	dec mcpimpl.Decoder // for the read loop only

	// inline, when the transport offers it, lets handle return a call for
	// the reading goroutine to run (inlineCall, until handle returns).
	inline     inliner
	inlineCall *callContext

	mu       sync.Mutex
	inflight callSet
	draining bool // no new request is accepted: see track
	wg       sync.WaitGroup
	workers  workers
	closed   atomic.Bool

	talk sessionTalk // server-to-client requests, log level, client capabilities
	mem  memBudget
}

type sessionKey struct{}

// SessionFromContext returns the session a handler's context belongs to, or
// nil.
func SessionFromContext(ctx context.Context) *Session {
	s, _ := ctx.Value(sessionKey{}).(*Session)
	return s
}

func newSession(ctx context.Context, srv *Server, out transport) *Session {
	s := &Session{srv: srv, out: out}
	s.mem.limit = int64(srv.opts.memBudget)
	s.ctx = context.WithValue(ctx, sessionKey{}, s)
	return s
}

// ProtocolVersion returns the negotiated protocol revision, or "" before
// initialize.
func (s *Session) ProtocolVersion() string {
	if !s.initialized {
		return ""
	}
	return s.rev.String()
}

// ClientInfo returns the name and version the client gave in initialize.
func (s *Session) ClientInfo() (name, version string) { return s.clientName, s.clientVer }

// Notify sends a notification to the client; params is raw JSON or nil.
func (s *Session) Notify(method string, params []byte) error {
	buf := getBuffer()
	defer putBuffer(buf)
	*buf = appendNotification((*buf)[:0], method, params)
	return s.out.writeMessage(*buf)
}

// send writes msg, logging a failure: the transport is gone, and the read
// side will notice.
func (s *Session) send(msg []byte) {
	if err := s.out.writeMessage(msg); err != nil && !s.closed.Load() {
		s.srv.opts.logger.Debug("write failed", "err", err)
	}
}

// wait blocks until every request in flight has been answered. From then
// on the session accepts no new request.
func (s *Session) wait() {
	s.stopTracking()
	s.wg.Wait()
}

// cancelAll cancels every request in flight: the session is ending.
func (s *Session) cancelAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.inflight.each(func(c *callContext) { c.cancel(false) })
}

var bufferPool = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

func getBuffer() *[]byte { return bufferPool.Get().(*[]byte) }

func putBuffer(b *[]byte) {
	if cap(*b) > 1<<20 {
		return // let large buffers go
	}
	*b = (*b)[:0]
	bufferPool.Put(b)
}
