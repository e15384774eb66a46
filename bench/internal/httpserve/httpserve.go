// Package httpserve serves a benchmark server's Streamable HTTP handler on
// a loopback port. It is apart from package httpwire, the client side,
// because that one imports testing and net/http/httptest: linked into the
// servers, their package initialisation would be part of every start the
// driver times.
package httpserve

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"time"
)

// Path is where every server mounts its handler.
const Path = "/mcp"

// Serve listens on addr, writes the endpoint's URL as one line to stdout
// (so that a driver that asked for port 0 learns the port) and serves h at
// Path until the process ends.
func Serve(addr string, h http.Handler) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle(Path, h)
	if _, err := fmt.Fprintf(os.Stdout, "http://%s%s\n", ln.Addr(), Path); err != nil {
		return err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	return srv.Serve(ln)
}
