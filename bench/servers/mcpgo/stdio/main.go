// Command stdio serves the mcp-go benchmark server over stdio.
package main

import (
	"log"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpgen/mcpgen/bench/servers/mcpgo"
)

func main() {
	if err := server.ServeStdio(mcpgo.NewServer()); err != nil {
		log.Fatal(err)
	}
}
