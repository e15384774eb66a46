package runtime

import (
	"errors"
	"time"
)

// defaultGrace is the grace period of a shutdown: long enough for quick
// calls to finish and for a client that reads to get their answers, short
// enough that the process exits before a client that asked it to stop
// loses patience and kills it, and that a server whose client is gone
// does not linger.
const defaultGrace = 2 * time.Second

// WithShutdownGrace sets how long a session that ends — at the end of its
// input, or because its context was cancelled, for example on SIGTERM —
// waits for the calls in flight to return and for their answers to be
// written (default 2 seconds). After it, the calls left are cancelled,
// their answers abandoned, and Serve returns. d ≤ 0 means no limit: the
// session waits for every call, however long it takes and whether or not
// the client reads.
func WithShutdownGrace(d time.Duration) Option { return func(o *options) { o.grace = d } }

// errAbandoned is what a write returns once the session has abandoned its
// unwritten answers at the end of the grace period.
var errAbandoned = errors.New("the session has ended")

// stopTracking makes the session accept no new request, so that s.wg
// counts only requests accepted before.
func (s *Session) stopTracking() {
	s.mu.Lock()
	s.draining = true
	s.mu.Unlock()
}

// track counts a request in flight in s.wg, unless the session is ending:
// once wait has begun, no request may be added.
func (s *Session) track() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.draining {
		return false
	}
	s.wg.Add(1)
	return true
}

// inFlight returns how many calls are in flight.
func (s *Session) inFlight() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inflight.len()
}
