// Command stdio serves the mcpgen benchmark server over stdio. It links no
// HTTP server (TestStdioServersLinkNoHTTP): every package a binary links is
// initialised when it starts, and the driver times starts.
package main

import (
	"context"
	"log"

	"github.com/mcpgen/mcpgen/bench/servers/mcpgen"
)

func main() {
	if err := mcpgen.NewServer().ServeStdio(context.Background()); err != nil {
		log.Fatal(err)
	}
}
