package mcphttp

import "net/http"

// RateLimitBuckets returns how many clients' token buckets h, a handler
// from Handler, keeps.
func RateLimitBuckets(h http.Handler) int {
	l := &h.(*httpHandler).limiter
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.buckets)
}
