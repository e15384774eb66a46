package runtime

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"
)

// HTTPPath is the path at which [Server.ListenAndServeHTTP] serves MCP.
const HTTPPath = "/mcp"

// Timeouts of the HTTP server that ListenAndServeHTTP runs.
const (
	httpHeaderTimeout   = 10 * time.Second
	httpBodyTimeout     = 30 * time.Second
	httpIdleTimeout     = 2 * time.Minute
	httpShutdownTimeout = 10 * time.Second
)

// ListenAndServeHTTP serves the server over Streamable HTTP at
// http://addr/mcp, and over the HTTP+SSE transport of revision 2024-11-05
// at http://addr/mcp/sse (see [HTTPPath] and [Server.HTTPHandler], which
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
func (s *Server) ListenAndServeHTTP(ctx context.Context, addr string, opts ...HTTPOption) error {
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
	h := s.newHTTPHandler(opts...)
	h.opts.bodyTimeout = httpBodyTimeout
	mux := http.NewServeMux()
	mux.Handle(HTTPPath, h)
	mux.Handle(HTTPPath+"/", h) // the HTTP+SSE transport: /mcp/sse, /mcp/message
	if h.opts.auth != nil {
		mux.Handle(MetadataPath, h)
		mux.Handle(MetadataPath+"/", h)
	}
	hs := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: httpHeaderTimeout,
		IdleTimeout:       httpIdleTimeout,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.opts.logger.Handler(), slog.LevelDebug),
	}
	// Server streams last as long as their sessions: end them, or
	// Shutdown would wait for them in vain.
	hs.RegisterOnShutdown(h.close)
	s.opts.logger.Info("serving MCP over Streamable HTTP", "url", "http://"+ln.Addr().String()+HTTPPath)
	if ip := net.ParseIP(host); !h.opts.hostsSet && host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		s.opts.logger.Warn("other machines can connect, but only requests for localhost, 127.0.0.1 or ::1 are allowed (Host header): list the names clients use with WithAllowedHosts")
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
