package mcphttp

import (
	"math"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/ratelimit"
)

// Limits per client of the HTTP handler: how many sessions it may hold and
// how fast it may send requests. A client is the principal's subject under
// [WithAuthorization], else the remote IP address of the connection (a
// proxy in front of the server is one client: limit there, or authorize).

// WithMaxSessions bounds the sessions the handler holds at once, those of
// HTTP+SSE clients included (default: no bound). A client that would start
// one more is answered 503 Service Unavailable with a Retry-After header,
// until sessions end (DELETE, or the idle timeout of
// [WithSessionIdleTimeout]). n < 1 means no bound.
func WithMaxSessions(n int) Option { return func(o *options) { o.limits.sessions = n } }

// WithMaxSessionsPerClient bounds the sessions one client holds at once
// (default: no bound): a client that would start one more is answered 429
// Too Many Requests with a Retry-After header. A client is the subject of
// its token under [WithAuthorization], else its IP address. n < 1 means no
// bound.
func WithMaxSessionsPerClient(n int) Option {
	return func(o *options) { o.limits.perClient = n }
}

// WithRateLimit bounds how fast one client may send requests (default: no
// bound): each client has a bucket of burst requests, refilled at perSecond
// requests a second, and a request that finds it empty is answered 429 Too
// Many Requests with a Retry-After header saying when the next one will be
// accepted, and a JSON-RPC error body whose data says the same in seconds:
// {"retryAfter": 2}. Every request to the handler counts (POST, GET,
// DELETE); the authorization metadata does not. Under [LimitHandler], the
// requests a client sends over a WebSocket connection count as well. A
// client is the subject of its token under [WithAuthorization], else its
// IP address. perSecond <= 0 means no bound; burst < 1 counts as 1.
func WithRateLimit(perSecond float64, burst int) Option {
	return func(o *options) { o.limits.rate, o.limits.burst = perSecond, max(burst, 1) }
}

// limitOptions are the options above.
type limitOptions struct {
	sessions  int     // WithMaxSessions
	perClient int     // WithMaxSessionsPerClient
	rate      float64 // WithRateLimit: tokens a second
	burst     int
}

// sessionRetryAfter is what a client refused a session is told to wait:
// sessions end when their clients delete them or go idle, at no time the
// server can foresee.
const sessionRetryAfter = 10 * time.Second

// limiter enforces the limits of one handler.
type limiter struct {
	opts limitOptions

	mu       sync.Mutex
	sessions int            // sessions held
	byClient map[string]int // sessions held per client
	buckets  map[string]*bucket
	sweepAt  int // size of buckets that triggers a sweep of full ones
}

// bucket is a client's token bucket.
type bucket struct {
	tokens float64
	last   time.Time
}

// clientKey names the client of req for the limits.
func clientKey(req *http.Request) string {
	if p := runtime.PrincipalFromContext(req.Context()); p != nil {
		return "subject " + p.Subject
	}
	host, _, err := net.SplitHostPort(req.RemoteAddr)
	if err != nil {
		host = req.RemoteAddr
	}
	return "address " + host
}

// admit counts a request against its client's rate; when the client is
// over it, it answers 429 and returns false.
func (l *limiter) admit(w http.ResponseWriter, req *http.Request) bool {
	if l.opts.rate <= 0 {
		return true
	}
	wait, ok := l.take(clientKey(req), ratelimit.Now(req.Context()), true)
	if !ok {
		refuse(w, http.StatusTooManyRequests, l.rateError(wait))
	}
	return ok
}

// take counts a message of the client key at now against its bucket. A
// request that finds the bucket empty is refused: take returns false and
// how long until a token is back. A notification (request false) takes a
// token if there is one and is never refused.
func (l *limiter) take(key string, now time.Time, request bool) (wait time.Duration, ok bool) {
	burst := float64(l.opts.burst)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.buckets == nil {
		l.buckets = map[string]*bucket{}
	}
	b := l.buckets[key]
	if b == nil {
		if len(l.buckets) >= max(l.sweepAt, 1024) {
			l.sweepLocked(now, burst)
		}
		b = &bucket{tokens: burst, last: now}
		l.buckets[key] = b
	}
	if now.After(b.last) {
		b.tokens = min(burst, b.tokens+now.Sub(b.last).Seconds()*l.opts.rate)
		b.last = now
	}
	switch {
	case b.tokens >= 1:
		b.tokens--
	case request:
		return time.Duration((1 - b.tokens) / l.opts.rate * float64(time.Second)), false
	}
	return 0, true
}

// rateError is the refusal of a request over the rate limit: retry after
// wait.
func (l *limiter) rateError(wait time.Duration) refusal {
	return retryError(runtime.CodeInvalidRequest, wait,
		"Too Many Requests: over the rate limit of "+strconv.FormatFloat(l.opts.rate, 'g', -1, 64)+" requests a second")
}

// messageAdmit returns the admission of the messages a client sends over
// the connection opened by req, counted in the bucket req was counted in;
// nil when there is no rate limit.
func (l *limiter) messageAdmit(req *http.Request) ratelimit.Admit {
	if l.opts.rate <= 0 {
		return nil
	}
	key, ctx := clientKey(req), req.Context()
	return func(request bool) *runtime.Error {
		wait, ok := l.take(key, ratelimit.Now(ctx), request)
		if ok {
			return nil
		}
		return l.rateError(wait).Error
	}
}

// sweepLocked forgets the buckets that have refilled: a new one is the
// same. It runs when the table has doubled since the last sweep, so that
// its cost is spread over the requests that grew it.
func (l *limiter) sweepLocked(now time.Time, burst float64) {
	for k, b := range l.buckets {
		if b.tokens+now.Sub(b.last).Seconds()*l.opts.rate >= burst {
			delete(l.buckets, k)
		}
	}
	l.sweepAt = 2 * len(l.buckets)
}

// sessionSlot is a session's place under the session limits.
type sessionSlot struct {
	l    *limiter
	key  string
	once sync.Once
}

// openSession takes a place for a new session of the client of req; when
// a limit is reached, it answers 503 (all sessions) or 429 (the client's)
// and returns false. The slot is nil when no session limit is set.
func (l *limiter) openSession(w http.ResponseWriter, req *http.Request) (*sessionSlot, bool) {
	if l.opts.sessions < 1 && l.opts.perClient < 1 {
		return nil, true
	}
	key := clientKey(req)
	l.mu.Lock()
	switch {
	case l.opts.sessions > 0 && l.sessions >= l.opts.sessions:
		l.mu.Unlock()
		refuse(w, http.StatusServiceUnavailable, retryError(runtime.CodeInternalError, sessionRetryAfter,
			"Service Unavailable: the server holds its maximum of "+strconv.Itoa(l.opts.sessions)+" sessions"))
		return nil, false
	case l.opts.perClient > 0 && l.byClient[key] >= l.opts.perClient:
		l.mu.Unlock()
		refuse(w, http.StatusTooManyRequests, retryError(runtime.CodeInvalidRequest, sessionRetryAfter,
			"Too Many Requests: this client holds its maximum of "+strconv.Itoa(l.opts.perClient)+" sessions; end one (DELETE) before starting another"))
		return nil, false
	}
	l.sessions++
	if l.byClient == nil {
		l.byClient = map[string]int{}
	}
	l.byClient[key]++
	l.mu.Unlock()
	return &sessionSlot{l: l, key: key}, true
}

// release gives the slot back; it may be called more than once, and on nil.
func (s *sessionSlot) release() {
	if s == nil {
		return
	}
	s.once.Do(func() {
		l := s.l
		l.mu.Lock()
		l.sessions--
		if l.byClient[s.key]--; l.byClient[s.key] <= 0 {
			delete(l.byClient, s.key)
		}
		l.mu.Unlock()
	})
}

// retryAfter is wait in whole seconds rounded up, at least 1: what the
// Retry-After header and the retryAfter member of a refusal's data say.
func retryAfter(wait time.Duration) int64 {
	return max(int64(math.Ceil(wait.Seconds())), 1)
}

// refusal is a refusal's JSON-RPC error and how long until a retry.
type refusal struct {
	*runtime.Error
	wait time.Duration
}

// retryError is a refusal: msg, followed by when to retry, and data
// {"retryAfter": seconds}.
func retryError(code int, wait time.Duration, msg string) refusal {
	secs := strconv.FormatInt(retryAfter(wait), 10)
	unit := " seconds"
	if secs == "1" {
		unit = " second"
	}
	return refusal{&runtime.Error{
		Code:    code,
		Message: msg + "; retry in " + secs + unit,
		Data:    []byte(`{"retryAfter":` + secs + `}`),
	}, wait}
}

// refuse answers an HTTP error with the error of r as its body and a
// Retry-After header of its wait.
func refuse(w http.ResponseWriter, status int, r refusal) {
	w.Header().Set("Retry-After", strconv.FormatInt(retryAfter(r.wait), 10))
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(appendError(nil, nil, r.Error))
}
