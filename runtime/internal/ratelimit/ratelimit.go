// Package ratelimit carries a client's rate limit from the HTTP handler
// that counts the request opening a connection (mcphttp.LimitHandler) to
// the handler it wraps, which serves a session over that connection
// (package websocket) and counts the session's messages in the same
// bucket. It holds no limiter of its own: the bucket stays in mcphttp, and
// the transport stays free of it.
package ratelimit

import (
	"context"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// Admit counts one message a client sends over its connection against the
// client's bucket. A request (request true) that finds the bucket empty is
// refused: Admit returns the error to answer it with. A notification takes
// a token when there is one and is never refused, as nothing can be
// answered to it. Admit is safe for concurrent use.
type Admit func(request bool) *runtime.Error

type admitKey struct{}

// WithAdmit returns ctx carrying admit.
func WithAdmit(ctx context.Context, admit Admit) context.Context {
	return context.WithValue(ctx, admitKey{}, admit)
}

// AdmitFrom returns the Admit ctx carries, or nil when the connection's
// messages are not limited.
func AdmitFrom(ctx context.Context) Admit {
	a, _ := ctx.Value(admitKey{}).(Admit)
	return a
}

type clockKey struct{}

// WithClock returns ctx carrying now, the clock the buckets of requests
// with ctx refill by, so that tests need not sleep.
func WithClock(ctx context.Context, now func() time.Time) context.Context {
	return context.WithValue(ctx, clockKey{}, now)
}

// Now returns the time by the clock of ctx: the one set by WithClock, else
// the system's.
func Now(ctx context.Context) time.Time {
	if now, ok := ctx.Value(clockKey{}).(func() time.Time); ok {
		return now()
	}
	return time.Now()
}
