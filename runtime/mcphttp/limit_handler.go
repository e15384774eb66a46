package mcphttp

import (
	"net/http"
)

// LimitHandler returns a handler that applies to next the limits among
// opts that [Handler] applies to its own sessions:
// [WithMaxSessions], [WithMaxSessionsPerClient] and [WithRateLimit]; other
// options are ignored. It is for handlers that serve one session per
// request for as long as the request lasts, as the WebSocket handler does:
// each request counts against the rate and holds a session's place until
// next returns. Refusals are answered as [Handler] answers them (503 or
// 429 with Retry-After). Wrap it in [AuthorizationHandler] to count
// clients by the subject of their token rather than their IP address.
func LimitHandler(next http.Handler, opts ...Option) http.Handler {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	l := &limiter{opts: o.limits}
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if !l.admit(w, req) {
			return
		}
		slot, ok := l.openSession(w, req)
		if !ok {
			return
		}
		defer slot.release()
		next.ServeHTTP(w, req)
	})
}
