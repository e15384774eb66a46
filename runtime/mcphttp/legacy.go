package mcphttp

import (
	"net/http"

	"github.com/mcpgen/mcpgen/runtime"
)

// The HTTP+SSE transport of revision 2024-11-05, for clients that speak
// only it: GET <endpoint>/sse opens an event stream whose first event, named
// "endpoint", gives the URL to POST messages to (<endpoint>/message with
// the session in a query parameter); every answer goes on the stream.

// legacySessionParam is the query parameter that names a legacy session.
const legacySessionParam = "sessionId"

// getLegacy opens a legacy session: the session lives as long as its
// stream.
func (h *httpHandler) getLegacy(w http.ResponseWriter, req *http.Request) {
	if h.opts.stateless {
		w.Header().Set("Allow", "POST")
		httpError(w, http.StatusMethodNotAllowed, runtime.CodeInvalidRequest, "Method Not Allowed: a stateless server has no HTTP+SSE sessions")
		return
	}
	if _, events := accepts(req.Header.Values("Accept")); !events && req.Header.Get("Accept") != "" {
		httpError(w, http.StatusNotAcceptable, runtime.CodeInvalidRequest, "Not Acceptable: the Accept header must list text/event-stream")
		return
	}
	slot, ok := h.limiter.openSession(w, req) // limits.go
	if !ok {
		return
	}
	hs, err := newHTTPSession(h.srv, true, runtime.PrincipalFromContext(req.Context()))
	if err != nil {
		slot.release()
		httpError(w, http.StatusInternalServerError, runtime.CodeInternalError, "Internal Server Error: no session id: "+err.Error())
		return
	}
	hs.slot = slot
	if !h.add(hs) {
		hs.end()
		httpError(w, http.StatusServiceUnavailable, runtime.CodeInternalError, "Service Unavailable: the server is shutting down")
		return
	}
	defer h.remove(hs.id)
	hs.enter()
	defer hs.leave()
	// A reference relative to the stream's URL, right wherever the
	// handler is mounted, prefix stripped or not.
	first := []byte("event: endpoint\ndata: message?" + legacySessionParam + "=" + hs.id + "\n\n")
	hs.stream.serve(w, req, first)
}

// postLegacy hands a message to a legacy session; the answer goes on the
// session's stream.
func (h *httpHandler) postLegacy(w http.ResponseWriter, req *http.Request) {
	if !isJSONContent(req.Header.Get("Content-Type")) {
		httpError(w, http.StatusUnsupportedMediaType, runtime.CodeInvalidRequest, "Unsupported Media Type: the Content-Type must be application/json")
		return
	}
	id := req.URL.Query().Get(legacySessionParam)
	hs := h.lookup(id)
	if hs == nil || !hs.legacy || !hs.ownedBy(req) {
		httpError(w, http.StatusNotFound, runtime.CodeInvalidRequest, "Not Found: session "+quote(id)+" has ended or never existed; open a new one with GET .../sse")
		return
	}
	body := getBuffer()
	defer putBuffer(body)
	if status, msg := h.readBody(w, req, body); status != 0 {
		httpError(w, status, runtime.CodeInvalidRequest, msg)
		return
	}
	hs.enter()
	defer hs.leave()
	hs.handling.Lock()
	hs.s.Handle(*body, nil) // answers go on the stream; calls run elsewhere
	hs.handling.Unlock()
	w.WriteHeader(http.StatusAccepted)
}
