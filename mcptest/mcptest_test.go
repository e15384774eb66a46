package mcptest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	mcpruntime "github.com/mcpgen/mcpgen/runtime"
)

// echoArgs are the arguments of the test server's echo tool.
type echoArgs struct {
	Text  string `json:"text"`
	Times int    `json:"times,omitempty"`
}

// newServer returns a server with hand-written tools: echo (text), sum
// (structured), fail (a tool error), and block, which waits until release
// is closed or its context ends.
func newServer(t *testing.T, release chan struct{}, opts ...mcpruntime.Option) *mcpruntime.Server {
	s := mcpruntime.NewServer("test", "1.0", opts...)
	s.AddTool(mcpruntime.Tool{
		Name:        "echo",
		Title:       "Echo",
		Description: "Echo repeats text.",
		InputSchema: []byte(`{"type":"object","properties":{"text":{"type":"string"},"times":{"type":"integer"}},"required":["text"]}`),
		Annotations: &mcpruntime.ToolAnnotations{ReadOnlyHint: mcpruntime.Bool(true)},
		Handler: func(ctx context.Context, req *mcpruntime.ToolRequest) (*mcpruntime.CallToolResult, error) {
			var in echoArgs
			if err := json.Unmarshal(req.Arguments, &in); err != nil {
				return nil, fmt.Errorf("bad arguments: %v", err)
			}
			if req.Session != nil {
				req.Session.Notify("notifications/message", []byte(`{"level":"info","data":"echoing"}`))
			}
			return mcpruntime.TextResult(strings.Repeat(in.Text, max(in.Times, 1))), nil
		},
	})
	s.AddTool(mcpruntime.Tool{
		Name:         "sum",
		InputSchema:  []byte(`{"type":"object"}`),
		OutputSchema: []byte(`{"type":"object","properties":{"sum":{"type":"integer"}}}`),
		Handler: func(ctx context.Context, req *mcpruntime.ToolRequest) (*mcpruntime.CallToolResult, error) {
			var in struct{ A, B int }
			if err := json.Unmarshal(req.Arguments, &in); err != nil {
				return nil, err
			}
			return mcpruntime.StructuredResult(fmt.Appendf(nil, `{"sum":%d,"terms":[%d,%d]}`, in.A+in.B, in.A, in.B)), nil
		},
	})
	s.AddTool(mcpruntime.Tool{
		Name:        "fail",
		InputSchema: []byte(`{"type":"object"}`),
		Handler: func(ctx context.Context, req *mcpruntime.ToolRequest) (*mcpruntime.CallToolResult, error) {
			return nil, errors.New("disk on fire")
		},
	})
	s.AddTool(mcpruntime.Tool{
		Name:        "block",
		InputSchema: []byte(`{"type":"object"}`),
		Handler: func(ctx context.Context, req *mcpruntime.ToolRequest) (*mcpruntime.CallToolResult, error) {
			select {
			case <-release:
				return mcpruntime.TextResult("released"), nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		},
	})
	return s
}

func TestCallTool(t *testing.T) {
	c := Start(t, newServer(t, nil))
	tests := []struct {
		name string
		tool string
		args any
		text string
	}{
		{"Go value", "echo", echoArgs{Text: "ab", Times: 2}, "abab"},
		{"map", "echo", map[string]any{"text": "x"}, "x"},
		{"json.RawMessage", "echo", json.RawMessage(`{"text":"raw","times":3}`), "rawrawraw"},
		{"[]byte", "echo", []byte(`{"text":"b"}`), "b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := c.CallTool(t, tt.tool, tt.args).WantOK()
			if got := res.Text(); got != tt.text {
				t.Errorf("text = %q, want %q", got, tt.text)
			}
			if res.IsError || res.StructuredContent != nil {
				t.Errorf("result = %s, want a plain text result", res.Raw)
			}
		})
	}
	if n := c.Notifications(); len(n) != len(tests) || n[0].Method != "notifications/message" || string(n[0].Params) != `{"level":"info","data":"echoing"}` {
		t.Errorf("notifications = %+v, want one log message per echo call", n)
	}
}

func TestStructured(t *testing.T) {
	c := Start(t, newServer(t, nil))
	res := c.CallTool(t, "sum", map[string]int{"A": 2, "B": 3}).WantOK()
	res.WantStructured(`{"terms": [2, 3], "sum": 5}`)
	type sum struct {
		Sum   int   `json:"sum"`
		Terms []int `json:"terms"`
	}
	if got := Structured[sum](res); got.Sum != 5 || len(got.Terms) != 2 {
		t.Errorf("Structured = %+v", got)
	}
}

func TestToolAndProtocolErrors(t *testing.T) {
	c := Start(t, newServer(t, nil))
	c.CallTool(t, "fail", nil).WantError("disk on fire")

	_, err := c.Request("tools/call", map[string]any{"name": "nope", "arguments": map[string]any{}})
	var rpcErr *RPCError
	if !errors.As(err, &rpcErr) || rpcErr.Code != -32602 {
		t.Errorf("calling an unknown tool: err = %v, want an RPCError with code -32602", err)
	}
	if _, err := c.Request("tools/call", json.RawMessage(`{"name":`)); err == nil || !strings.Contains(err.Error(), "not valid JSON") {
		t.Errorf("invalid raw params: err = %v, want a complaint about the JSON", err)
	}
}

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	mu     sync.Mutex
	errors []string
	fatal  bool
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	r.mu.Lock()
	r.fatal = true
	r.mu.Unlock()
	runtime.Goexit()
}

// record runs f with a recorder on its own goroutine, as t.Fatal needs.
func record(t *testing.T, f func(tb testing.TB)) *recorder {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r
}

// The assertions fail a test when, and only when, they should.
func TestAssertions(t *testing.T) {
	c := Start(t, newServer(t, nil))
	ok := c.CallTool(t, "echo", echoArgs{Text: "hi"})
	bad := c.CallTool(t, "fail", nil)
	sum := c.CallTool(t, "sum", map[string]int{"A": 1, "B": 1})
	tests := []struct {
		name string
		run  func(tb testing.TB)
		want string // "" for no failure, else a substring of the failure
	}{
		{"WantOK on success", func(tb testing.TB) { with(ok, tb).WantOK() }, ""},
		{"WantOK on error", func(tb testing.TB) { with(bad, tb).WantOK() }, "the tool failed (isError): disk on fire"},
		{"WantError on error", func(tb testing.TB) { with(bad, tb).WantError("disk", "fire") }, ""},
		{"WantError wrong text", func(tb testing.TB) { with(bad, tb).WantError("flood") }, `does not contain "flood"`},
		{"WantError on success", func(tb testing.TB) { with(ok, tb).WantError() }, "want an error"},
		{"WantStructured equal", func(tb testing.TB) { with(sum, tb).WantStructured(`{"sum":2,"terms":[1,1]}`) }, ""},
		{"WantStructured differs", func(tb testing.TB) { with(sum, tb).WantStructured(`{"sum":3,"terms":[1,1]}`) }, "structured content differs"},
		{"WantStructured none", func(tb testing.TB) { with(ok, tb).WantStructured(`{}`) }, "no structured content"},
		{"Decode none", func(tb testing.TB) { var v any; with(ok, tb).Decode(&v) }, "no structured content"},
		{"Decode wrong type", func(tb testing.TB) { var v []int; with(sum, tb).Decode(&v) }, "does not decode into *[]int"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := record(t, tt.run)
			got := strings.Join(r.errors, "\n")
			switch {
			case tt.want == "" && got != "":
				t.Errorf("failed: %s", got)
			case tt.want != "" && !strings.Contains(got, tt.want):
				t.Errorf("failure = %q, want it to contain %q", got, tt.want)
			}
		})
	}
}

// with returns a copy of r that reports to tb.
func with(r *Result, tb testing.TB) *Result {
	c := *r
	c.t = tb
	return &c
}

func TestListToolsAndManifest(t *testing.T) {
	// A page size of 1 makes ListTools follow cursors.
	c := Start(t, newServer(t, nil, mcpruntime.WithPageSize(1)))
	tools := c.ListTools(t)
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
	}
	if got := strings.Join(names, ","); got != "echo,sum,fail,block" {
		t.Errorf("tools = %s", got)
	}
	if tools[0].Title != "Echo" || string(tools[0].Annotations) != `{"readOnlyHint":true}` || tools[1].OutputSchema == nil {
		t.Errorf("tools[0] = %+v, tools[1] = %+v", tools[0], tools[1])
	}
	m := c.Manifest(t)
	want := `{
  "tools": [
    {
      "name": "echo",
      "title": "Echo",
      "description": "Echo repeats text.",
      "inputSchema": {
        "type": "object",`
	if !strings.HasPrefix(string(m), want) || !strings.HasSuffix(string(m), "\n  ]\n}\n") {
		t.Errorf("manifest:\n%s", m)
	}
}

func TestGolden(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(path, []byte("a\nb\nc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, got, want string
	}{
		{"equal", "a\nb\nc\n", ""},
		{"line differs", "a\nB\nc\n", "differs at line 2 (run the test with -mcptest.update to accept the new output)\n got: B\nwant: b"},
		{"shorter", "a\nb\n", "differs at line 3 (run the test with -mcptest.update to accept the new output)\n got: (end of file)\nwant: c"},
		{"longer", "a\nb\nc\nd\n", " got: d\nwant: (end of file)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := record(t, func(tb testing.TB) { Golden(tb, path, []byte(tt.got)) })
			got := strings.Join(r.errors, "\n")
			if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
				t.Errorf("failure = %q, want %q", got, tt.want)
			}
		})
	}
	r := record(t, func(tb testing.TB) { Golden(tb, filepath.Join(t.TempDir(), "missing.json"), nil) })
	if !r.fatal || !strings.Contains(strings.Join(r.errors, ""), "-mcptest.update to create it") {
		t.Errorf("missing file: %q", r.errors)
	}

	*update = true
	defer func() { *update = false }()
	newPath := filepath.Join(t.TempDir(), "sub", "new.json")
	Golden(t, newPath, []byte("new\n"))
	if b, err := os.ReadFile(newPath); err != nil || string(b) != "new\n" {
		t.Errorf("with -mcptest.update: %q, %v", b, err)
	}
}

// A call in flight when the test ends is answered before the session
// closes; nothing the client or server started outlives the test.
func TestCleanupLeavesNoGoroutines(t *testing.T) {
	before := runtime.NumGoroutine()
	release := make(chan struct{})
	var answered *Result
	t.Run("session", func(t *testing.T) {
		c := Start(t, newServer(t, release))
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			raw, err := c.Request("tools/call", map[string]any{"name": "block"})
			if err != nil {
				t.Error(err)
				return
			}
			answered = &Result{t: t}
			json.Unmarshal(raw, answered)
		}()
		c.CallTool(t, "echo", echoArgs{Text: "x"}).WantOK()
		time.AfterFunc(20*time.Millisecond, func() { close(release) })
		t.Cleanup(wg.Wait)
	})
	if answered == nil || answered.Text() != "released" {
		t.Errorf("the call in flight at the end got %+v, want its answer", answered)
	}
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines before the session, %d after:\n%s", before, n, buf[:runtime.Stack(buf, true)])
	}
}

// A handler that never returns makes Close fail after the timeout rather
// than hang the test.
func TestCloseTimesOut(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	var r *recorder
	t.Cleanup(func() {
		// Start's cleanup, which ran before this one, reported it too.
		if got := strings.Join(r.errors, "\n"); !strings.Contains(got, "mcptest: the server did not stop within 100ms") {
			t.Errorf("failures reported: %q, want the timeout", got)
		}
	})
	r = record(t, func(tb testing.TB) {
		c := Start(tb, newServer(t, release), WithTimeout(100*time.Millisecond))
		go c.Request("tools/call", map[string]any{"name": "block"})
		time.Sleep(10 * time.Millisecond)
		err := c.Close()
		if err == nil || !strings.Contains(err.Error(), "did not stop within 100ms") {
			t.Errorf("Close = %v, want a timeout", err)
		}
		if err2 := c.Close(); err2 != err {
			t.Errorf("second Close = %v, want %v", err2, err)
		}
	})
}

// The client asks for the revision WithProtocolVersion names; the server
// then leaves out what that revision lacks (titles, structured content).
func TestProtocolVersion(t *testing.T) {
	for _, tt := range []struct {
		version    string
		title      bool
		structured bool
	}{
		{"2024-11-05", false, false},
		{"2025-06-18", true, true},
	} {
		t.Run(tt.version, func(t *testing.T) {
			c := Start(t, newServer(t, nil), WithProtocolVersion(tt.version))
			var init struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			if err := json.Unmarshal(c.InitializeResult(), &init); err != nil || init.ProtocolVersion != tt.version {
				t.Errorf("negotiated %q (%v), want %q", init.ProtocolVersion, err, tt.version)
			}
			if got := c.ListTools(t)[0].Title != ""; got != tt.title {
				t.Errorf("echo has a title: %v, want %v", got, tt.title)
			}
			if got := c.CallTool(t, "sum", map[string]int{"A": 1}).StructuredContent != nil; got != tt.structured {
				t.Errorf("sum has structured content: %v, want %v", got, tt.structured)
			}
		})
	}
}
