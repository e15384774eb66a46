package runtime

import (
	"context"
	"sync/atomic"
	"time"
)

// Timeouts of resources/read and prompts/get. A read or a get whose
// Timeout passes is answered at once with a JSON-RPC internal error (they
// have no isError result) saying what timed out; the handler's context
// ends at the deadline, and one that ignores it runs on, its result
// discarded, keeping its place in flight until it returns, as a tool's
// does (timeout.go).

// primTimeoutError is the cause of a read's or a get's context ending at
// its deadline.
type primTimeoutError struct {
	what string // `resources/read of "uri"`, `prompts/get of "name"`
	d    time.Duration
}

func (e *primTimeoutError) Error() string { return e.what + " timed out after " + e.d.String() }

func (e *primTimeoutError) rpcError() *Error {
	return &Error{Code: CodeInternalError, Message: "Internal error: " + e.Error()}
}

// runPrimTimed runs f with the call's context bounded by d; d <= 0 runs it
// as it is. When the time is up first, it answers the timeout error at
// once and f runs on, owning the call's request buffer and its place in
// flight, which it gives back when it returns.
func runPrimTimed[T any](s *Session, c *callContext, d time.Duration, what string, f func(ctx context.Context) (T, *Error)) (T, *Error) {
	if d <= 0 {
		return f(c)
	}
	cause := &primTimeoutError{what: what, d: d}
	deadline := time.Now().Add(d)
	tctx, cancel := context.WithDeadlineCause(c, deadline, cause)
	defer cancel()
	var (
		state atomic.Int32
		res   T
		rerr  *Error
	)
	done := make(chan struct{})
	in := c.in
	go func() {
		r, e := f(tctx)
		if state.CompareAndSwap(timedRunning, timedReturned) {
			res, rerr = r, e
			close(done)
			return
		}
		// Abandoned: give back what the call held.
		s.mem.give(len(*in))
		putBuffer(in)
		s.workers.release()
	}()
	select {
	case <-done:
	case <-tctx.Done():
		if context.Cause(tctx) != error(cause) {
			// Cancelled by the client or the session's end: the
			// handler may take until the deadline to return.
			timer := time.NewTimer(time.Until(deadline))
			select {
			case <-done:
			case <-timer.C:
			}
			timer.Stop()
		}
		if state.CompareAndSwap(timedRunning, timedAbandoned) {
			c.overran = true
			var zero T
			return zero, cause.rpcError()
		}
		<-done
	}
	if rerr != nil && context.Cause(tctx) == error(cause) {
		// The handler gave up because of the deadline: say so.
		return res, cause.rpcError()
	}
	return res, rerr
}
