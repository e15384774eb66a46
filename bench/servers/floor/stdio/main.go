// Command stdio serves the floor over stdio.
package main

import (
	"context"
	"log"
	"os"

	"github.com/mcpgen/mcpgen/bench/servers/floor"
)

func main() {
	if err := floor.Serve(context.Background(), os.Stdin, os.Stdout); err != nil {
		log.Fatal(err)
	}
}
