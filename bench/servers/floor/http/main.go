// Command http is the floor over HTTP: one net/http handler doing the
// stdio floor's work per POST, without sessions.
package main

import (
	"encoding/json"
	"flag"
	"io"
	"log"
	"net/http"

	"github.com/mcpgen/mcpgen/bench/internal/httpserve"
	"github.com/mcpgen/mcpgen/bench/servers/floor"
)

// httpFloor is the floor over HTTP: one handler that reads the POST body,
// answers it with floor.Handle (the stdio floor's decode, validate and encode)
// as application/json, and 202 Accepted for a notification. No sessions,
// no event streams, no header checks: the least any Streamable HTTP server
// does per call.
func httpFloor(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(io.LimitReader(req.Body, 4<<20))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	resp, ok := floor.Handle(body)
	if !ok {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(resp)
}

func main() {
	addr := flag.String("http", "127.0.0.1:0", "serve over HTTP at `ADDR` (its URL is written to stdout)")
	flag.Parse()
	log.Fatal(httpserve.Serve(*addr, http.HandlerFunc(httpFloor)))
}
