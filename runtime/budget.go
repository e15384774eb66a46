package runtime

import (
	"sync"
	"sync/atomic"
)

// defaultMemBudget is the default of WithMemoryBudget.
const defaultMemBudget = 64 << 20

// WithMemoryBudget sets how many bytes of messages one session may hold
// (default 64 MiB): the requests being handled plus the answers not yet
// written. While it holds the budget or more, the session reads no further
// message, so a client that sends large requests faster than it reads the
// answers slows down instead of growing the server. The budget is checked
// before each read, so a session may exceed it by the last message read and
// by the answers of the calls that were running then. What a handler
// allocates for itself is not counted, nor is the session's read buffer,
// which grows up to the message size limit (see WithMaxMessageSize).
// n < 1 means no budget.
func WithMemoryBudget(n int) Option { return func(o *options) { o.memBudget = n } }

// memBudget counts the bytes a session holds for requests being handled
// and answers not yet written. Taking and giving back are one atomic
// addition each; only a reader over the limit takes the lock.
type memBudget struct {
	limit   int64 // < 1: no limit
	used    atomic.Int64
	waiters atomic.Int32

	mu   sync.Mutex
	wake chan struct{} // closed when used falls below limit; nil when no one waits
}

// take counts n more bytes held.
func (b *memBudget) take(n int) { b.used.Add(int64(n)) }

// give counts n fewer bytes held, waking the readers that wait for room.
func (b *memBudget) give(n int) {
	if b.used.Add(-int64(n)) < b.limit && b.waiters.Load() > 0 {
		b.mu.Lock()
		if b.wake != nil {
			close(b.wake)
			b.wake = nil
		}
		b.mu.Unlock()
	}
}

// over reports whether the session holds the whole budget or more.
func (b *memBudget) over() bool { return b.limit > 0 && b.used.Load() >= b.limit }

// wait blocks while the budget is used up; it reports false if done was
// closed first.
func (b *memBudget) wait(done <-chan struct{}) bool {
	for b.over() {
		b.mu.Lock()
		// Counted before used is read again, so that a give that this
		// read does not see sees the waiter and wakes it.
		b.waiters.Add(1)
		if !b.over() {
			b.waiters.Add(-1)
			b.mu.Unlock()
			return true
		}
		if b.wake == nil {
			b.wake = make(chan struct{})
		}
		wake := b.wake
		b.mu.Unlock()
		select {
		case <-wake:
			b.waiters.Add(-1)
		case <-done:
			b.waiters.Add(-1)
			return false
		}
	}
	return true
}
