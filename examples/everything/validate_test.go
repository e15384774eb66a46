package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/internal/e2e"
	"github.com/mcpgen/mcpgen/internal/mcpschema"
)

// validator is a reverse proxy in front of the server that validates every
// message the server sends, session by session, against the schema of the
// session's negotiated revision.
type validator struct {
	t *testing.T

	mu       sync.Mutex
	sessions map[string]*mcpschema.Tracker
	messages int // server messages validated
	invalid  int
}

// tracker returns the tracker of a session, made on first use.
func (v *validator) tracker(session string) *mcpschema.Tracker {
	v.mu.Lock()
	defer v.mu.Unlock()
	tr := v.sessions[session]
	if tr == nil {
		tr = mcpschema.NewTracker()
		v.sessions[session] = tr
	}
	return tr
}

// proxy starts the proxy in front of the server at target (an endpoint
// URL) and returns the proxy's endpoint URL.
func (v *validator) proxy(target string) string {
	to, err := url.Parse(target)
	if err != nil {
		v.t.Fatal(err)
	}
	v.sessions = map[string]*mcpschema.Tracker{}
	rp := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(to)
			r.Out.URL.Path = r.In.URL.Path
			r.Out.Host = r.In.Host // DNS rebinding protection is under test too
		},
		ModifyResponse: func(resp *http.Response) error {
			session := resp.Request.Header.Get("Mcp-Session-Id")
			if session == "" {
				// initialize: the client's message is recorded once the
				// session it starts is known.
				session = resp.Header.Get("Mcp-Session-Id")
				if body, ok := resp.Request.Context().Value(bodyKey{}).([]byte); ok {
					v.tracker(session).Client(body)
				}
			}
			ct := resp.Header.Get("Content-Type")
			if resp.StatusCode != http.StatusOK || (ct != "application/json" && ct != "text/event-stream") {
				return nil
			}
			tr := v.tracker(session)
			resp.Body = &validatingBody{ReadCloser: resp.Body, done: func(body []byte) {
				msgs := [][]byte{body}
				if ct == "text/event-stream" {
					msgs = e2e.EventData(body)
				}
				for _, msg := range msgs {
					err := tr.Server(msg)
					v.mu.Lock()
					v.messages++
					if err != nil {
						v.invalid++
					}
					v.mu.Unlock()
					if err != nil {
						v.t.Errorf("server message does not validate (revision %q): %v\n%s", tr.Revision(), err, msg)
					}
				}
			}}
			return nil
		},
	}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		if r.Method == http.MethodPost {
			if session := r.Header.Get("Mcp-Session-Id"); session != "" {
				v.tracker(session).Client(body)
			} else {
				r = r.WithContext(contextWithBody(r, body))
			}
		}
		rp.ServeHTTP(w, r)
	}))
	v.t.Cleanup(ts.Close)
	return ts.URL + to.Path
}

// bodyKey is the context key of a request's body, kept for ModifyResponse.
type bodyKey struct{}

func contextWithBody(r *http.Request, body []byte) context.Context {
	return context.WithValue(r.Context(), bodyKey{}, body)
}

// validatingBody passes a response body through and hands all of it to
// done when it is closed.
type validatingBody struct {
	io.ReadCloser
	buf  bytes.Buffer
	once sync.Once
	done func([]byte)
}

func (b *validatingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.buf.Write(p[:n])
	return n, err
}

func (b *validatingBody) Close() error {
	b.once.Do(func() { b.done(b.buf.Bytes()) })
	return b.ReadCloser.Close()
}
