package runtime

import (
	"sync"
	"sync/atomic"
)

// slots counts a session's calls in flight against its limit. Taking and
// giving back a slot are one atomic operation each, where a buffered
// channel took a lock for each; only a taker that finds none free takes
// the lock, to wait.
type slots struct {
	limit   int64
	used    atomic.Int64
	waiters atomic.Int32

	mu   sync.Mutex
	wake chan struct{} // closed when a slot is given back; nil when no one waits
}

// take takes a slot if one is free.
func (s *slots) take() bool {
	for {
		n := s.used.Load()
		if n >= s.limit {
			return false
		}
		if s.used.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

// wait takes a slot, waiting until one is free.
func (s *slots) wait() {
	for {
		s.mu.Lock()
		// Counted before the slots are looked at again, so that a give
		// that this look does not see sees the waiter and wakes it.
		s.waiters.Add(1)
		if s.take() {
			s.waiters.Add(-1)
			s.mu.Unlock()
			return
		}
		if s.wake == nil {
			s.wake = make(chan struct{})
		}
		wake := s.wake
		s.mu.Unlock()
		<-wake
		s.waiters.Add(-1)
	}
}

// give gives a slot back, waking those who wait for one.
func (s *slots) give() {
	s.used.Add(-1)
	if s.waiters.Load() > 0 {
		s.mu.Lock()
		if s.wake != nil {
			close(s.wake)
			s.wake = nil
		}
		s.mu.Unlock()
	}
}
