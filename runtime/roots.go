package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
)

const (
	methodRootsList    = "roots/list"
	notifyRootsChanged = "notifications/roots/list_changed"
)

// Root is a directory or file the client lets the server work on.
type Root struct {
	// URI identifies the root; a file:// URI.
	URI string `json:"uri"`
	// Name is an optional human-readable name.
	Name string `json:"name,omitempty"`
}

// rootsCache holds the client's roots while they are known not to have
// changed: only for a client that announces changes.
type rootsCache struct {
	mu    sync.Mutex
	gen   uint64 // counts announced changes
	roots []Root
	valid bool
}

// rootsChanged handles notifications/roots/list_changed.
func (t *sessionTalk) rootsChanged() {
	t.roots.mu.Lock()
	t.roots.gen++
	t.roots.roots, t.roots.valid = nil, false
	t.roots.mu.Unlock()
}

// Roots returns the roots of the client of ctx, a handler's context, asking
// it with roots/list. The answer is kept until the client announces a
// change (notifications/roots/list_changed), when the client said it would;
// otherwise each call asks again. It fails at once, with an error matching
// [ErrCapability], when the client did not declare the roots capability.
func Roots(ctx context.Context) ([]Root, error) {
	t, err := talkerOf(ctx, "Roots")
	if err != nil {
		return nil, err
	}
	caps := t.caps().Roots
	if caps == nil {
		return nil, &capabilityError{"Roots", "the client did not declare the roots capability", "roots"}
	}
	cache := &t.s.talk.roots
	if t.s.rev == rev20260728 {
		cache = &rootsCache{} // each request says its own
	}
	cache.mu.Lock()
	if cache.valid {
		roots := append([]Root{}, cache.roots...)
		cache.mu.Unlock()
		return roots, nil
	}
	gen := cache.gen
	cache.mu.Unlock()

	raw, err := t.request(ctx, methodRootsList, nil)
	if err != nil {
		return nil, err
	}
	var res struct {
		Roots []Root `json:"roots"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("runtime: Roots: the client's answer is not a list of roots: %w", err)
	}
	if res.Roots == nil {
		res.Roots = []Root{}
	}
	if caps.ListChanged {
		cache.mu.Lock()
		if cache.gen == gen { // no change announced while asking
			cache.roots, cache.valid = res.Roots, true
		}
		cache.mu.Unlock()
	}
	return append([]Root{}, res.Roots...), nil
}
