package mcphttp

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// Path is the path at which [ListenAndServe] serves MCP.
const Path = "/mcp"

// Timeouts of the HTTP server that ListenAndServe runs.
const (
	httpHeaderTimeout   = 10 * time.Second
	httpBodyTimeout     = 30 * time.Second
	httpIdleTimeout     = 2 * time.Minute
	httpShutdownTimeout = 10 * time.Second
)

// ListenAndServe serves s over Streamable HTTP at
// http://addr/mcp, and over the HTTP+SSE transport of revision 2024-11-05
// at http://addr/mcp/sse (see [Path] and [Handler], which
// opts configure), until ctx ends. addr is "host:port"; without a host (":8080")
// it binds 127.0.0.1 only, and a server reached from other machines must
// name its interface ("0.0.0.0:8080") and the host names clients use (see
// [WithAllowedHosts]). Port 0 picks a free port; the server logs the URL
// it serves.
//
// The HTTP server limits the time to read request headers and bodies and
// closes idle connections. When ctx ends it shuts down gracefully: it
// stops accepting connections, ends the sessions' server streams and waits
// up to 10 seconds for requests in flight; then it returns nil.
func ListenAndServe(ctx context.Context, s *runtime.Server, addr string, opts ...Option) error {
	if !strings.Contains(addr, ":") {
		addr = ":" + addr // a bare port
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if host == "" {
		host = "127.0.0.1"
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, port))
	if err != nil {
		return err
	}
	h := newHandler(s, opts...)
	h.opts.bodyTimeout = httpBodyTimeout
	mux := http.NewServeMux()
	mux.Handle(Path, h)
	mux.Handle(Path+"/", h) // the HTTP+SSE transport: /mcp/sse, /mcp/message
	if h.opts.auth != nil {
		mux.Handle(MetadataPath, h)
		mux.Handle(MetadataPath+"/", h)
	}
	hs := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: httpHeaderTimeout,
		IdleTimeout:       httpIdleTimeout,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.Logger().Handler(), slog.LevelDebug),
	}
	// Server streams last as long as their sessions: end them, or
	// Shutdown would wait for them in vain.
	hs.RegisterOnShutdown(h.close)
	s.Logger().Info("serving MCP over Streamable HTTP", "url", "http://"+ln.Addr().String()+Path)
	if ip := net.ParseIP(host); !h.opts.hostsSet && host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		s.Logger().Warn("other machines can connect, but only requests for localhost, 127.0.0.1 or ::1 are allowed (Host header): list the names clients use with WithAllowedHosts")
	}

	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		h.close()
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), httpShutdownTimeout)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		hs.Close()
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
