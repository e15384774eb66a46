package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Talking back to the client: the session state behind the helpers a
// handler calls with its context ([Progress], [Log], [Sample], [Elicit],
// [Roots], [Ping]). A call that uses none of them costs nothing: the state
// of a call is made on its first use.

// callKey is the context key under which a callContext answers with itself.
type callKey struct{}

// sessionTalk is a session's side of the conversation with its client.
type sessionTalk struct {
	// Set by initialize; the read loop orders it before every call.
	caps        Capabilities
	clientTitle string

	ready atomic.Bool  // the client sent notifications/initialized
	level atomic.Int32 // LogLevel+1 from logging/setLevel; 0 before

	nextID  atomic.Int64 // ids of the server's requests
	mu      sync.Mutex
	pending map[int64]chan clientAnswer // requests awaiting their answer
	roots   rootsCache
}

// callTalk is what a call has said to its client.
type callTalk struct {
	sendMu sync.Mutex // orders progress notifications

	// Guarded by the call's mu.
	tokenRead  bool
	token      []byte // the raw progressToken; nil without one
	progress   float64
	progressed bool
}

// clientAnswer is the client's response to a request of the server.
type clientAnswer struct {
	result []byte
	err    *Error
}

// defaultClientWait bounds the wait for a client's answer when the context
// has no earlier deadline; an elicitation waits for a person.
const defaultClientWait = 10 * time.Minute

// WithClientRequestTimeout sets how long a request to the client ([Sample],
// [Elicit], [Roots], [Ping]) waits for its answer when the context does not
// end earlier (default 10 minutes). d <= 0 means the context alone decides.
func WithClientRequestTimeout(d time.Duration) Option {
	return func(o *options) { o.clientWait = d }
}

// ErrCapability is matched (with errors.Is) by the error of a request to
// the client that the client did not declare support for, or that its
// protocol revision does not have.
var ErrCapability = errors.New("not supported by the client")

// capabilityError says what the client lacks.
type capabilityError struct {
	what, why string
	// need is the capability the client did not declare, as a dotted path
	// ("elicitation.form", "sampling"); empty when the protocol revision,
	// not a declaration, is what is missing.
	need string
}

func (e *capabilityError) Error() string   { return "runtime: " + e.what + ": " + e.why }
func (e *capabilityError) Is(t error) bool { return t == ErrCapability }

// talker sends on behalf of a handler: through its call's replier, so that
// the message travels with the request's exchange, or, outside a call,
// straight through the session's transport.
type talker struct {
	s *Session
	c *callContext // nil outside a call
}

func talkerOf(ctx context.Context, what string) (talker, error) {
	c, _ := ctx.Value(callKey{}).(*callContext)
	s := SessionFromContext(ctx)
	if s == nil {
		return talker{}, fmt.Errorf("runtime: %s: the context is not a handler's context of an MCP session", what)
	}
	return talker{s: s, c: c}, nil
}

// send writes msg within the call's exchange. It fails once the call has
// ended or was cancelled.
func (t talker) send(msg []byte) error {
	if t.c == nil {
		return t.s.out.writeMessage(msg)
	}
	t.c.mu.Lock()
	if err := t.c.err; err != nil {
		t.c.mu.Unlock()
		return err
	}
	r := t.c.r
	t.c.mu.Unlock()
	return r.Related(msg)
}

// notify sends a notification within the call's exchange.
func (t talker) notify(method string, params []byte) error {
	buf := getBuffer()
	defer putBuffer(buf)
	*buf = appendNotification((*buf)[:0], method, params)
	return t.send(*buf)
}

// request sends a request to the client and waits for its answer, the end
// of ctx or of the session, or the server's client request timeout. When it
// stops waiting it tells the client, with notifications/cancelled. An error
// response from the client is returned as an [*Error].
func (t talker) request(ctx context.Context, method string, params []byte) (json.RawMessage, error) {
	s := t.s
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("runtime: %s: %w", method, err)
	}
	if q := t.request26(); q != nil || s.rev == rev20260728 {
		// Revision 2026-07-28: no requests to the client (inputrequired.go).
		if q == nil || !hasState26(q.method) || method == methodPing {
			return nil, &capabilityError{method, "protocol revision 2026-07-28 has no requests to the client outside tools/call, prompts/get and resources/read", ""}
		}
		return q.state().input(t.c, method, params)
	}
	id := s.talk.nextID.Add(1)
	ch := make(chan clientAnswer, 1)
	s.talk.mu.Lock()
	if s.talk.pending == nil {
		s.talk.pending = map[int64]chan clientAnswer{}
	}
	s.talk.pending[id] = ch
	s.talk.mu.Unlock()
	forget := func() {
		s.talk.mu.Lock()
		delete(s.talk.pending, id)
		s.talk.mu.Unlock()
	}

	msg := []byte(`{"jsonrpc":"2.0","id":`)
	msg = strconv.AppendInt(msg, id, 10)
	msg = append(msg, `,"method":`...)
	msg = appendString(msg, method)
	if params != nil {
		msg = append(msg, `,"params":`...)
		msg = append(msg, params...)
	}
	msg = append(msg, '}')
	if err := t.send(msg); err != nil {
		forget()
		return nil, fmt.Errorf("runtime: %s: %w", method, err)
	}

	if t.c != nil {
		// A call waiting for the client does not count against the limit of
		// calls in flight: the reader, held at the limit, could not read the
		// answer.
		s.workers.release()
		defer s.workers.acquire(s)
	}
	if d := s.srv.opts.clientWait; d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	var stop error
	select {
	case a := <-ch:
		if a.err != nil {
			return nil, a.err
		}
		return a.result, nil
	case <-ctx.Done():
		stop = ctx.Err()
	case <-s.ctx.Done():
		stop = errors.New("the session ended")
	}
	forget()
	cancelled := strconv.AppendInt([]byte(`{"requestId":`), id, 10)
	cancelled = append(cancelled, `,"reason":`...)
	cancelled = append(appendString(cancelled, stop.Error()), '}')
	if t.notify(notifyCancelled, cancelled) != nil && t.c != nil {
		// The call is over (cancelled, most likely): tell the session.
		t.s.Notify(notifyCancelled, cancelled)
	}
	return nil, fmt.Errorf("runtime: %s: no answer from the client: %w", method, stop)
}

// routeResponse hands a response from the client to the request of the
// server it answers. A response to no request in flight (a late answer to
// a request given up on, say) is dropped: the client cannot act on an
// error about it.
func (s *Session) routeResponse(m *message) {
	id, ok := plainInt(m.id)
	var ch chan clientAnswer
	if ok {
		s.talk.mu.Lock()
		ch = s.talk.pending[id]
		delete(s.talk.pending, id)
		s.talk.mu.Unlock()
	}
	if ch == nil {
		s.srv.opts.logger.Debug("response to no request in flight", "id", string(m.id))
		return
	}
	var a clientAnswer
	if m.err != nil {
		var e struct {
			Code    int             `json:"code"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(m.err, &e); err != nil {
			e.Code, e.Message = CodeInternalError, "the client sent a malformed error: "+err.Error()
		}
		a.err = &Error{Code: e.Code, Message: e.Message, Data: e.Data}
	} else {
		a.result = append([]byte(nil), m.result...) // m aliases the read buffer
	}
	ch <- a
}

// Ping checks that the client of ctx, a handler's context, responds.
func Ping(ctx context.Context) error {
	t, err := talkerOf(ctx, "Ping")
	if err != nil {
		return err
	}
	_, err = t.request(ctx, methodPing, nil)
	return err
}
