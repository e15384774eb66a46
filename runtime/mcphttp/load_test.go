package mcphttp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	goruntime "runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
)

// loadClient is one client of the load test: a session of its own over a
// connection pool of its own.
type loadClient struct {
	url     string
	session string
	hc      *http.Client
}

func (c *loadClient) post(ctx context.Context, body string) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, "POST", c.url, strings.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	if c.session != "" {
		req.Header.Set("Mcp-Session-Id", c.session)
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	if c.session == "" {
		c.session = resp.Header.Get("Mcp-Session-Id")
	}
	data, err := io.ReadAll(resp.Body)
	return resp.StatusCode, data, err
}

func newLoadClient(t *testing.T, url string) *loadClient {
	t.Helper()
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 64
	t.Cleanup(tr.CloseIdleConnections)
	c := &loadClient{url: url, hc: &http.Client{Transport: tr}}
	ctx, cancel := context.WithTimeout(context.Background(), rttest.Timeout)
	defer cancel()
	if status, body, err := c.post(ctx, rttest.InitBody); err != nil || status != 200 || c.session == "" {
		t.Fatalf("initialize: %d %s %v", status, body, err)
	}
	if status, body, err := c.post(ctx, initializedMsg); err != nil || status != 202 {
		t.Fatalf("initialized: %d %s %v", status, body, err)
	}
	return c
}

// barrierTool answers once n calls are running at the same time.
func barrierTool(n int64) rt.Tool {
	var running atomic.Int64
	all := make(chan struct{})
	return rttest.Tool("barrier", func(ctx context.Context, _ *rt.ToolRequest) (*rt.CallToolResult, error) {
		if running.Add(1) == n {
			close(all)
		}
		select {
		case <-all:
			return rt.TextResult("together"), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
}

// TestHTTPLoad has 64 clients keep 1,000 calls in flight at once: each
// call answers only when all 1,000 run, and every request gets exactly one
// answer, with its id.
func TestHTTPLoad(t *testing.T) {
	const clients, calls = 64, 1000
	srv := rttest.NewServer()
	srv.AddTool(barrierTool(calls))
	ts := httptest.NewServer(mcphttp.Handler(srv))
	defer ts.Close()
	cs := make([]*loadClient, clients)
	for i := range cs {
		cs[i] = newLoadClient(t, ts.URL)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan string, calls)
	for i := range calls {
		wg.Go(func() {
			body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"barrier"}}`, i)
			status, data, err := cs[i%clients].post(ctx, body)
			var answer struct {
				ID     *int `json:"id"`
				Result struct {
					Content []struct{ Text string }
				}
			}
			dec := json.NewDecoder(bytes.NewReader(data))
			switch {
			case err != nil:
				errs <- fmt.Sprintf("call %d: %v", i, err)
			case status != 200:
				errs <- fmt.Sprintf("call %d: status %d: %s", i, status, data)
			case dec.Decode(&answer) != nil || answer.ID == nil || *answer.ID != i:
				errs <- fmt.Sprintf("call %d: answer %s", i, data)
			case dec.More():
				errs <- fmt.Sprintf("call %d: more than one answer: %s", i, data)
			case len(answer.Result.Content) != 1 || answer.Result.Content[0].Text != "together":
				errs <- fmt.Sprintf("call %d: result %s", i, data)
			}
		})
	}
	wg.Wait()
	close(errs)
	n := 0
	for e := range errs {
		if n++; n <= 10 {
			t.Error(e)
		}
	}
	if n > 0 {
		t.Fatalf("%d of %d calls failed", n, calls)
	}
}

// TestHTTPFaults runs tools that panic, never return, and return 64 MiB:
// the server answers each as it should, leaks nothing about itself, and
// serves the next request.
func TestHTTPFaults(t *testing.T) {
	started := make(chan struct{}, 1)
	ended := make(chan error, 1)
	srv := rttest.HTTPServer()
	srv.AddTool(rttest.Tool("forever", func(ctx context.Context, _ *rt.ToolRequest) (*rt.CallToolResult, error) {
		started <- struct{}{}
		<-ctx.Done()
		ended <- ctx.Err()
		return nil, ctx.Err()
	}))
	huge := strings.Repeat("x", 64<<20)
	srv.AddTool(rttest.Tool("huge", func(context.Context, *rt.ToolRequest) (*rt.CallToolResult, error) {
		return rt.TextResult(huge), nil
	}))
	srv.AddTool(rttest.Tool("fail", func(context.Context, *rt.ToolRequest) (*rt.CallToolResult, error) {
		return nil, fmt.Errorf("open /srv/secret/config.yaml: permission denied")
	}))
	c := rttest.NewHTTPClient(t, mcphttp.Handler(srv))
	c.Initialize("2025-11-25")
	alive := func() {
		t.Helper()
		if x := c.Post(echoBody, 200); !bytes.Contains(x.Body, []byte(`"text":"hi"`)) {
			t.Fatalf("the next request: %s", x.Body)
		}
	}

	// A panic: an error result that says nothing of the panic.
	x := c.Post(`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"panic"}}`, 200)
	if !bytes.Contains(x.Body, []byte(`"id":10,"result":{"content":[{"type":"text","text":"internal error`)) || !bytes.Contains(x.Body, []byte(`"isError":true`)) {
		t.Errorf("panic: %s", x.Body)
	}
	assertNoLeak(t, x.Body)
	alive()

	// A tool that never returns, until the client cancels it.
	done := make(chan *rttest.Exchange, 1)
	go func() {
		done <- c.Do("POST", `{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"forever"}}`)
	}()
	<-started
	alive() // served while the call runs
	c.Post(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":11,"reason":"tired"}}`, 202)
	select {
	case err := <-ended:
		if err != context.Canceled {
			t.Errorf("the cancelled call's context: %v", err)
		}
	case <-time.After(rttest.Timeout):
		t.Fatal("the cancelled call did not end")
	}
	if x := <-done; x.Status != 202 || len(x.Body) != 0 {
		t.Errorf("the cancelled call's POST: %d %s", x.Status, x.Body)
	}
	alive()

	// 64 MiB of result, read without validating it (slow under the race
	// detector).
	raw := &loadClient{url: c.URL, session: c.Session, hc: http.DefaultClient}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	status, body, err := raw.post(ctx, `{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"huge"}}`)
	if err != nil || status != 200 || len(body) < 64<<20 || !bytes.HasPrefix(body, []byte(`{"jsonrpc":"2.0","id":12,"result":`)) {
		t.Errorf("huge: %d, %d bytes: %.100s (%v)", status, len(body), body, err)
	}
	alive()

	// An error's text is the tool's own: the runtime adds nothing.
	x = c.Post(`{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"fail"}}`, 200)
	if !bytes.Contains(x.Body, []byte(`"isError":true`)) {
		t.Errorf("fail: %s", x.Body)
	}
	assertNoLeak(t, x.Body)
	alive()
}

// TestHTTPVanishedClientReclaimed starts sessions whose clients vanish in
// the middle of a call and with their server stream open: once idle for
// the idle timeout, each session ends, its calls are cancelled and every
// goroutine it had is gone.
func TestHTTPVanishedClientReclaimed(t *testing.T) {
	const sessions = 8
	cancelled := make(chan struct{}, sessions)
	started := make(chan struct{}, sessions)
	srv := rttest.NewServer()
	srv.AddTool(rttest.Tool("forever", func(ctx context.Context, _ *rt.ToolRequest) (*rt.CallToolResult, error) {
		// An event makes the call's stream resumable: its client going
		// away does not cancel it; the session's expiry does.
		rt.Progress(ctx, 1, 0, "started")
		started <- struct{}{}
		<-ctx.Done()
		cancelled <- struct{}{}
		return nil, ctx.Err()
	}))
	ts := httptest.NewServer(mcphttp.Handler(srv, mcphttp.WithSessionIdleTimeout(300*time.Millisecond)))
	defer ts.Close()
	base := settledGoroutines(0)

	var ids []string
	for range sessions {
		c := newLoadClient(t, ts.URL)
		ids = append(ids, c.session)
		ctx, vanish := context.WithCancel(context.Background())
		go c.post(ctx, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"forever","_meta":{"progressToken":1}}}`)
		req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL, nil)
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("Mcp-Session-Id", c.session)
		go func() {
			if resp, err := c.hc.Do(req); err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}()
		select { // the call runs, its stream resumable
		case <-started:
		case <-time.After(rttest.Timeout):
			t.Fatal("the call did not start")
		}
		time.Sleep(20 * time.Millisecond) // for the GET
		vanish()
		c.hc.CloseIdleConnections()
	}
	peak := goruntime.NumGoroutine()
	for range sessions {
		select {
		case <-cancelled:
		case <-time.After(rttest.Timeout):
			t.Fatal("a call of a vanished client was not cancelled")
		}
	}
	if n := settledGoroutines(base); n > base {
		t.Errorf("%d goroutines after the sessions ended, %d before (%d at the peak)", n, base, peak)
	} else {
		t.Logf("goroutines: %d before, %d with %d sessions, %d after", base, peak, sessions, n)
	}
	c := &loadClient{url: ts.URL, session: ids[0], hc: http.DefaultClient}
	if status, body, _ := c.post(context.Background(), rttest.ListBody); status != 404 {
		t.Errorf("a reclaimed session: %d %s, want 404", status, body)
	}
}

// settledGoroutines waits until at most want goroutines run (any number
// when want is 0, then until the count stops falling) and returns the
// count.
func settledGoroutines(want int) int {
	deadline := time.Now().Add(rttest.Timeout)
	n := goruntime.NumGoroutine()
	for time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		m := goruntime.NumGoroutine()
		if want > 0 && m <= want || want == 0 && m >= n {
			return m
		}
		n = m
	}
	return n
}
