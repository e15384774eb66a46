package mcphttp_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
)

// closingTool ends its request's event stream, then sends a log message and
// its result; it reports CloseStream's error, if any, as its result.
func closingTool(closed chan<- error) rt.Tool {
	return rttest.Tool("poll", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		err := rt.CloseStream(ctx, 25*time.Millisecond)
		if closed != nil {
			closed <- err
		}
		if err != nil {
			return rt.TextResult("not closed: " + err.Error()), nil
		}
		rt.Progress(ctx, 1, 0, "later")
		return rt.TextResult("finished"), nil
	})
}

// TestCloseStream: a handler ends its POST's event stream early; the body
// ends cleanly after the priming event and the retry field, and the client
// gets the rest, the result included, by GET with Last-Event-ID.
func TestCloseStream(t *testing.T) {
	closed := make(chan error, 1)
	srv := rttest.NewServer()
	srv.AddTool(closingTool(closed))
	c := rttest.NewHTTPClient(t, mcphttp.Handler(srv))
	c.Initialize("2025-11-25")

	call := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"poll","_meta":{"progressToken":"p"}}}`
	c.Tracker.Client([]byte(call))
	req, _ := http.NewRequest("POST", c.URL, strings.NewReader(call))
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Mcp-Session-Id", c.Session)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q, want text/event-stream", ct)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatalf("the stream broke instead of ending: %v (read %q)", err, body)
	}
	if err := <-closed; err != nil {
		t.Fatalf("CloseStream: %v", err)
	}
	stream, _, _ := strings.Cut(strings.TrimPrefix(string(body), "id: "), "_")
	if want := "id: " + stream + "_0\nretry: 1000\ndata: \n\nretry: 25\n\n"; string(body) != want {
		t.Fatalf("POST body %q, want %q", body, want)
	}

	get, _ := http.NewRequest("GET", c.URL, nil)
	get.Header.Set("Accept", "text/event-stream")
	get.Header.Set("Mcp-Session-Id", c.Session)
	get.Header.Set("Last-Event-ID", stream+"_0")
	resp, err = http.DefaultClient.Do(get)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET with Last-Event-ID: %v %v", resp, err)
	}
	var got []string
	for e := range readEvents(resp.Body) {
		c.Validate([]byte(e.data))
		got = append(got, e.id+" "+e.data)
	}
	want := []string{
		stream + `_1 {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":1,"message":"later"}}`,
		stream + `_2 {"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"finished"}]}}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("resumed events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// The session goes on: the connection was given up, not the session.
	if x := c.Post(`{"jsonrpc":"2.0","id":8,"method":"ping"}`, http.StatusOK); !strings.Contains(string(x.Body), `"id":8,"result":{}`) {
		t.Errorf("ping after CloseStream: %s", x.Body)
	}
}

// TestCloseStreamWithoutStream: where no stream can be resumed, CloseStream
// says so and the call goes on (over stdio: TestCloseStreamStdio in
// package runtime).
func TestCloseStreamWithoutStream(t *testing.T) {
	for _, tc := range []struct {
		name string
		call func(t *testing.T, srv *rt.Server)
	}{
		{"revision 2025-06-18", func(t *testing.T, srv *rt.Server) {
			c := rttest.NewHTTPClient(t, mcphttp.Handler(srv))
			c.Initialize("2025-06-18")
			x := c.Post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"poll"}}`, http.StatusOK)
			if !strings.Contains(string(x.Body), "not closed: ") || !strings.Contains(string(x.Body), "2025-06-18") {
				t.Errorf("result %s", x.Body)
			}
		}},
		{"stateless HTTP", func(t *testing.T, srv *rt.Server) {
			c := rttest.NewHTTPClient(t, mcphttp.Handler(srv, mcphttp.WithStateless()))
			c.Assume("2025-11-25")
			x := c.Post(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"poll"}}`, http.StatusOK)
			if !strings.Contains(string(x.Body), "not closed: ") {
				t.Errorf("result %s", x.Body)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			closed := make(chan error, 1)
			srv := rttest.NewServer()
			srv.AddTool(closingTool(closed))
			tc.call(t, srv)
			if err := <-closed; !errors.Is(err, rt.ErrNoStream) {
				t.Errorf("CloseStream: %v, want an error matching ErrNoStream", err)
			}
		})
	}
}

// TestCloseStreamHTTP2: over HTTP/2 a connection carries other requests and
// cannot be given up; CloseStream says so and the result comes on the
// stream as usual.
func TestCloseStreamHTTP2(t *testing.T) {
	closed := make(chan error, 1)
	srv := rttest.NewServer()
	srv.AddTool(closingTool(closed))
	ts := httptest.NewUnstartedServer(mcphttp.Handler(srv))
	ts.EnableHTTP2 = true
	ts.StartTLS()
	defer ts.Close()
	client := ts.Client()
	post := func(session, body string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest("POST", ts.URL, strings.NewReader(body))
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Content-Type", "application/json")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		if resp.ProtoMajor != 2 {
			t.Fatalf("protocol %s, want HTTP/2", resp.Proto)
		}
		return resp, string(data)
	}
	resp, _ := post("", rttest.InitBody)
	session := resp.Header.Get("Mcp-Session-Id")
	post(session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	_, body := post(session, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"poll"}}`)
	if err := <-closed; !errors.Is(err, rt.ErrNoStream) {
		t.Errorf("CloseStream: %v, want an error matching ErrNoStream", err)
	}
	if !strings.Contains(body, `"id":2,"result":{"content":[{"type":"text","text":"not closed: `) {
		t.Errorf("response %q, want the result on the stream", body)
	}
}
