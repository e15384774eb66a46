package sdkinterop

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/e2e"
	"github.com/mcpgen/mcpgen/internal/mcpschema"
)

// httpRecorder sits between a Streamable HTTP client and the server's
// handler: it feeds every message of the client and of the server to a
// schema tracker as it passes, so that each server message is validated
// against the revision in force, and counts the methods seen each way.
type httpRecorder struct {
	tr *mcpschema.Tracker

	mu      sync.Mutex
	n       int            // server messages validated
	errs    []string       // validation failures
	server  map[string]int // methods of the server's messages; "input:"+method for an input request of an InputRequiredResult
	client  map[string]int // methods of the client's messages
	streams int            // GET requests (the session's server stream)
	refused []string       // requests answered with a status of 400 or more
}

func newHTTPRecorder() *httpRecorder {
	return &httpRecorder{tr: mcpschema.NewTracker(), server: map[string]int{}, client: map[string]int{}}
}

// wrap returns h with the recorder in front of it.
func (rec *httpRecorder) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			rec.mu.Lock()
			rec.streams++
			rec.mu.Unlock()
		}
		var body []byte
		if r.Method == http.MethodPost {
			body, _ = io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			rec.tr.Client(body)
			var m struct{ Method string }
			if json.Unmarshal(body, &m) == nil && m.Method != "" {
				rec.mu.Lock()
				rec.client[m.Method]++
				rec.mu.Unlock()
			}
		}
		rw := &recordingWriter{ResponseWriter: w, rec: rec}
		h.ServeHTTP(rw, r)
		if rw.status >= 400 {
			rec.mu.Lock()
			rec.refused = append(rec.refused, fmt.Sprintf("%s %v %s: %d %s", r.Method, r.Header, body, rw.status, rw.buf))
			rec.mu.Unlock()
		}
		if rw.isJSON() && len(bytes.TrimSpace(rw.buf)) > 0 {
			rec.serverMessage(rw.buf)
		}
	})
}

// serverMessage validates one message the server sent and counts its
// method.
func (rec *httpRecorder) serverMessage(msg []byte) {
	err := rec.tr.Server(msg)
	var m struct {
		Method string
		Result struct {
			InputRequests map[string]struct{ Method string }
		}
	}
	json.Unmarshal(msg, &m)
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.n++
	if err != nil {
		rec.errs = append(rec.errs, err.Error()+"\n"+string(msg))
	}
	if m.Method != "" {
		rec.server[m.Method]++
	}
	for _, ir := range m.Result.InputRequests {
		rec.server["input:"+ir.Method]++
	}
}

// count returns how many messages with method one side sent.
func (rec *httpRecorder) count(fromServer bool, method string) int {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if fromServer {
		return rec.server[method]
	}
	return rec.client[method]
}

// waitFor waits until cond, called with the recorder locked, holds.
func (rec *httpRecorder) waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		rec.mu.Lock()
		ok := cond()
		rec.mu.Unlock()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// check reports the schema failures and that the traffic was validated at
// revision rev.
func (rec *httpRecorder) check(t *testing.T, rev string) {
	t.Helper()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for _, e := range rec.errs {
		t.Errorf("schema: %s", e)
	}
	for _, r := range rec.refused {
		t.Errorf("refused: %s", r)
	}
	if got := rec.tr.Revision(); got != rev {
		t.Errorf("the traffic was validated at revision %q, want %s", got, rev)
	}
	if rec.n == 0 {
		t.Error("no server message recorded")
	}
	t.Logf("validated %d server messages at revision %s; server methods %v, client methods %v", rec.n, rec.tr.Revision(), rec.server, rec.client)
}

// recordingWriter passes a response through, handing each whole event of
// an event stream to the recorder as it is written, and keeping a JSON
// answer for the end.
type recordingWriter struct {
	http.ResponseWriter
	rec    *httpRecorder
	buf    []byte
	status int
}

func (w *recordingWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *recordingWriter) isJSON() bool {
	return strings.HasPrefix(w.Header().Get("Content-Type"), "application/json")
}

func (w *recordingWriter) Write(p []byte) (int, error) {
	w.buf = append(w.buf, p...)
	if strings.HasPrefix(w.Header().Get("Content-Type"), "text/event-stream") {
		if i := bytes.LastIndex(w.buf, []byte("\n\n")); i >= 0 {
			for _, msg := range e2e.EventData(w.buf[:i+2]) {
				w.rec.serverMessage(msg)
			}
			w.buf = append(w.buf[:0], w.buf[i+2:]...)
		}
	}
	return w.ResponseWriter.Write(p)
}

// Flush and Unwrap keep the streaming and the http.ResponseController
// calls of the handler working through the recorder.
func (w *recordingWriter) Flush() { http.NewResponseController(w.ResponseWriter).Flush() }

func (w *recordingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
