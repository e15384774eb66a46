package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/e2e"
	"github.com/mcpgen/mcpgen/internal/mcpschema"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
	"github.com/mcpgen/mcpgen/runtime/websocket"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// recorder is a reverse proxy in front of one or more servers (round
// robin) that records every exchange, so that the messages the servers
// send can be validated against the MCP schema.
type recorder struct {
	mu        sync.Mutex
	exchanges []recorded
}

type recorded struct {
	request     []byte // the client's message(s), if any
	status      int
	contentType string // of the response
	response    []byte
}

// proxy starts the recording proxy in front of targets.
func (rec *recorder) proxy(t *testing.T, targets ...*url.URL) string {
	var next atomic.Uint64
	rp := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(targets[(next.Add(1)-1)%uint64(len(targets))])
			r.Out.URL.Path = r.In.URL.Path
		},
		ModifyResponse: func(resp *http.Response) error {
			var req []byte
			if gb := resp.Request.GetBody; gb != nil {
				if b, err := gb(); err == nil {
					req, _ = io.ReadAll(b)
				}
			}
			resp.Body = &recordingBody{ReadCloser: resp.Body, done: func(body []byte) {
				rec.mu.Lock()
				rec.exchanges = append(rec.exchanges, recorded{req, resp.StatusCode, resp.Header.Get("Content-Type"), body})
				rec.mu.Unlock()
			}}
			return nil
		},
	}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Buffer the body, so that ModifyResponse can read it again.
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
		r.ContentLength = int64(len(body))
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}

// recordingBody passes a response body through and hands all of it to done
// when it is closed.
type recordingBody struct {
	io.ReadCloser
	buf  bytes.Buffer
	once sync.Once
	done func([]byte)
}

func (b *recordingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.buf.Write(p[:n])
	return n, err
}

func (b *recordingBody) Close() error {
	b.once.Do(func() { b.done(b.buf.Bytes()) })
	return b.ReadCloser.Close()
}

// validate checks every recorded server message against the schema of the
// negotiated revision, and that there were want of them.
func (rec *recorder) validate(t *testing.T, want int) {
	t.Helper()
	mcpschema.RequireAll(t)
	rec.mu.Lock()
	defer rec.mu.Unlock()
	tr := mcpschema.NewTracker()
	server := 0
	for _, x := range rec.exchanges {
		if len(x.request) > 0 {
			tr.Client(x.request)
		}
		var msgs [][]byte
		switch {
		case x.status != http.StatusOK:
			if x.status >= 300 {
				t.Logf("HTTP %d: %s", x.status, x.response)
			}
		case x.contentType == "application/json":
			msgs = [][]byte{x.response}
		case x.contentType == "text/event-stream":
			msgs = e2e.EventData(x.response)
		}
		for _, msg := range msgs {
			server++
			if err := tr.Server(msg); err != nil {
				t.Errorf("server message does not validate (revision %q): %v\n%s", tr.Revision(), err, msg)
			}
		}
	}
	if server != want {
		t.Errorf("%d server messages recorded, want %d: one per request", server, want)
	}
	if tr.Revision() == "" {
		t.Errorf("no revision negotiated")
	}
	t.Logf("validated %d server messages in %d HTTP exchanges at revision %s", server, len(rec.exchanges), tr.Revision())
}

// testFolder makes the folder the tools read in the HTTP tests.
func testFolder(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for _, f := range []string{"main.go", "util.go", "README.md", "sub/deep.go"} {
		p := filepath.Join(root, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// exerciseGoSDK lists the tools and makes a good call, a bad call and a
// call of an unknown tool: five server messages with initialize.
func exerciseGoSDK(ctx context.Context, t *testing.T, cs *mcp.ClientSession) {
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 2 || res.Tools[0].Name != "search_files" || res.Tools[1].OutputSchema == nil {
		t.Errorf("tools = %+v", res.Tools)
	}
	good, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_files", Arguments: map[string]any{"pattern": "*.go", "recursive": true}})
	if err != nil {
		t.Fatal(err)
	}
	if got := text(good); good.IsError || got != "main.go\nsub/deep.go\nutil.go" {
		t.Errorf("good call = %q (isError %v)", got, good.IsError)
	}
	bad, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_files", Arguments: map[string]any{"limit": 500, "recursive": "yes"}})
	if err != nil {
		t.Fatalf("a validation failure must be a tool result, not a protocol error: %v", err)
	}
	if !bad.IsError || !strings.Contains(text(bad), "limit: must be an integer ≤ 100, got 500") {
		t.Errorf("bad call = %q (isError %v)", text(bad), bad.IsError)
	}
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "delete_everything", Arguments: map[string]any{}})
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInvalidParams || !strings.Contains(werr.Message, "Unknown tool: delete_everything") {
		t.Errorf("err = %v, want JSON-RPC -32602 Unknown tool", err)
	}
}

// TestEndToEndGoSDKHTTP runs the server binary with -http and the official
// Go SDK client over Streamable HTTP, then over HTTP+SSE.
func TestEndToEndGoSDKHTTP(t *testing.T) {
	bin := buildServer(t)
	root := testFolder(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-http", "127.0.0.1:0", "-root", root)
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	// The server logs the URL it serves at.
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if _, u, ok := strings.Cut(sc.Text(), "url="); ok {
				urls <- u
			}
		}
		exited <- cmd.Wait()
	}()
	var server *url.URL
	select {
	case u := <-urls:
		var err error
		if server, err = url.Parse(u); err != nil || server.Path != "/mcp" {
			t.Fatalf("server URL %q", u)
		}
	case <-ctx.Done():
		t.Fatal("the server did not say where it serves")
	}
	server.Path = ""
	var rec recorder
	endpoint := rec.proxy(t, server)

	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "0.0.1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint}, legacySession)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	if cs.ID() == "" {
		t.Error("no session id")
	}
	exerciseGoSDK(ctx, t, cs)
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	rec.validate(t, 5)

	// The same server, reached by a client of the HTTP+SSE transport.
	var recSSE recorder
	cs, err = client.Connect(ctx, &mcp.SSEClientTransport{Endpoint: recSSE.proxy(t, server) + "/sse"}, legacySession)
	if err != nil {
		t.Fatalf("connect over HTTP+SSE: %v", err)
	}
	exerciseGoSDK(ctx, t, cs)
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}

	// SIGTERM shuts the server down cleanly.
	cmd.Process.Signal(os.Interrupt)
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("server exit: %v", err)
		}
	case <-ctx.Done():
		t.Error("the server did not shut down")
	}
	recSSE.validate(t, 5)
}

// TestEndToEndStatelessReplicas puts three stateless replicas behind a
// round-robin proxy: the client works through it although consecutive
// requests reach different replicas.
func TestEndToEndStatelessReplicas(t *testing.T) {
	root := testFolder(t)
	r, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var targets []*url.URL
	var hits [3]atomic.Int32
	for i := range hits {
		s := runtime.NewServer("files", "0.1.0")
		RegisterMCP(s, &FS{root: r.FS()})
		h := mcphttp.Handler(s, mcphttp.WithStateless())
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			hits[i].Add(1)
			h.ServeHTTP(w, req)
		}))
		defer ts.Close()
		u, _ := url.Parse(ts.URL)
		targets = append(targets, u)
	}
	var rec recorder
	endpoint := rec.proxy(t, targets...)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "0.0.1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint}, legacySession)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	exerciseGoSDK(ctx, t, cs)
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	for i := range hits {
		if hits[i].Load() == 0 {
			t.Errorf("replica %d got no request", i)
		}
	}
	rec.validate(t, 5)
}

// TestEndToEndTypeScriptSDKHTTP runs the official TypeScript SDK client
// over Streamable HTTP, with sessions and stateless, and over HTTP+SSE.
func TestEndToEndTypeScriptSDKHTTP(t *testing.T) {
	node, clientDir := tsClient(t)
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "big.go"), make([]byte, 100), 0o644)
	os.WriteFile(filepath.Join(root, "small.go"), []byte("x"), 0o644)
	r, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, mode := range []struct {
		name, flag, path string
		opts             []mcphttp.Option
	}{
		{"sessions", "--http", "", nil},
		{"stateless", "--http", "", []mcphttp.Option{mcphttp.WithStateless()}},
		{"HTTP+SSE", "--sse", "/sse", nil},
	} {
		t.Run(mode.name, func(t *testing.T) {
			s := runtime.NewServer("files", "0.1.0")
			RegisterMCP(s, &FS{root: r.FS()})
			ts := httptest.NewServer(mcphttp.Handler(s, mode.opts...))
			defer ts.Close()
			target, _ := url.Parse(ts.URL)
			var rec recorder
			endpoint := rec.proxy(t, target)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, node, filepath.Join(clientDir, "client.mjs"), mode.flag, endpoint+mode.path)
			cmd.Stderr = os.Stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("TypeScript client: %v\n%s", err, out)
			}
			checkTypeScriptClient(t, out)
			rec.validate(t, 6)
		})
	}
}

// TestEndToEndTypeScriptSDKWebSocket runs the official TypeScript SDK
// client over WebSocket (runtime/websocket; the WebSocket package's own
// tests validate the messages against the schema).
func TestEndToEndTypeScriptSDKWebSocket(t *testing.T) {
	node, clientDir := tsClient(t)
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "big.go"), make([]byte, 100), 0o644)
	os.WriteFile(filepath.Join(root, "small.go"), []byte("x"), 0o644)
	r, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s := runtime.NewServer("files", "0.1.0")
	RegisterMCP(s, &FS{root: r.FS()})
	ts := httptest.NewServer(websocket.Handler(s))
	defer ts.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// Node 20 has WebSocket behind a flag; later versions have it anyway.
	cmd := exec.CommandContext(ctx, node, "--experimental-websocket", filepath.Join(clientDir, "client.mjs"), "--ws", "ws"+strings.TrimPrefix(ts.URL, "http"))
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("TypeScript client: %v\n%s", err, out)
	}
	checkTypeScriptClient(t, out)
}
