package mcphttp

import (
	"math"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
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
// accepted. Every request to the handler counts (POST, GET, DELETE); the
// authorization metadata does not. A client is the subject of its token
// under [WithAuthorization], else its IP address. perSecond <= 0 means no
// bound; burst < 1 counts as 1.
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
	key := clientKey(req)
	now := time.Now()
	burst := float64(l.opts.burst)
	l.mu.Lock()
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
	b.tokens = min(burst, b.tokens+now.Sub(b.last).Seconds()*l.opts.rate)
	b.last = now
	ok := b.tokens >= 1
	var wait time.Duration
	if ok {
		b.tokens--
	} else {
		wait = time.Duration((1 - b.tokens) / l.opts.rate * float64(time.Second))
	}
	l.mu.Unlock()
	if !ok {
		refuse(w, http.StatusTooManyRequests, runtime.CodeInvalidRequest, wait,
			"Too Many Requests: over the rate limit of "+strconv.FormatFloat(l.opts.rate, 'g', -1, 64)+" requests a second")
	}
	return ok
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
		refuse(w, http.StatusServiceUnavailable, runtime.CodeInternalError, sessionRetryAfter,
			"Service Unavailable: the server holds its maximum of "+strconv.Itoa(l.opts.sessions)+" sessions; retry later")
		return nil, false
	case l.opts.perClient > 0 && l.byClient[key] >= l.opts.perClient:
		l.mu.Unlock()
		refuse(w, http.StatusTooManyRequests, runtime.CodeInvalidRequest, sessionRetryAfter,
			"Too Many Requests: this client holds its maximum of "+strconv.Itoa(l.opts.perClient)+" sessions; end one (DELETE) before starting another")
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

// refuse answers an HTTP error with a Retry-After header of wait, in whole
// seconds rounded up (at least 1).
func refuse(w http.ResponseWriter, status, code int, wait time.Duration, msg string) {
	secs := max(int64(math.Ceil(wait.Seconds())), 1)
	w.Header().Set("Retry-After", strconv.FormatInt(secs, 10))
	httpError(w, status, code, msg)
}
