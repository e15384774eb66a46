// Command http serves the mcp-go benchmark server over Streamable HTTP
// (server.NewStreamableHTTPServer), keeping sessions with WithStateful (by
// default it hands out session ids without tracking them), or none with
// WithStateLess when -stateless is given.
package main

import (
	"flag"
	"log"
	"net/http"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpgen/mcpgen/bench/internal/httpserve"
	"github.com/mcpgen/mcpgen/bench/servers/mcpgo"
)

// httpHandler serves a new server over Streamable HTTP.
func httpHandler(stateless bool) http.Handler {
	if stateless {
		return server.NewStreamableHTTPServer(mcpgo.NewServer(), server.WithStateLess(true))
	}
	return server.NewStreamableHTTPServer(mcpgo.NewServer(), server.WithStateful(true))
}

func main() {
	addr := flag.String("http", "127.0.0.1:0", "serve Streamable HTTP at `ADDR` (its URL is written to stdout)")
	stateless := flag.Bool("stateless", false, "keep no sessions")
	flag.Parse()
	log.Fatal(httpserve.Serve(*addr, httpHandler(*stateless)))
}
