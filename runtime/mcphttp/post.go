package mcphttp

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// post answers a POST: one JSON-RPC message, or a batch where revision
// 2025-03-26 is in force.
func (h *httpHandler) post(w http.ResponseWriter, req *http.Request, rev string) {
	if json, events := accepts(req.Header.Values("Accept")); !json || !events {
		httpError(w, http.StatusNotAcceptable, runtime.CodeInvalidRequest, "Not Acceptable: the Accept header must list both application/json and text/event-stream")
		return
	}
	if !isJSONContent(req.Header.Get("Content-Type")) {
		httpError(w, http.StatusUnsupportedMediaType, runtime.CodeInvalidRequest, "Unsupported Media Type: the Content-Type must be application/json")
		return
	}
	body := getBuffer()
	defer putBuffer(body)
	if status, msg := h.readBody(w, req, body); status != 0 {
		httpError(w, status, runtime.CodeInvalidRequest, msg)
		return
	}
	if rev == rev20260728 {
		h.post2026(w, req, *body) // rev2026.go
		return
	}
	if h.opts.stateless {
		h.postStateless(w, req, *body, rev)
		return
	}
	if req.Header.Get(headerSessionID) == "" {
		h.postInitialize(w, req, *body)
		return
	}
	hs := h.session(w, req)
	if hs == nil {
		return
	}
	defer hs.enterWhile(req)()
	r := newPostReply(w)
	r.streams = &hs.posts
	hs.handling.Lock()
	call := hs.s.Handle(*body, r)
	hs.handling.Unlock()
	r.answer(req, hs.s, call, "", false)
}

// readBody reads the request body into buf, up to the server's maximum
// message size. It returns an HTTP status and message when it fails.
func (h *httpHandler) readBody(w http.ResponseWriter, req *http.Request, buf *[]byte) (int, string) {
	limit := h.srv.MaxMessageSize()
	if req.ContentLength > int64(limit) {
		return tooLarge(limit)
	}
	if h.opts.bodyTimeout > 0 {
		rc := http.NewResponseController(w)
		rc.SetReadDeadline(time.Now().Add(h.opts.bodyTimeout))
		// The deadline must not outlive the body: net/http would cancel
		// the request's context when it passes.
		defer rc.SetReadDeadline(time.Time{})
	}
	b := (*buf)[:0]
	if n := int(req.ContentLength); n > 0 && cap(b) <= n {
		b = make([]byte, 0, n+1) // +1: room to see the end
	}
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := req.Body.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		*buf = b
		if len(b) > limit {
			return tooLarge(limit)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return http.StatusBadRequest, "Bad Request: reading the body: " + err.Error()
		}
	}
	if len(trimSpace(b)) == 0 {
		return http.StatusBadRequest, "Bad Request: the body is empty; POST one JSON-RPC message"
	}
	return 0, ""
}

// tooLarge refuses a body over the size limit with the answer a stream
// transport gives a message over it.
func tooLarge(limit int) (int, string) {
	return http.StatusRequestEntityTooLarge, "Invalid Request: message larger than " + strconv.Itoa(limit) + " bytes"
}

// postInitialize answers a POST without a session id, which must be an
// initialize request: it starts a session.
func (h *httpHandler) postInitialize(w http.ResponseWriter, req *http.Request, body []byte) {
	var m message
	if data := trimSpace(body); data[0] == '[' {
		httpError(w, http.StatusBadRequest, runtime.CodeInvalidRequest, "Bad Request: the Mcp-Session-Id header is required; a session starts with an initialize request on its own, not in a batch")
		return
	}
	if err := parseMessage(body, &m); err != nil {
		httpError(w, http.StatusBadRequest, err.Code, err.Message)
		return
	}
	if m.id == nil && m.method != "" {
		// A notification outside any session, as clients of revision
		// 2026-07-28 send them (the Go SDK's roots/list_changed and
		// cancelled carry neither a session id nor a version header): no
		// request can refer to it, so it is accepted and has no effect,
		// as on a stateless server.
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if m.method != "initialize" {
		httpError(w, http.StatusBadRequest, runtime.CodeInvalidRequest, "Bad Request: the Mcp-Session-Id header is required; initialize returns it")
		return
	}
	slot, ok := h.limiter.openSession(w, req) // limits.go
	if !ok {
		return
	}
	hs, err := newHTTPSession(h.srv, false, runtime.PrincipalFromContext(req.Context()))
	if err != nil {
		slot.release()
		httpError(w, http.StatusInternalServerError, runtime.CodeInternalError, "Internal Server Error: no session id: "+err.Error())
		return
	}
	hs.slot = slot
	r := newPostReply(w)
	call := hs.s.Handle(body, r) // no other request knows hs yet
	id := ""
	if hs.s.ProtocolVersion() != "" {
		if !h.add(hs) {
			hs.end()
			r.release()
			httpError(w, http.StatusServiceUnavailable, runtime.CodeInternalError, "Service Unavailable: the server is shutting down")
			return
		}
		id = hs.id
	} else {
		hs.end() // initialize failed: the answer says why
	}
	r.answer(req, hs.s, call, id, false)
}

// postStateless answers a POST with a session of its own, initialized at
// the revision of the request's MCP-Protocol-Version header.
func (h *httpHandler) postStateless(w http.ResponseWriter, req *http.Request, body []byte, rev string) {
	s := h.srv.OpenSession(req.Context(), noServerStream)
	if err := s.AssumeVersion(rev); err != nil {
		httpError(w, http.StatusBadRequest, runtime.CodeInvalidRequest, "Bad Request: "+err.Error())
		return
	}
	r := newPostReply(w)
	call := s.Handle(body, r)
	r.answer(req, s, call, "", true)
	s.End()
}

// get opens the session's server stream.
func (h *httpHandler) get(w http.ResponseWriter, req *http.Request) {
	if h.opts.stateless {
		w.Header().Set("Allow", "POST")
		httpError(w, http.StatusMethodNotAllowed, runtime.CodeInvalidRequest, "Method Not Allowed: a stateless server has no server stream")
		return
	}
	if _, events := accepts(req.Header.Values("Accept")); !events {
		httpError(w, http.StatusNotAcceptable, runtime.CodeInvalidRequest, "Not Acceptable: the Accept header must list text/event-stream")
		return
	}
	hs := h.session(w, req)
	if hs == nil {
		return
	}
	hs.enter()
	defer hs.leave()
	if id := req.Header.Get("Last-Event-ID"); id != "" {
		if p, after, ok := hs.posts.find(id); ok {
			p.resume(w, req, after)
			return
		}
		// Stream 0, or one forgotten: a new server stream.
	}
	hs.stream.serve(w, req, nil)
}

// delete ends a session.
func (h *httpHandler) delete(w http.ResponseWriter, req *http.Request) {
	if h.opts.stateless {
		w.Header().Set("Allow", "POST")
		httpError(w, http.StatusMethodNotAllowed, runtime.CodeInvalidRequest, "Method Not Allowed: a stateless server has no sessions to end")
		return
	}
	hs := h.session(w, req)
	if hs == nil {
		return
	}
	h.remove(hs.id)
	w.WriteHeader(http.StatusNoContent)
}

// session returns the session the request names, or answers 400 or 404 and
// returns nil.
func (h *httpHandler) session(w http.ResponseWriter, req *http.Request) *httpSession {
	id := req.Header.Get(headerSessionID)
	if id == "" {
		httpError(w, http.StatusBadRequest, runtime.CodeInvalidRequest, "Bad Request: the Mcp-Session-Id header is required; initialize returns it")
		return nil
	}
	hs := h.lookup(id)
	if hs == nil || hs.legacy || !hs.ownedBy(req) {
		httpError(w, http.StatusNotFound, runtime.CodeInvalidRequest, "Not Found: session "+quote(id)+" has ended or never existed; initialize a new one")
		return nil
	}
	return hs
}

// noServerStream is the transport of a stateless request's session.
func noServerStream([]byte) error { return errStateless }

var errStateless = errors.New("no server stream: the server is stateless")

// errExchangeOver is what sending within a request's exchange returns once
// its POST has been answered or abandoned.
var errExchangeOver = errors.New("the request's HTTP exchange is over")

// postReply is the runtime.Exchange of one POST: it collects the answer, as JSON,
// until a message related to the request is sent before it; then it turns
// the response into an event stream that carries both.
type postReply struct {
	w  http.ResponseWriter
	rc *http.ResponseController // when the response is an event stream

	// streams keeps the event stream for a client that resumes it; nil
	// when there is no session to resume in.
	streams *postStreams
	stream  *postStream

	mu      sync.Mutex
	pending int           // asynchronous requests not yet answered
	wake    chan struct{} // closed when pending drops to zero
	body    []byte        // the answer, when not streaming
	hasBody bool
	events  bool // the response is an event stream
	gone    bool // the response is written or abandoned
	closed  bool // the event stream was ended early (CloseStream)
}

func newPostReply(w http.ResponseWriter) *postReply {
	r := postReplies.Get().(*postReply)
	r.w = w
	return r
}

// Reply takes the answer to a request of the POST.
func (r *postReply) Reply(msg []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.stream != nil: // kept for resuming even when the POST is gone
		r.stream.send(msg)
	case r.gone:
	case r.events:
		writeEvent(r.w, r.rc, msg)
	case r.hasBody:
		// A second answer to one POST (not made by the session core):
		// both go on an event stream rather than one being lost.
		r.startEventsLocked()
		r.sendLocked(msg)
	default:
		r.body = append(r.body[:0], msg...)
		r.hasBody = true
	}
}

// Related sends a message of a request's exchange on the POST's event
// stream, which it starts if need be.
func (r *postReply) Related(msg []byte) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stream != nil {
		return r.stream.send(msg)
	}
	if r.gone {
		return errExchangeOver
	}
	if !r.events {
		r.startEventsLocked()
	}
	return r.sendLocked(msg)
}

func (r *postReply) sendLocked(msg []byte) error {
	if r.stream != nil {
		return r.stream.send(msg)
	}
	return writeEvent(r.w, r.rc, msg)
}

// startEventsLocked turns the response into an event stream, starting with
// the answer already collected, if any. In a session, the stream can be
// resumed.
func (r *postReply) startEventsLocked() {
	r.events = true
	r.rc = http.NewResponseController(r.w)
	startEvents(r.w)
	if r.streams != nil {
		r.stream = r.streams.open(r.w, r.rc)
	}
	if r.hasBody {
		r.sendLocked(r.body)
		r.hasBody = false
	}
}

// Begin counts a request of the POST that is answered asynchronously.
func (r *postReply) Begin() {
	r.mu.Lock()
	r.pending++
	r.mu.Unlock()
}

// End counts the answer of such a request.
func (r *postReply) End() {
	r.mu.Lock()
	r.pending--
	if r.pending == 0 {
		if r.wake != nil {
			close(r.wake)
			r.wake = nil
		}
		if r.stream != nil {
			r.stream.finish()
		}
	}
	r.mu.Unlock()
}

// answer runs the call Handle left, if any, waits until every
// request of the POST is answered or the client goes away, and finishes
// the response: the JSON answer, or 202 Accepted when the POST held no
// request; sessionID, if not empty, goes in the Mcp-Session-Id header.
//
// When the client goes away, the calls go on while their answers can
// still reach it (see goneUndeliverable): the specification asks servers
// not to take a disconnection for a cancellation, as the client may resume
// the stream. With cancelGone set (a stateless request, whose session ends
// with its POST) they are cancelled.
func (r *postReply) answer(req *http.Request, s *runtime.Session, call runtime.Call, sessionID string, cancelGone bool) {
	r.mu.Lock()
	busy := r.pending > 0 && req.Context().Done() != nil
	r.mu.Unlock()
	pooled := true
	if busy {
		gone := func() {
			if cancelGone || r.goneUndeliverable() { // gone.go
				s.CancelExchange(r)
			}
		}
		stop := context.AfterFunc(req.Context(), gone)
		defer func() {
			switch {
			case !stop():
				pooled = false // cancelFor may still run
			case req.Context().Err() != nil:
				// The context ended, but stop ran before the context's
				// cancellation reached gone (wait returns as soon as
				// Done is closed), and so kept it from running.
				gone()
			}
			r.finish(sessionID, pooled)
		}()
	} else {
		defer r.finish(sessionID, pooled)
	}
	call.Run()
	r.wait(req.Context())
}

// wait blocks until pending is zero or ctx ends.
func (r *postReply) wait(ctx context.Context) {
	r.mu.Lock()
	if r.pending == 0 {
		r.mu.Unlock()
		return
	}
	wake := make(chan struct{})
	r.wake = wake
	r.mu.Unlock()
	select {
	case <-wake:
	case <-ctx.Done():
	}
}

// nullIDError starts an error response without id: the message could not
// be read as a request at all.
var nullIDError = []byte(`{"jsonrpc":"2.0","id":null,"error"`)

// finish writes the response unless it is an event stream, and lets go of
// r; pool says whether r may be reused.
func (r *postReply) finish(sessionID string, pool bool) {
	r.mu.Lock()
	r.gone = true
	if r.stream != nil {
		r.stream.detach(r.w) // the rest, if any, waits for a resuming client
	}
	if !r.events {
		h := r.w.Header()
		if sessionID != "" {
			h.Set(headerSessionID, sessionID)
		}
		if r.hasBody {
			h.Set("Content-Type", "application/json")
			status := http.StatusOK
			if bytes.HasPrefix(r.body, nullIDError) || badRequest2026(r.body) {
				status = http.StatusBadRequest
			}
			r.w.WriteHeader(status)
			r.w.Write(r.body)
		} else {
			r.w.WriteHeader(http.StatusAccepted)
		}
	}
	reusable := pool && r.pending == 0
	r.mu.Unlock()
	if reusable {
		r.release()
	}
}

// release resets r and puts it back in the pool.
func (r *postReply) release() {
	body := r.body[:0]
	if cap(body) > 64<<10 {
		body = nil
	}
	*r = postReply{body: body}
	postReplies.Put(r)
}
