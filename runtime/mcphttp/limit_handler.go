package mcphttp

import (
	"net/http"

	"github.com/mcpgen/mcpgen/runtime/internal/ratelimit"
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
//
// Under [WithRateLimit], the WebSocket handler of package
// [github.com/mcpgen/mcpgen/runtime/websocket] also counts the messages a
// client sends over its connection, in the same bucket as the client's
// connection attempts: a request that finds the bucket empty is answered
// with the JSON-RPC error a refused HTTP request has as its body, code
// -32600 and data {"retryAfter": seconds}, and is not handled. A
// notification takes a token when there is one and is handled all the
// same, since JSON-RPC lets nothing be answered to it; responses to the
// server's requests are not counted.
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
		if admit := l.messageAdmit(req); admit != nil {
			req = req.WithContext(ratelimit.WithAdmit(req.Context(), admit))
		}
		next.ServeHTTP(w, req)
	})
}
