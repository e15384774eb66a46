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
	in := &frameReader{ctx: ctx, conn: conn}
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
	ctx  context.Context
	conn *ws.Conn
	buf  []byte // the rest of the current message, with its newline
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
		r.buf = append(msg, '\n')
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
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
