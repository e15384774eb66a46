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
	once sync.Once
	work chan *callContext
	stop chan struct{}
	idle atomic.Int32
}

// maxIdle bounds the goroutines kept waiting for work per session.
const maxIdle = 64

func (w *workers) init() {
	w.once.Do(func() {
		w.work = make(chan *callContext)
		w.stop = make(chan struct{})
	})
}

// run starts c on an idle worker or a new one.
func (w *workers) run(s *Session, c *callContext) {
	w.init()
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
func (w *workers) close() {
	w.init()
	close(w.stop)
}
