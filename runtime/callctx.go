package runtime

import (
	"context"
	"sync"
	"time"
)

// callContext is the context of one request in flight. It is cancelled by
// notifications/cancelled or when the session ends, and makes its done
// channel only when a handler asks for it, so a call that never looks costs
// one small allocation.
type callContext struct {
	s *Session // its context is the call's parent

	// The request, owned by the call while it runs.
	key        requestKey
	in         *[]byte // holds id and params; nil while they alias the read buffer (callalias.go)
	id, params []byte
	r          replier
	run        runFunc // nil for tools/call

	mu   sync.Mutex
	done chan struct{}
	err  error
	talk *callTalk // what the call said to the client; nil until it speaks

	tool      toolSpan // a tools/call's name and arguments in params
	cancelled bool     // by the client: the response is not sent

	// overran is set when the call was answered at its tool's timeout
	// while the handler runs on: the handler then gives back the request
	// buffer and the call's place in flight (timeout.go).
	overran bool
}

func (c *callContext) Deadline() (time.Time, bool) { return c.s.ctx.Deadline() }

// Value answers callKey with the call itself, so that helpers find it
// through contexts derived from it.
func (c *callContext) Value(key any) any {
	if key == (callKey{}) {
		return c
	}
	return c.s.ctx.Value(key)
}

func (c *callContext) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done == nil {
		c.done = make(chan struct{})
		if c.err != nil {
			close(c.done)
		}
	}
	return c.done
}

func (c *callContext) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// cancel ends the context; byClient marks a cancellation the client asked
// for, whose response must not be sent.
func (c *callContext) cancel(byClient bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if byClient {
		c.cancelled = true
	}
	c.endLocked()
}

// endLocked ends the context, if it has not ended; c.mu is held.
func (c *callContext) endLocked() {
	if c.err != nil {
		return
	}
	c.err = context.Canceled
	if c.done != nil {
		close(c.done)
	}
}

// wasCancelled reports whether the client cancelled the call.
func (c *callContext) wasCancelled() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cancelled
}

// requestKey identifies a request in flight by its JSON-RPC id: integer
// ids, the common case, need no allocation.
type requestKey struct {
	n   int64
	raw string // the raw JSON id when it is not a plain integer
}

func keyOf(id []byte) requestKey {
	if n, ok := plainInt(id); ok {
		return requestKey{n: n}
	}
	return requestKey{raw: string(id)}
}

// plainInt parses a JSON integer without sign tricks, leading zeros or
// exponent, of at most 18 digits.
func plainInt(b []byte) (int64, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 18 || len(b) > 1 && b[0] == '0' {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}
