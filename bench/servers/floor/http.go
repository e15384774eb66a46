package main

import (
	"encoding/json"
	"io"
	"net/http"
)

// httpFloor is the floor over HTTP: one handler that reads the POST body,
// answers it with handle (the stdio floor's decode, validate and encode)
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
	resp, ok := handle(body)
	if !ok {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(resp)
}
