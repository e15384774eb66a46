package mcphttp_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// cutTransport cuts the first event stream answering a tools/call after its
// second event (the priming event and one message), as a network failure
// would, and calls onCut.
type cutTransport struct {
	once  sync.Once
	onCut func()
}

func (c *cutTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var isCall bool
	if req.Method == "POST" && req.GetBody != nil {
		if b, err := req.GetBody(); err == nil {
			data, _ := io.ReadAll(b)
			isCall = bytes.Contains(data, []byte(`"tools/call"`))
		}
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil || !isCall || resp.Header.Get("Content-Type") != "text/event-stream" {
		return resp, err
	}
	c.once.Do(func() { resp.Body = &cutBody{ReadCloser: resp.Body, events: 2, onCut: c.onCut} })
	return resp, nil
}

// cutBody ends with an error after a number of events.
type cutBody struct {
	io.ReadCloser
	events int
	onCut  func()
	cut    bool
}

func (b *cutBody) Read(p []byte) (int, error) {
	if b.cut {
		return 0, io.ErrUnexpectedEOF
	}
	n, err := b.ReadCloser.Read(p)
	for i := 0; i+1 < n; i++ {
		if p[i] == '\n' && p[i+1] == '\n' {
			b.events--
			if b.events == 0 {
				b.cut = true
				b.ReadCloser.Close()
				b.onCut()
				return i + 2, nil
			}
		}
	}
	return n, err
}

// TestHTTPResumeGoSDK: the official Go SDK client loses a call's event
// stream after its first message, resumes it and gets every message and
// the answer.
func TestHTTPResumeGoSDK(t *testing.T) {
	gate := make(chan struct{})
	srv := rttest.NewServer()
	srv.AddTool(rttest.Tool("steps", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		for i, step := range []string{"one", "two"} {
			if i == 1 {
				select {
				case <-gate:
				case <-time.After(rttest.Timeout):
				}
			}
			rt.Log(ctx, rt.LevelInfo, step)
		}
		return rt.TextResult("finished"), nil
	}))
	ts := httptest.NewServer(mcphttp.Handler(srv))
	defer ts.Close()

	var mu sync.Mutex
	var logs []string
	client := mcp.NewClient(&mcp.Implementation{Name: "resume", Version: "0"}, &mcp.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			mu.Lock()
			logs = append(logs, req.Params.Data.(string))
			mu.Unlock()
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), rttest.Timeout)
	defer cancel()
	cut := &cutTransport{onCut: func() { close(gate) }}
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL, HTTPClient: &http.Client{Transport: cut}}, legacySession)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "debug"}); err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "steps"})
	if err != nil {
		t.Fatalf("call: %v", err)
	}
	if len(res.Content) != 1 || res.Content[0].(*mcp.TextContent).Text != "finished" {
		t.Errorf("result %+v", res.Content)
	}
	select {
	case <-gate:
	default:
		t.Fatal("the stream was never cut")
	}
	// The client handles notifications apart from responses: wait for them.
	got := func() string {
		mu.Lock()
		defer mu.Unlock()
		return strings.Join(logs, " ")
	}
	for deadline := time.Now().Add(rttest.Timeout); got() != "one two" && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if got() != "one two" {
		t.Errorf("log messages %q, want one two", got())
	}
}
