// Package websocket serves an MCP server over WebSocket: one JSON-RPC
// message per text message, subprotocol "mcp", as the TypeScript SDK's
// WebSocketClientTransport speaks it. It lives apart from package runtime
// because it depends on github.com/coder/websocket; programs that do not
// import it do not get the dependency.
package websocket

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"

	ws "github.com/coder/websocket"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/ratelimit"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// Subprotocol is the WebSocket subprotocol of MCP.
const Subprotocol = "mcp"

// Option configures the handler returned by [Handler].
type Option func(*options)

type options struct {
	hosts     []string
	origins   []string
	readLimit int64
}

// WithAllowedHosts sets the host names (without port) that the Host header
// of a request may name; others are answered 403 Forbidden, which defeats
// DNS rebinding. The default is localhost, 127.0.0.1 and ::1. "*" allows
// any host.
func WithAllowedHosts(hosts ...string) Option {
	return func(o *options) { o.hosts = lower(hosts) }
}

// WithOriginPatterns sets the origins, besides the request's own host,
// that browsers may connect from: host patterns as path.Match takes them
// ("app.example.com", "*.example.com"), or "scheme://host" patterns.
func WithOriginPatterns(patterns ...string) Option {
	return func(o *options) { o.origins = patterns }
}

// WithReadLimit sets the largest message, in bytes, a client may send
// (default 32 MiB); a larger one closes the connection.
func WithReadLimit(n int64) Option { return func(o *options) { o.readLimit = n } }

func lower(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = strings.ToLower(strings.TrimSpace(s))
	}
	return out
}

// Handler returns an http.Handler that upgrades each request to a
// WebSocket and serves one session of s over it, until the client closes
// the connection (after the requests in flight are answered) or the
// request's context ends.
//
// Inside [github.com/mcpgen/mcpgen/runtime/mcphttp.LimitHandler] with a
// rate limit, the requests a client sends over the connection count in the
// same bucket as its connection attempts: one that finds the bucket empty
// is not handled but answered with a JSON-RPC error, code -32600 (Invalid
// Request) and data {"retryAfter": seconds}, the body of the HTTP 429 a
// refused connection attempt gets. A notification takes a token when there
// is one but is never dropped: nothing can be answered to it, and losing
// notifications/initialized or notifications/cancelled would leave the
// session in a state the client does not know of. Responses to the
// server's requests are not counted.
func Handler(s *runtime.Server, opts ...Option) http.Handler {
	o := options{hosts: []string{"localhost", "127.0.0.1", "::1"}, readLimit: 32 << 20}
	for _, opt := range opts {
		opt(&o)
	}
	return &handler{srv: s, opts: o}
}

type handler struct {
	srv  *runtime.Server
	opts options
}

// ServeHTTP upgrades the request and serves a session.
func (h *handler) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if !h.hostAllowed(req.Host) {
		http.Error(w, "Forbidden: Host "+req.Host+" is not allowed", http.StatusForbidden)
		return
	}
	conn, err := ws.Accept(w, req, &ws.AcceptOptions{
		Subprotocols:   []string{Subprotocol},
		OriginPatterns: h.opts.origins,
	})
	if err != nil {
		return // Accept has answered
	}
	defer conn.CloseNow()
	conn.SetReadLimit(h.opts.readLimit)
	ctx := req.Context()
	in := &frameReader{ctx: ctx, conn: conn, admit: ratelimit.AdmitFrom(ctx)}
	out := &frameWriter{ctx: ctx, conn: conn}
	if err := h.srv.Serve(ctx, in, out); err != nil && ctx.Err() == nil && !isClosed(err) {
		h.srv.Logger().Debug("websocket session ended", "err", err)
		conn.Close(ws.StatusInternalError, "")
		return
	}
	conn.Close(ws.StatusNormalClosure, "")
}

func (h *handler) hostAllowed(hostport string) bool {
	host := hostport
	if strings.Contains(host, ":") {
		if hh, _, err := net.SplitHostPort(host); err == nil {
			host = hh
		}
	}
	host = strings.ToLower(strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"), "."))
	for _, a := range h.opts.hosts {
		if host != "" && (a == host || a == "*") {
			return true
		}
	}
	return false
}

// isClosed reports whether err is the peer closing the connection.
func isClosed(err error) bool {
	return errors.Is(err, io.EOF) || ws.CloseStatus(err) != -1
}

// frameReader turns WebSocket messages into the newline-delimited stream
// runtime.Server.Serve reads.
type frameReader struct {
	ctx   context.Context
	conn  *ws.Conn
	admit ratelimit.Admit // the client's rate limit, or nil
	buf   []byte          // the rest of the current message, with its newline

	classifier // of messages, when admit is set
}

func (r *frameReader) Read(p []byte) (int, error) {
	for len(r.buf) == 0 {
		typ, msg, err := r.conn.Read(r.ctx)
		if err != nil {
			if ws.CloseStatus(err) != -1 {
				return 0, io.EOF
			}
			return 0, err
		}
		if typ != ws.MessageText {
			continue // MCP messages are text
		}
		if bytes.ContainsAny(msg, "\r\n") {
			// Line breaks would split the message in the stream.
			var b bytes.Buffer
			if json.Compact(&b, msg) == nil {
				msg = b.Bytes()
			} else {
				msg = bytes.ReplaceAll(bytes.ReplaceAll(msg, []byte("\r"), nil), []byte("\n"), []byte(" "))
			}
		}
		if r.admit != nil {
			refused, err := r.limit(msg)
			if err != nil {
				return 0, err
			}
			if refused {
				continue
			}
		}
		r.buf = append(msg, '\n')
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

// limit counts msg against the client's rate limit; a request over it is
// answered with the limit's error here, and limit reports it refused.
func (r *frameReader) limit(msg []byte) (refused bool, err error) {
	kind, id := r.classifier.classify(msg)
	if kind == kindResponse {
		return false, nil
	}
	e := r.admit(kind == kindRequest)
	if e == nil {
		return false, nil
	}
	out, err := json.Marshal(errorResponse{JSONRPC: "2.0", ID: id, Error: wireError{Code: e.Code, Message: e.Message, Data: e.Data}})
	if err != nil {
		return false, err
	}
	return true, r.conn.Write(r.ctx, ws.MessageText, out)
}

// Kinds of incoming message, as the rate limit counts them.
const (
	kindRequest      = iota // answered: counted, and refused over the limit
	kindNotification        // not answered: counted, never refused
	kindResponse            // a response to the server's request: not counted
)

// classifier tells apart the messages a client sends, for the rate limit.
type classifier struct{ d mcpimpl.Decoder }

// classify tells the kind of msg and, for a request, its id (nil for null;
// it aliases msg). A batch is a request when it holds one (its refusal,
// like an HTTP batch's, is one error with a null id), else a notification
// when it holds one. What does not parse is answered by the server with an
// error, so it counts as a request.
func (c *classifier) classify(msg []byte) (kind int, id []byte) {
	msg = bytes.TrimSpace(msg)
	if len(msg) == 0 {
		return kindResponse, nil // the server skips it
	}
	d := &c.d
	d.Reset(msg, "")
	if msg[0] != '[' {
		hasID, hasMethod, id := head(d)
		switch {
		case d.Err() != nil:
			return kindRequest, nil
		case !hasMethod:
			return kindResponse, nil
		case !hasID:
			return kindNotification, nil
		case string(id) == "null":
			id = nil
		}
		return kindRequest, id
	}
	kind, n := kindResponse, 0
	if d.Array() {
		for ; d.Elem(); n++ {
			hasID, hasMethod, _ := head(d)
			switch {
			case hasMethod && hasID:
				return kindRequest, nil
			case hasMethod:
				kind = kindNotification
			}
		}
	}
	if n == 0 || d.Err() != nil {
		return kindRequest, nil
	}
	return kind, nil
}

// head reads the object at d: whether it has an id, and which, and a
// method.
func head(d *mcpimpl.Decoder) (hasID, hasMethod bool, id []byte) {
	if !d.Object() {
		return false, false, nil
	}
	for {
		key, ok := d.Field()
		if !ok {
			return hasID, hasMethod, id
		}
		switch string(key) {
		case "id":
			hasID = true
			id, _ = d.RawView()
		case "method":
			hasMethod = true
		}
	}
}

// errorResponse is a JSON-RPC error response.
type errorResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   wireError       `json:"error"`
}

type wireError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Close ends the read: Serve calls it when its context ends.
func (r *frameReader) Close() error { return r.conn.CloseNow() }

// frameWriter sends each line Serve writes as one text message.
type frameWriter struct {
	ctx     context.Context
	conn    *ws.Conn
	partial []byte // a line not yet complete
}

func (w *frameWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			w.partial = append(w.partial, p...)
			break
		}
		line := p[:i]
		if len(w.partial) > 0 {
			line = append(w.partial, line...)
			w.partial = w.partial[:0]
		}
		if err := w.conn.Write(w.ctx, ws.MessageText, line); err != nil {
			return 0, err
		}
		p = p[i+1:]
	}
	return n, nil
}
