package mcphttp

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// httpSession is a session carried by Streamable HTTP: messages arrive in
// POSTs, each answered on its own response, and what the server sends
// outside a request's exchange goes on the server stream a GET opened.
type httpSession struct {
	id     string
	legacy bool // HTTP+SSE of revision 2024-11-05: every answer goes on the stream
	s      *runtime.Session
	cancel context.CancelFunc
	stream serverStream
	posts  postStreams // the event streams of POSTs, for resuming

	// handling orders the messages handed to the session, as a stream's
	// read loop does.
	handling sync.Mutex
	lastUsed atomic.Int64 // unix nanoseconds
	active   atomic.Int32 // requests being served
	ended    sync.Once

	// owner is the principal whose token started the session, nil without
	// authorization; principal is that of its latest request.
	owner     *runtime.Principal
	principal atomic.Pointer[runtime.Principal]

	slot *sessionSlot // its place under the session limits (limits.go)
}

// newHTTPSession makes a session for owner, nil without authorization.
func newHTTPSession(srv *runtime.Server, legacy bool, owner *runtime.Principal) (*httpSession, error) {
	var b [sessionIDBytes]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	hs := &httpSession{id: base64.RawURLEncoding.EncodeToString(b[:]), legacy: legacy, owner: owner}
	ctx := context.Background()
	if owner != nil {
		hs.principal.Store(owner)
		ctx = runtime.ContextWithPrincipal(ctx, hs.principal.Load)
	}
	ctx, cancel := context.WithCancel(ctx)
	hs.cancel = cancel
	hs.s = srv.OpenSession(ctx, hs.stream.writeMessage)
	hs.stream.numbered = !legacy
	hs.touch()
	return hs, nil
}

func (hs *httpSession) touch() { hs.lastUsed.Store(time.Now().UnixNano()) }

// enter and leave bracket a request on the session: a session with a
// request being served does not expire.
func (hs *httpSession) enter() { hs.active.Add(1); hs.touch() }
func (hs *httpSession) leave() { hs.touch(); hs.active.Add(-1) }

// enterWhile brackets a request that counts as active only while its
// client is there: a call that runs on after its client vanished does not
// keep the session from expiring, and expiry cancels it.
func (hs *httpSession) enterWhile(req *http.Request) (leave func()) {
	hs.enter()
	left := sync.OnceFunc(hs.leave)
	stop := context.AfterFunc(req.Context(), left)
	return func() {
		stop()
		left()
	}
}

// end ends the session: calls in flight are cancelled, the server stream
// closes.
func (hs *httpSession) end() {
	hs.ended.Do(func() {
		hs.cancel()
		hs.stream.close()
		hs.s.End()
		hs.slot.release()
	})
}

// sessions is the table of live sessions, swept for idle ones.
type sessions struct {
	idle time.Duration

	mu      sync.RWMutex
	byID    map[string]*httpSession
	sweeper *time.Timer // armed while the table is not empty
	closed  bool
}

func (t *sessions) init(idle time.Duration) {
	t.idle = idle
	t.byID = map[string]*httpSession{}
}

func (t *sessions) lookup(id string) *httpSession {
	t.mu.RLock()
	hs := t.byID[id]
	t.mu.RUnlock()
	return hs
}

// add registers hs; false when the table is closed.
func (t *sessions) add(hs *httpSession) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return false
	}
	t.byID[hs.id] = hs
	if t.idle > 0 && t.sweeper == nil {
		t.sweeper = time.AfterFunc(t.sweepEvery(), t.sweep)
	}
	return true
}

// remove takes the session out of the table and ends it; false if it was
// not there.
func (t *sessions) remove(id string) bool {
	t.mu.Lock()
	hs := t.byID[id]
	delete(t.byID, id)
	t.mu.Unlock()
	if hs == nil {
		return false
	}
	hs.end()
	return true
}

func (t *sessions) sweepEvery() time.Duration {
	return max(min(t.idle/2, time.Minute), time.Millisecond)
}

// sweep ends the sessions idle for longer than the idle timeout.
func (t *sessions) sweep() {
	cutoff := time.Now().Add(-t.idle).UnixNano()
	var idle []*httpSession
	t.mu.Lock()
	for id, hs := range t.byID {
		if hs.active.Load() == 0 && hs.lastUsed.Load() < cutoff {
			delete(t.byID, id)
			idle = append(idle, hs)
		}
	}
	if len(t.byID) > 0 && !t.closed {
		t.sweeper.Reset(t.sweepEvery())
	} else {
		t.sweeper = nil
	}
	t.mu.Unlock()
	for _, hs := range idle {
		hs.end()
	}
}

// close ends every session; no new ones are made.
func (t *sessions) close() {
	t.mu.Lock()
	t.closed = true
	all := t.byID
	t.byID = map[string]*httpSession{}
	if t.sweeper != nil {
		t.sweeper.Stop()
		t.sweeper = nil
	}
	t.mu.Unlock()
	for _, hs := range all {
		hs.end()
	}
}

// errNoStream is what sending outside a request's exchange returns when
// the client has no server stream open.
var errNoStream = errors.New("no server stream: the client has not opened one with GET")

// serverStream is the transport of an HTTP session: the event stream a GET
// opened, if any, for messages outside a request's exchange.
type serverStream struct {
	mu     sync.Mutex
	w      http.ResponseWriter // nil when no stream is open
	rc     *http.ResponseController
	done   chan struct{} // closed to end the open stream
	closed bool          // the session ended

	numbered bool // events have ids (stream 0, see postStreams)
	seq      int  // the last event's number
}

func (st *serverStream) writeMessage(msg []byte) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.w == nil {
		return errNoStream
	}
	buf := getBuffer()
	defer putBuffer(buf)
	if st.numbered {
		st.seq++
		*buf = appendEventID((*buf)[:0], 0, st.seq)
	}
	*buf = appendEvent(*buf, msg)
	if err := writeRaw(st.w, st.rc, *buf); err != nil {
		st.detachLocked()
		return err
	}
	return nil
}

// detachLocked ends the open stream.
func (st *serverStream) detachLocked() {
	if st.w != nil {
		close(st.done)
		st.w, st.rc, st.done = nil, nil, nil
	}
}

func (st *serverStream) close() {
	st.mu.Lock()
	st.closed = true
	st.detachLocked()
	st.mu.Unlock()
}

// keepAliveEvery is how often an idle server stream gets a comment, so
// that proxies and clients do not take it for dead.
const keepAliveEvery = 25 * time.Second

// eventWriteTimeout bounds the time one event may take to write: a client
// that stops reading loses its stream rather than blocking the server.
const eventWriteTimeout = 10 * time.Second

// serve holds the stream a GET opened until the client goes away, the
// session ends or the stream is replaced. first is what the stream starts
// with, the endpoint event of the legacy transport; nil means a priming
// event.
func (st *serverStream) serve(w http.ResponseWriter, req *http.Request, first []byte) {
	st.mu.Lock()
	if st.closed {
		st.mu.Unlock()
		httpError(w, http.StatusNotFound, runtime.CodeInvalidRequest, "Not Found: the session has ended")
		return
	}
	if st.w != nil {
		st.mu.Unlock()
		httpError(w, http.StatusConflict, runtime.CodeInvalidRequest, "Conflict: the session already has a server stream open")
		return
	}
	rc := http.NewResponseController(w)
	startEvents(w)
	if first == nil {
		first = appendPriming(nil, 0, st.seq)
	}
	// Something in the body makes the headers go out now, through proxies
	// that wait for a body.
	rc.SetWriteDeadline(time.Now().Add(eventWriteTimeout))
	if _, err := w.Write(first); err != nil || flush(rc) != nil {
		st.mu.Unlock()
		return
	}
	done := make(chan struct{})
	st.w, st.rc, st.done = w, rc, done
	st.mu.Unlock()

	tick := time.NewTicker(keepAliveEvery)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return
		case <-req.Context().Done():
			st.mu.Lock()
			if st.done == done {
				st.detachLocked()
			}
			st.mu.Unlock()
			return
		case <-tick.C:
			st.mu.Lock()
			if st.done == done {
				rc.SetWriteDeadline(time.Now().Add(eventWriteTimeout))
				if _, err := w.Write([]byte(": keep-alive\n\n")); err != nil || flush(rc) != nil {
					st.detachLocked()
				}
			}
			st.mu.Unlock()
		}
	}
}

// flush sends what was written; a writer that cannot flush (a test's
// recorder) is not an error.
func flush(rc *http.ResponseController) error {
	if err := rc.Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return err
	}
	return nil
}

// startEvents sends the headers of an event stream.
func startEvents(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache, no-transform")
	h.Set("X-Accel-Buffering", "no") // nginx: do not buffer the stream
	w.WriteHeader(http.StatusOK)
}

// writeEvent writes msg as one server-sent event and flushes it.
func writeEvent(w http.ResponseWriter, rc *http.ResponseController, msg []byte) error {
	buf := getBuffer()
	*buf = appendEvent((*buf)[:0], msg)
	err := writeRaw(w, rc, *buf)
	putBuffer(buf)
	return err
}

// writeRaw writes encoded events and flushes them.
func writeRaw(w http.ResponseWriter, rc *http.ResponseController, events []byte) error {
	rc.SetWriteDeadline(time.Now().Add(eventWriteTimeout))
	if _, err := w.Write(events); err != nil {
		return err
	}
	return flush(rc)
}

// appendEvent appends a "message" event whose data is msg; a line break in
// msg (not in compact JSON, but possible in raw JSON a tool returned)
// continues the data on a new data line.
func appendEvent(dst, msg []byte) []byte {
	dst = append(dst, "event: message\ndata: "...)
	if bytes.IndexAny(msg, "\r\n") < 0 {
		dst = append(dst, msg...)
		return append(dst, "\n\n"...)
	}
	for _, c := range msg {
		switch c {
		case '\n':
			dst = append(dst, "\ndata: "...)
		case '\r':
		default:
			dst = append(dst, c)
		}
	}
	return append(dst, "\n\n"...)
}
