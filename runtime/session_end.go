package runtime

// untrack removes s from the server's live sessions and drops its
// subscriptions, when it ends: its stream's input ends or its context is
// cancelled (Serve), it is deleted, expires or is shut down (Streamable
// HTTP and HTTP+SSE), or its request is answered (stateless HTTP). The
// transports call it directly rather than waiting on the session's
// context, which would cost every idle session a callback, a child of its
// context and its Done channel. It may be called more than once.
func (srv *Server) untrack(s *Session) {
	l := &srv.live
	l.mu.Lock()
	_, tracked := l.set[s]
	delete(l.set, s)
	l.mu.Unlock()
	if tracked {
		srv.prims.unsubscribeAll(s)
	}
}
