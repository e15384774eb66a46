// Command floor is the benchmark's floor: a hand-written stdio MCP server
// serving search_files with a bare read, decode, validate, encode loop on one
// goroutine. Every other server in the suite does at least this much work per
// call.
package main

import (
	"context"
	"log"
	"os"
)

func main() {
	if err := serve(context.Background(), os.Stdin, os.Stdout); err != nil {
		log.Fatal(err)
	}
}
