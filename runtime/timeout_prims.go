package runtime

import (
	"context"
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
// once and f runs on (see runWithDeadline).
func runPrimTimed[T any](s *Session, c *callContext, d time.Duration, what string, f func(ctx context.Context) (T, *Error)) (T, *Error) {
	if d <= 0 {
		return f(c)
	}
	type answer struct {
		res T
		err *Error
	}
	cause := &primTimeoutError{what: what, d: d}
	out, timedOut, _ := runWithDeadline(s, c, d, cause,
		func(ctx context.Context) answer {
			res, err := f(ctx)
			return answer{res, err}
		},
		func(a answer) bool { return a.err != nil },
		nil)
	if timedOut {
		var zero T
		return zero, cause.rpcError()
	}
	return out.res, out.err
}
