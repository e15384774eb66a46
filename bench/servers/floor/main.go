// Command floor is the benchmark's floor: a hand-written stdio MCP server
// serving search_files with a bare read, decode, validate, encode loop on one
// goroutine. Every other server in the suite does at least this much work per
// call. With -http ADDR it is the floor over HTTP instead: one net/http
// handler doing the same work per POST, without sessions.
package main

import (
	"context"
	"flag"
	"log"
	"net/http"
	"os"

	"github.com/mcpgen/mcpgen/bench/internal/httpserve"
)

func main() {
	addr := flag.String("http", "", "serve over HTTP at `ADDR` (its URL is written to stdout) instead of stdio")
	flag.Parse()
	if *addr != "" {
		log.Fatal(httpserve.Serve(*addr, http.HandlerFunc(httpFloor)))
	}
	if err := serve(context.Background(), os.Stdin, os.Stdout); err != nil {
		log.Fatal(err)
	}
}
