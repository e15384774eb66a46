package runtime

import (
	"sync"
	"sync/atomic"
)

// workers runs calls on goroutines that outlive a single call: a new
// goroutine costs its creation and, for a handler of any depth, the growth
// of its stack, which a warm goroutine has already paid for. A call goes to
// an idle worker when there is one, else to a new goroutine, so calls never
// wait for each other; a worker stays idle for the next call only while
// fewer than maxIdle others do.
type workers struct {
	once  sync.Once
	work  chan *callContext
	stop  chan struct{}
	slots slots // one per call in flight, inline or not (slots.go)
	idle  atomic.Int32
}

// maxIdle bounds the goroutines kept waiting for work per session.
const maxIdle = 64

func (w *workers) init(limit int) {
	w.once.Do(func() {
		w.work = make(chan *callContext)
		w.stop = make(chan struct{})
		w.slots.limit = int64(max(limit, 1))
	})
}

// acquire takes a slot for a call about to start, waiting while the
// session's limit of calls in flight is reached; runCall gives it back.
func (w *workers) acquire(s *Session) {
	w.init(s.srv.opts.maxInFlight)
	if w.slots.take() {
		return
	}
	if h, ok := s.out.(holder); ok {
		h.release() // nothing is held while the reader waits
	}
	w.slots.wait()
}

func (w *workers) release() { w.slots.give() }

// run starts c on an idle worker or a new one.
func (w *workers) run(s *Session, c *callContext) {
	select {
	case w.work <- c:
	default:
		go w.loop(s, c)
	}
}

func (w *workers) loop(s *Session, c *callContext) {
	for {
		s.runCall(c)
		if w.idle.Add(1) > maxIdle {
			w.idle.Add(-1)
			return
		}
		select {
		case c = <-w.work:
			w.idle.Add(-1)
		case <-w.stop:
			w.idle.Add(-1)
			return
		}
	}
}

// close lets the idle workers end.
func (w *workers) close(s *Session) {
	w.init(s.srv.opts.maxInFlight)
	close(w.stop)
}
