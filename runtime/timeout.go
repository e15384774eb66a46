package runtime

import (
	"context"
	"sync/atomic"
	"time"
)

// WithToolTimeout bounds the time of every tool call (default: no bound);
// a tool's own [Tool.Timeout] overrides it. When a call's time is up, its
// context ends, with a deadline the handler can read from ctx.Deadline, and
// the client gets an isError result saying that the tool timed out after d.
//
// The answer does not wait for the handler: one that ignores its context
// runs on, its result discarded, and keeps its place among the session's
// calls in flight ([WithMaxInFlight]) and its request's bytes in the
// memory budget ([WithMemoryBudget]) until it returns. d <= 0 means no
// bound.
func WithToolTimeout(d time.Duration) Option { return func(o *options) { o.toolTimeout = d } }

// timeout returns the time a call of t may take; 0 means no bound.
func (t *Tool) timeout(srv *Server) time.Duration {
	switch {
	case t.Timeout > 0:
		return t.Timeout
	case t.Timeout < 0:
		return 0
	}
	return max(srv.opts.toolTimeout, 0)
}

// toolTimeoutError is the cause of a call context's end at its deadline.
type toolTimeoutError struct {
	tool string
	d    time.Duration
}

func (e *toolTimeoutError) Error() string {
	return "tool " + quote(e.tool) + " timed out after " + e.d.String()
}

// Timed call states.
const (
	timedRunning   = iota
	timedReturned  // the handler returned in time; its result is the answer
	timedAbandoned // answered at the deadline; the handler cleans up when it returns
)

// runToolTimed calls the handler under the tool's timeout, if any. When
// the time is up first, it answers at once and reports abandoned: the
// handler runs on, owning req and the call's request buffer, which it
// releases with the call's place in flight when it returns.
func (s *Session) runToolTimed(ctx context.Context, tool *Tool, req *ToolRequest) (*CallToolResult, error, bool) {
	d := tool.timeout(s.srv)
	c, _ := ctx.(*callContext)
	if d <= 0 || c == nil {
		// Without a timeout the call allocates nothing here: the
		// results the goroutine below shares live in its own frame.
		res, err := runTool(ctx, s.srv, tool, req)
		return res, err, false
	}
	return s.runToolDeadline(c, tool, req, d)
}

// runToolDeadline is runToolTimed when a timeout d applies.
func (s *Session) runToolDeadline(c *callContext, tool *Tool, req *ToolRequest, d time.Duration) (*CallToolResult, error, bool) {
	type answer struct {
		res *CallToolResult
		err error
	}
	req.Arguments = c.ownForDeadline(req.Arguments) // callalias.go
	cause := &toolTimeoutError{tool: tool.Name, d: d}
	out, timedOut, abandoned := runWithDeadline(s, c, d, cause,
		func(ctx context.Context) answer {
			res, err := runTool(ctx, s.srv, tool, req)
			return answer{res, err}
		},
		func(a answer) bool { return a.err != nil },
		func() { // the handler owned req: pool it as callTool would have
			req.Name, req.Arguments, req.Session = "", nil, nil
			req.dec.Reset(nil, "")
			toolRequests.Put(req)
		})
	if timedOut {
		return ErrorResult(cause.Error()), nil, abandoned
	}
	return out.res, out.err, false
}

// runWithDeadline runs f with the call's context bounded by d, whose end
// has cause. It returns f's result when f returns first; otherwise it
// reports timedOut at the deadline (or, after a cancellation, when f
// returns or the deadline passes, whichever is first), and timedOut too
// when f failed because of the deadline. An abandoned f runs on, owning
// the call's request buffer and its place in flight: when it returns,
// release gives back what else it held, then the buffer and the place.
func runWithDeadline[R any](s *Session, c *callContext, d time.Duration, cause error, f func(context.Context) R, failed func(R) bool, release func()) (out R, timedOut, abandoned bool) {
	deadline := time.Now().Add(d)
	tctx, cancel := context.WithDeadlineCause(c, deadline, cause)
	defer cancel()
	var state atomic.Int32
	done := make(chan struct{})
	in := c.in
	go func() {
		r := f(tctx)
		if state.CompareAndSwap(timedRunning, timedReturned) {
			out = r
			close(done)
			return
		}
		// Abandoned: give back what the call held.
		if release != nil {
			release()
		}
		s.mem.give(len(*in))
		putBuffer(in)
		s.workers.release()
	}()
	select {
	case <-done:
	case <-tctx.Done():
		if context.Cause(tctx) != cause {
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
			return out, true, true
		}
		<-done
	}
	// A handler that gave up because of the deadline timed out too.
	return out, failed(out) && context.Cause(tctx) == cause, false
}
