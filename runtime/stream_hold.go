package runtime

import (
	"bytes"
	"time"
)

// A client that pipelines — sends requests without waiting for the answers
// to earlier ones — is served the way the input arrives: in runs. While a
// further request is already buffered, the reading goroutine runs quick
// calls itself rather than waking a worker for each, and the answers stay
// in the write buffer, so that the answers to a run go out in one system
// call instead of one each. The answers are written when the buffered
// requests are used up, before the reader waits for more input, at least
// every maxHold, and every maxHeld messages: a client that sends new
// requests as answers arrive then works on the first answers of a long
// run while the reader works on the rest, instead of the two taking turns.

// maxHold bounds how long answers stay in the write buffer while the reader
// works through buffered requests.
const maxHold = 200 * time.Microsecond

// maxHeld bounds how many messages the reader handles while it holds their
// answers: half a run of 64, as clients that pipeline keep in flight.
const maxHeld = 32

// holdCheck is how many messages the reader handles between two looks at
// the clock while it holds answers.
const holdCheck = 8

// secondLook is how long the handoff timer waits, after it first finds a
// call run on the reading goroutine long, before it looks again and hands
// reading over if the call still runs and has run handoffDelay.
const secondLook = 50 * time.Microsecond

// slowMemory is how long a session hands calls to workers, once a call has
// outlasted handoffDelay, instead of running them on the reading goroutine
// while further requests wait.
const slowMemory = 2 * time.Millisecond

// A holder is a transport that may hold answers back while its reader
// works (streamConn); release writes them, before the reader waits.
type holder interface{ release() }

// moreBuffered reports whether a further whole line is already buffered, so
// that the next read returns it without waiting for the client.
func (c *streamConn) moreBuffered() bool {
	n := c.r.Buffered()
	if n == 0 {
		return false
	}
	b, _ := c.r.Peek(n)
	return bytes.IndexByte(b, '\n') >= 0
}

// pace is called by the reader after each read: it holds the answers while
// a further request is buffered, and ends the hold, writing what it held,
// when none is. The hold belongs to the reader: it never waits for input,
// for room in the memory budget or for a slot of the calls in flight while
// it holds answers, and when a call it runs outlasts handoffDelay the next
// reader takes over the hold.
func (c *streamConn) pace() {
	c.busy = c.moreBuffered()
	if !c.busy {
		c.release()
		return
	}
	if !c.hold.Load() {
		c.hold.Store(true)
		c.holdSince, c.held = time.Now(), 0
		return
	}
	if c.held++; c.held >= maxHeld {
		c.flush()
		c.holdSince, c.held = time.Now(), 0
		return
	}
	if c.held%holdCheck != 0 {
		return
	}
	if now := time.Now(); now.Sub(c.holdSince) > maxHold {
		c.flush()
		c.holdSince = now
	}
}

// release ends the hold and writes what it held.
func (c *streamConn) release() {
	if c.hold.Load() {
		c.hold.Store(false)
		c.flush()
	}
}

// idle reports whether a call may run on the reading goroutine (see
// inliner): when no further request is buffered, and while the client
// pipelines as long as no call of the session outlasted handoffDelay in
// the last slowMemory. Slow calls go to workers, so that they run in
// parallel.
func (c *streamConn) idle() bool {
	if !c.busy {
		return true
	}
	until := c.slowUntil.Load()
	if until == 0 {
		return true
	}
	if time.Since(c.start) > time.Duration(until) {
		c.slowUntil.CompareAndSwap(until, 0)
		return true
	}
	return false
}

// A call run on the reading goroutine is watched by one timer for the
// whole run of calls, not armed and stopped for each: the reader records
// when each call begins (running), and the timer, when it fires, either
// finds the call in progress overdue and starts the next reader, or sets
// itself for when that call will be, or, finding no call, stays unset
// until the reader runs the next one. Each call may run handoffDelay on the
// reader, as with a timer of its own. A call is overdue when the timer
// finds it still running at two looks secondLook apart: a stall of the
// whole process (a collection's pause, a busy machine) that makes a quick
// call look long at the first look, and delays the timer as much, has
// ended by the second, and with it the call; without the second look most
// handoffs on a busy machine were of quick calls.

// beginCall records that the reader starts a call and sets the handoff
// timer if it is not set; the result is the call's token for endCall.
func (c *streamConn) beginCall() int64 {
	began := int64(time.Since(c.start)) + 1 // never 0, which means no call
	c.running.Store(began)
	if c.armed.CompareAndSwap(false, true) {
		c.handoff.Reset(handoffDelay)
		c.arms.Add(1)
	}
	return began
}

// endCall records that the reader's call began returned and reports
// whether the reader goes on reading: false when the call outlasted
// handoffDelay and another goroutine reads now.
func (c *streamConn) endCall(began int64) bool {
	return c.running.CompareAndSwap(began, 0)
}

// watch is the handoff timer's function.
func (c *streamConn) watch() {
	for {
		began := c.running.Load()
		if began <= 0 {
			// No call runs on the reader: the timer stays unset, unless
			// a call began while it was being unset and the reader found
			// it still set.
			c.armed.Store(false)
			if c.running.Load() <= 0 || !c.armed.CompareAndSwap(false, true) {
				return
			}
			continue
		}
		ran := time.Since(c.start) - time.Duration(began-1)
		if ran < handoffDelay-secondLook {
			c.handoff.Reset(handoffDelay - secondLook - ran)
			return
		}
		if c.overdue.Swap(began) != began {
			// The first look at a long call: the reader may only have
			// been held up with the whole process, by a collection's
			// pause or the machine's scheduler, which delays this timer
			// as much, and then ends the call before the second look.
			c.handoff.Reset(max(secondLook, handoffDelay-ran))
			return
		}
		if ran < handoffDelay {
			c.handoff.Reset(handoffDelay - ran)
			return
		}
		if c.running.CompareAndSwap(began, -1) {
			c.armed.Store(false) // the next reader sets it for its calls
			c.takeOver()
			return
		}
		// The call returned meanwhile: look again.
	}
}

// takeOver starts a reader in place of one whose call outlasted
// handoffDelay: it marks the session's calls as slow and writes the answers
// its predecessor held.
func (c *streamConn) takeOver() {
	c.slowUntil.Store(int64(time.Since(c.start) + slowMemory))
	c.release()
	c.leaveBuffer() // stream_buffer.go
	c.readLoop()
}
