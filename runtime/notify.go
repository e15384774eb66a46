package runtime

import "sync"

// liveSessions is the set of initialized sessions a server is serving, to
// which it sends notifications of its own accord (a list changed, a
// resource was updated).
type liveSessions struct {
	mu  sync.Mutex
	set map[*Session]struct{}
}

// track adds s to the server's live sessions once it is initialized.
// Called by initialize, on the session's read loop; the transport that
// serves s calls untrack when s ends (session_end.go).
func (srv *Server) track(s *Session) {
	l := &srv.live
	l.mu.Lock()
	if l.set == nil {
		l.set = map[*Session]struct{}{}
	}
	l.set[s] = struct{}{}
	l.mu.Unlock()
}

// sessions returns the live sessions for which keep is true (all when keep
// is nil).
func (srv *Server) sessions(keep func(*Session) bool) []*Session {
	l := &srv.live
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]*Session, 0, len(l.set))
	for s := range l.set {
		if keep == nil || keep(s) {
			out = append(out, s)
		}
	}
	return out
}

// notifyAll sends a notification to every live session for which keep is
// true (all when keep is nil); params is raw JSON or nil. A session whose
// transport fails is left for its read side to end.
func (srv *Server) notifyAll(method string, params []byte, keep func(*Session) bool) {
	srv.listeners.deliver(method, params, "") // revision 2026-07-28 (listen.go)
	for _, s := range srv.sessions(keep) {
		if s.closed.Load() || s.ctx.Err() != nil {
			continue
		}
		if err := s.Notify(method, params); err != nil {
			srv.opts.logger.Debug("notification not sent", "method", method, "err", err)
		}
	}
}
