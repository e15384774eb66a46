package mcphttp

import (
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// Option configures the handler returned by [Handler] and the server
// [ListenAndServe] runs.
type Option func(*options)

type options struct {
	stateless   bool
	hosts       []string // allowed Host names, lower case; "*" allows any
	hostsSet    bool     // hosts is not the default
	origins     []string // allowed Origin values, lower case; "*" allows any
	idleTimeout time.Duration
	bodyTimeout time.Duration  // to read a POST body; 0: no limit
	auth        *Authorization // nil: no authorization
	limits      limitOptions   // limits.go
}

// WithStateless makes the handler keep no sessions: every POST is answered
// on its own, as if by a session initialized at the revision its
// MCP-Protocol-Version header names (2025-03-26 when absent, as the
// specification says), so that any replica behind a load balancer can
// answer any request. There is no server stream (GET answers 405), and
// [runtime.Session.Notify] fails.
func WithStateless() Option { return func(o *options) { o.stateless = true } }

// WithAllowedHosts sets the host names (without port) that the Host header
// of a request may name; others are answered 403 Forbidden before anything
// runs, which defeats DNS rebinding. The default is localhost, 127.0.0.1
// and ::1: a server reached under another name must list it. "*" allows any
// host.
func WithAllowedHosts(hosts ...string) Option {
	return func(o *options) { o.hosts, o.hostsSet = lower(hosts), true }
}

// WithAllowedOrigins sets the origins ("https://app.example.com") browsers
// may send requests from, in addition to those whose host name is one of
// the allowed hosts (see [WithAllowedHosts]); a request with another Origin
// header is answered 403 Forbidden. Requests without an Origin header, from
// programs rather than web pages, are not affected. "*" allows any origin.
func WithAllowedOrigins(origins ...string) Option {
	return func(o *options) { o.origins = lower(origins) }
}

// WithSessionIdleTimeout sets how long a session may go without requests
// before it ends (default 30 minutes); a request for an ended session gets
// 404 Not Found, and the client starts a new one. d <= 0 keeps sessions
// until the client deletes them.
func WithSessionIdleTimeout(d time.Duration) Option {
	return func(o *options) { o.idleTimeout = d }
}

func lower(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = strings.ToLower(strings.TrimSpace(s))
	}
	return out
}

// Header names of the Streamable HTTP transport.
const (
	headerSessionID       = "Mcp-Session-Id"
	headerProtocolVersion = "Mcp-Protocol-Version"
)

// httpHandler serves the Streamable HTTP transport (revisions 2025-03-26
// and later): POST carries client messages, GET opens a session's server
// stream, DELETE ends a session.
type httpHandler struct {
	srv  *runtime.Server
	opts options
	sessions
	limiter limiter // limits.go
}

// Handler returns an http.Handler that serves s over the Streamable HTTP
// transport of MCP. Mount it at any path, for example
//
//	h := mcphttp.Handler(s)
//	mux.Handle("/mcp", h)
//	mux.Handle("/mcp/", h) // for HTTP+SSE clients: /mcp/sse
//
// Each client gets a session on initialize, named by the Mcp-Session-Id
// header of the answer, unless [WithStateless] is given. A request is
// answered as JSON, or as an event stream once its handler sends a related
// message (progress, a log message); in a session, a client that loses
// such a stream gets the rest of it by GET with the Last-Event-ID header.
// A client going away does not cancel its requests while it can resume
// their event streams (a client cancels with notifications/cancelled); it
// does when their answers can no longer reach it: when the response was
// to be JSON or the request's stream had not started, and in stateless
// mode.
//
// The same handler serves clients of the older HTTP+SSE transport
// (revision 2024-11-05): a GET of a path that ends in /sse opens such a
// session, whose stream names the URL to post messages to
// (message?sessionId=… beside it).
//
// Requests whose Host or Origin header is not allowed are refused (see
// [WithAllowedHosts]); request bodies are limited to the server's maximum
// message size ([runtime.WithMaxMessageSize]).
func Handler(s *runtime.Server, opts ...Option) http.Handler {
	return newHandler(s, opts...)
}

func newHandler(s *runtime.Server, opts ...Option) *httpHandler {
	h := &httpHandler{srv: s}
	h.opts = options{
		hosts:       []string{"localhost", "127.0.0.1", "::1"},
		idleTimeout: 30 * time.Minute,
	}
	for _, o := range opts {
		o(&h.opts)
	}
	h.sessions.init(h.opts.idleTimeout)
	h.limiter.opts = h.opts.limits
	return h
}

// ServeHTTP serves one HTTP request.
func (h *httpHandler) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if msg := h.foreign(req); msg != "" {
		httpError(w, http.StatusForbidden, runtime.CodeInvalidRequest, "Forbidden: "+msg)
		return
	}
	if h.opts.auth != nil {
		if isMetadataPath(req.URL.Path) {
			h.serveMetadata(w, req)
			return
		}
		if req = h.authorize(w, req); req == nil {
			return
		}
	}
	if !h.limiter.admit(w, req) {
		return
	}
	rev, ok := headerRevision(req.Header.Get(headerProtocolVersion))
	if !ok {
		e := unsupportedVersion(req.Header.Get(headerProtocolVersion))
		e.Message = "Bad Request: unsupported " + headerProtocolVersion + " " +
			quote(req.Header.Get(headerProtocolVersion)) + "; supported: " + strings.Join(runtime.SupportedVersions(), ", ")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		w.Write(appendError(nil, nil, e))
		return
	}
	if rev == rev20260728 && req.Method != http.MethodPost {
		// 2026-07-28 has no server stream and no sessions (rev2026.go).
		w.Header().Set("Allow", "POST")
		httpError(w, http.StatusMethodNotAllowed, runtime.CodeInvalidRequest, "Method Not Allowed: protocol revision 2026-07-28 has only POST; listen for notifications with subscriptions/listen")
		return
	}
	switch req.Method {
	case http.MethodPost:
		if req.URL.RawQuery != "" && req.URL.Query().Has(legacySessionParam) {
			h.postLegacy(w, req)
			return
		}
		h.post(w, req, rev)
	case http.MethodGet:
		if strings.HasSuffix(req.URL.Path, "/sse") {
			h.getLegacy(w, req)
			return
		}
		h.get(w, req)
	case http.MethodDelete:
		h.delete(w, req)
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		httpError(w, http.StatusMethodNotAllowed, runtime.CodeInvalidRequest, "Method Not Allowed: "+req.Method+"; use POST, GET or DELETE")
	}
}

// foreign says what is wrong when the request's Host or Origin is not
// allowed, or returns "".
func (h *httpHandler) foreign(req *http.Request) string {
	if host := hostName(req.Host); !h.hostAllowed(host, true) {
		return "Host " + quote(req.Host) + " is not allowed"
	}
	origin := req.Header.Get("Origin")
	if origin == "" || h.originAllowed(origin) {
		return ""
	}
	return "Origin " + quote(origin) + " is not allowed"
}

// hostName returns the lower-case host name of a Host header or URL host,
// without port, brackets or trailing dot.
func hostName(hostport string) string {
	host := hostport
	if strings.Contains(hostport, ":") {
		if h, _, err := net.SplitHostPort(hostport); err == nil {
			host = h
		}
	}
	host = strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"), ".")
	return strings.ToLower(host)
}

// hostAllowed reports whether host is on the allow-list; wildcard says
// whether "*" counts.
func (h *httpHandler) hostAllowed(host string, wildcard bool) bool {
	if host == "" {
		return false
	}
	for _, a := range h.opts.hosts {
		if a == host || wildcard && a == "*" {
			return true
		}
	}
	return false
}

func (h *httpHandler) originAllowed(origin string) bool {
	o := strings.ToLower(origin)
	for _, a := range h.opts.origins {
		if a == "*" || a == o {
			return true
		}
	}
	u, err := url.Parse(o)
	if err != nil || u.Host == "" {
		return false
	}
	// An origin on an allowed host is allowed; "*" among the hosts turns
	// off the Host check only, not this one.
	return h.hostAllowed(hostName(u.Host), false)
}

// accepts reports whether an Accept header admits JSON and an event
// stream.
func accepts(header []string) (json, events bool) {
	for _, v := range header {
		for v != "" {
			var item string
			item, v, _ = strings.Cut(v, ",")
			item, _, _ = strings.Cut(item, ";")
			switch strings.ToLower(strings.TrimSpace(item)) {
			case "application/json", "application/*":
				json = true
			case "text/event-stream", "text/*":
				events = true
			case "*/*":
				json, events = true, true
			}
		}
	}
	return json, events
}

func isJSONContent(ct string) bool {
	if ct == "application/json" {
		return true
	}
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && mt == "application/json"
}

// httpError answers with an HTTP error status and a JSON-RPC error without
// id, which a client can show.
func httpError(w http.ResponseWriter, status, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(appendError(nil, nil, &runtime.Error{Code: code, Message: msg}))
}

// sessionIDBytes is the number of random bytes in a session id (192 bits).
const sessionIDBytes = 24

// pool of replies, reused across POSTs.
var postReplies = sync.Pool{New: func() any { return new(postReply) }}
