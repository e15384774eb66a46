// Command http serves the mcpgen benchmark server over Streamable HTTP
// (mcphttp.Handler), with sessions unless -stateless is given.
package main

import (
	"flag"
	"log"
	"net/http"

	"github.com/mcpgen/mcpgen/runtime/mcphttp"

	"github.com/mcpgen/mcpgen/bench/internal/httpserve"
	"github.com/mcpgen/mcpgen/bench/servers/mcpgen"
)

// httpHandler serves a new server over Streamable HTTP.
func httpHandler(stateless bool) http.Handler {
	if stateless {
		return mcphttp.Handler(mcpgen.NewServer(), mcphttp.WithStateless())
	}
	return mcphttp.Handler(mcpgen.NewServer())
}

func main() {
	addr := flag.String("http", "127.0.0.1:0", "serve Streamable HTTP at `ADDR` (its URL is written to stdout)")
	stateless := flag.Bool("stateless", false, "keep no sessions")
	flag.Parse()
	log.Fatal(httpserve.Serve(*addr, httpHandler(*stateless)))
}
