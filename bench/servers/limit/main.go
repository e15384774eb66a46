// Command limit is the benchmark's physical limit: a stdio server that does
// no JSON work at all. It finds a request's id and method by a byte scan and
// writes a canned answer of the same shape as the other servers' answers.
// Nothing that parses, validates and encodes can beat it: what it costs is
// the pipe, the system calls and the Go scheduler.
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
