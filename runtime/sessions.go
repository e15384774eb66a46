package runtime

import (
	"context"
	"sync"
)

// sessionSet is the set of a server's live sessions, for announcements that
// go to every client, such as a changed list of tools.
type sessionSet struct {
	mu sync.Mutex
	m  map[*Session]struct{}
}

// add registers s until its context ends.
func (set *sessionSet) add(s *Session) {
	set.mu.Lock()
	if set.m == nil {
		set.m = map[*Session]struct{}{}
	}
	set.m[s] = struct{}{}
	set.mu.Unlock()
	context.AfterFunc(s.ctx, func() {
		set.mu.Lock()
		delete(set.m, s)
		set.mu.Unlock()
	})
}

// notifyAll sends a notification to every live session whose client has
// completed initialization; params is raw JSON or nil. A session whose
// transport fails is left to notice on its own.
func (srv *Server) notifyAll(method string, params []byte) {
	srv.sessions.mu.Lock()
	live := make([]*Session, 0, len(srv.sessions.m))
	for s := range srv.sessions.m {
		if s.talk.ready.Load() && !s.closed.Load() {
			live = append(live, s)
		}
	}
	srv.sessions.mu.Unlock()
	for _, s := range live {
		if err := s.Notify(method, params); err != nil {
			srv.opts.logger.Debug("notification not delivered", "method", method, "err", err)
		}
	}
}
