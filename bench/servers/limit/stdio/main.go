// Command stdio serves the limit over stdio.
package main

import (
	"context"
	"log"
	"os"

	"github.com/mcpgen/mcpgen/bench/servers/limit"
)

func main() {
	if err := limit.Serve(context.Background(), os.Stdin, os.Stdout); err != nil {
		log.Fatal(err)
	}
}
