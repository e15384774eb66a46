// Command http serves the Go SDK benchmark server over Streamable HTTP
// (mcp.NewStreamableHTTPHandler with its default options), with sessions
// unless -stateless is given.
package main

import (
	"flag"
	"log"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/bench/internal/httpserve"
	"github.com/mcpgen/mcpgen/bench/servers/gosdk"
)

// httpHandler serves one server to every client over Streamable HTTP.
func httpHandler(stateless bool) http.Handler {
	s := gosdk.NewServer()
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Stateless: stateless})
}

func main() {
	addr := flag.String("http", "127.0.0.1:0", "serve Streamable HTTP at `ADDR` (its URL is written to stdout)")
	stateless := flag.Bool("stateless", false, "keep no sessions")
	flag.Parse()
	log.Fatal(httpserve.Serve(*addr, httpHandler(*stateless)))
}
