package runtime

import (
	"context"
	"errors"
	"strconv"
	"time"
)

// Revision 2026-07-28 lets list and read results say how long a client may
// keep them (ttlMs) and who may share them (cacheScope). The schema puts
// these on results only: on each list result as a whole, on server/discover
// and on resources/read. So a server sets the hint of its lists and of
// server/discover ([WithCacheHint]) and, for resources/read, each resource
// or template may set its own ([Resource.CacheHint],
// [ResourceTemplate.CacheHint]). A tool has no hint of its own: a tool
// definition has no place for one, tools/call results are not cacheable,
// and tools/list is one list whose hint is the server's.

// CacheHint is the caching hint of the result of reading a resource, for
// clients of revision 2026-07-28: TTL is how long a client may keep the
// result (rounded down to milliseconds; 0 means stale at once), Scope is
// CachePublic when shared caches may keep it, else CachePrivate (the
// default).
type CacheHint struct {
	TTL   time.Duration
	Scope string
}

// appendJSON appends the ttlMs and cacheScope members of h.
func (h *CacheHint) appendJSON(dst []byte) []byte {
	scope := h.Scope
	if scope != CachePublic {
		scope = CachePrivate
	}
	dst = append(dst, `,"ttlMs":`...)
	dst = strconv.AppendInt(dst, max(h.TTL.Milliseconds(), 0), 10)
	dst = append(dst, `,"cacheScope":`...)
	return appendString(dst, scope)
}

// readCacheHint appends the resource's own cache hint to a resources/read
// result answering a 2026-07-28 request; other requests, and resources
// without a hint of their own, get none here (the server's hint is added
// when the result is completed).
func readCacheHint(ctx context.Context, dst []byte, h *CacheHint) []byte {
	if h == nil || request26Of(ctx) == nil {
		return dst
	}
	return h.appendJSON(dst)
}

// missingCapability returns the MissingRequiredClientCapability error for
// a handler's error that says the client lacks a capability it did not
// declare (an error matching [ErrCapability] from [Elicit], [Sample] or
// [Roots]), when ctx answers a 2026-07-28 request; else nil, and the error
// is reported as in older revisions.
func missingCapability(ctx context.Context, err error) *Error {
	var ce *capabilityError
	if !errors.As(err, &ce) || ce.need == "" || request26Of(ctx) == nil {
		return nil
	}
	return MissingCapability(ce.need)
}
