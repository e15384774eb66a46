package runtime_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/mcpschema"
	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The official Go SDK client against a server that talks back, run as a
// child process over stdio. The child records the traffic so that every
// message it wrote can be validated against the schema.

// talkLogEnv names the file where the child records the traffic.
const talkLogEnv = "MCPGEN_TALK_LOG"

// talkChild serves tools that use every way of talking back to the client.
func talkChild() int {
	logf, err := os.Create(os.Getenv(talkLogEnv))
	if err != nil {
		return 1
	}
	defer logf.Close()
	rec := &recorder{w: logf}
	srv := rt.NewServer("talk", "1.0.0")
	var cancelled atomic.Int32
	srv.AddTool(rttest.Tool("work", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		log := rt.Logger(ctx)
		for i := 1; i <= 3; i++ {
			log.Info("step", "i", i)
			log.Debug("detail", "i", i)
			if err := rt.Progress(ctx, float64(i), 3, fmt.Sprintf("step %d", i)); err != nil {
				return nil, err
			}
		}
		return rt.TextResult("worked"), nil
	}))
	srv.AddTool(rttest.Tool("sample", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		res, err := rt.Sample(ctx, &rt.CreateMessageParams{Messages: []rt.SamplingMessage{{Role: "user", Content: rt.TextContent{Text: "hello"}}}, MaxTokens: 10})
		if err != nil {
			return nil, err
		}
		return rt.TextResult(res.Model + " said " + res.Text()), nil
	}))
	srv.AddTool(rttest.Tool("confirm", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		res, err := rt.Elicit(ctx, &rt.ElicitParams{
			Message:         "Delete all files?",
			RequestedSchema: json.RawMessage(`{"type":"object","properties":{"confirm":{"type":"boolean","description":"Really delete"}},"required":["confirm"]}`),
		})
		if err != nil {
			return nil, err
		}
		return rt.TextResult(res.Action + " " + string(res.Content)), nil
	}))
	srv.AddTool(rttest.Tool("roots", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		roots, err := rt.Roots(ctx)
		if err != nil {
			return nil, err
		}
		b, _ := json.Marshal(roots)
		return rt.TextResult(string(b)), nil
	}))
	srv.AddTool(rttest.Tool("ping", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		if err := rt.Ping(ctx); err != nil {
			return nil, err
		}
		return rt.TextResult("pong"), nil
	}))
	srv.AddTool(rttest.Tool("slow", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		select {
		case <-ctx.Done():
			cancelled.Add(1)
			return nil, ctx.Err()
		case <-time.After(time.Minute):
			return rt.TextResult("slept"), nil
		}
	}))
	srv.AddTool(rttest.Tool("cancelled", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		return rt.TextResult(fmt.Sprint(cancelled.Load())), nil
	}))
	srv.AddTool(rttest.Tool("grow", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		srv.AddTool(rttest.Tool("extra", nil2))
		return rt.TextResult("grown"), nil
	}))
	in := io.TeeReader(os.Stdin, rec.dir("C "))
	out := io.MultiWriter(os.Stdout, rec.dir("S "))
	if err := srv.Serve(context.Background(), in, out); err != nil {
		fmt.Fprintln(os.Stderr, "Serve:", err)
		return 1
	}
	return 0
}

// recorder writes the lines of both directions to one log, each whole
// line prefixed with its direction.
type recorder struct {
	mu sync.Mutex
	w  io.Writer
}

func (r *recorder) dir(prefix string) io.Writer { return &dirWriter{r: r, prefix: prefix} }

type dirWriter struct {
	r       *recorder
	prefix  string
	partial []byte
}

func (d *dirWriter) Write(p []byte) (int, error) {
	d.partial = append(d.partial, p...)
	for {
		i := bytes.IndexByte(d.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		d.r.mu.Lock()
		d.r.w.Write([]byte(d.prefix))
		d.r.w.Write(d.partial[:i+1])
		d.r.mu.Unlock()
		d.partial = d.partial[i+1:]
	}
}

func TestGoSDKTalkBack(t *testing.T) {
	mcpschema.RequireAll(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	logPath := t.TempDir() + "/traffic.log"
	ctx, cancel := context.WithTimeout(context.Background(), 3*rttest.Timeout)
	defer cancel()

	var mu sync.Mutex
	var progress, logs []string
	listChanged := make(chan struct{}, 1)
	client := mcp.NewClient(&mcp.Implementation{Name: "sdk", Version: "1.8.0"}, &mcp.ClientOptions{
		CreateMessageHandler: func(ctx context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			in := req.Params.Messages[0].Content.(*mcp.TextContent).Text
			return &mcp.CreateMessageResult{Model: "echo-1", Role: "assistant", Content: &mcp.TextContent{Text: strings.ToUpper(in)}}, nil
		},
		ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			if req.Params.Message != "Delete all files?" {
				return &mcp.ElicitResult{Action: "decline"}, nil
			}
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}, nil
		},
		LoggingMessageHandler: func(ctx context.Context, req *mcp.LoggingMessageRequest) {
			b, _ := json.Marshal(req.Params.Data)
			mu.Lock()
			logs = append(logs, string(req.Params.Level)+" "+string(b))
			mu.Unlock()
		},
		ProgressNotificationHandler: func(ctx context.Context, req *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			progress = append(progress, fmt.Sprintf("%v %v/%v %s", req.Params.ProgressToken, req.Params.Progress, req.Params.Total, req.Params.Message))
			mu.Unlock()
		},
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			select {
			case listChanged <- struct{}{}:
			default:
			}
		},
	})
	client.AddRoots(&mcp.Root{URI: "file:///srv/data", Name: "data"})
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=talk", talkLogEnv+"="+logPath)
	cmd.Stderr = os.Stderr
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, legacySession)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	call := func(name string, meta mcp.Meta) string {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Meta: meta, Name: name, Arguments: map[string]any{}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.IsError {
			t.Fatalf("%s: isError: %s", name, sdkText(res))
		}
		return sdkText(res)
	}

	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	if got := call("work", mcp.Meta{"progressToken": "p1"}); got != "worked" {
		t.Errorf("work = %q", got)
	}
	// The client handles notifications on goroutines of its own: wait for
	// them, then compare in order (the order on the wire is checked by
	// validateTalkTraffic).
	wantProgress := []string{"p1 1/3 step 1", "p1 2/3 step 2", "p1 3/3 step 3"}
	wantLogs := []string{`info {"i":1,"msg":"step"}`, `info {"i":2,"msg":"step"}`, `info {"i":3,"msg":"step"}`}
	for deadline := time.Now().Add(rttest.Timeout); ; time.Sleep(10 * time.Millisecond) {
		mu.Lock()
		n := min(len(progress), len(logs))
		mu.Unlock()
		if n >= 3 || time.Now().After(deadline) {
			break
		}
	}
	mu.Lock()
	slices.Sort(progress)
	slices.Sort(logs)
	if strings.Join(progress, "|") != strings.Join(wantProgress, "|") {
		t.Errorf("progress = %q, want %q", progress, wantProgress)
	}
	if strings.Join(logs, "|") != strings.Join(wantLogs, "|") {
		t.Errorf("logs = %q, want %q", logs, wantLogs)
	}
	mu.Unlock()

	for _, tc := range []struct{ tool, want string }{
		{"sample", "echo-1 said HELLO"},
		{"confirm", `accept {"confirm":true}`},
		{"roots", `[{"uri":"file:///srv/data","name":"data"}]`},
		{"ping", "pong"},
	} {
		if got := call(tc.tool, nil); got != tc.want {
			t.Errorf("%s = %q, want %q", tc.tool, got, tc.want)
		}
	}
	// The client announces a change of roots; the server asks again.
	client.AddRoots(&mcp.Root{URI: "file:///srv/more"})
	if got := call("roots", nil); !strings.Contains(got, "file:///srv/more") {
		t.Errorf("roots after a change = %q", got)
	}

	// Cancelling a call's context cancels the tool.
	slowCtx, slowCancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(slowCtx, &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{}})
		done <- err
	}()
	time.Sleep(100 * time.Millisecond)
	slowCancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled call returned %v", err)
	}
	deadline := time.Now().Add(rttest.Timeout)
	for call("cancelled", nil) != "1" {
		if time.Now().After(deadline) {
			t.Fatal("the slow tool was not cancelled")
		}
		time.Sleep(20 * time.Millisecond)
	}

	// Adding a tool while serving announces the change.
	call("grow", nil)
	select {
	case <-listChanged:
	case <-time.After(rttest.Timeout):
		t.Fatal("no tools/list_changed after a tool was added")
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || tools.Tools[len(tools.Tools)-1].Name != "extra" {
		t.Errorf("tools after grow: %v %v", tools, err)
	}

	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	validateTalkTraffic(t, logPath)
}

func sdkText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// validateTalkTraffic checks every message the server wrote against the
// schema of the negotiated revision.
func validateTalkTraffic(t *testing.T, logPath string) {
	t.Helper()
	data, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	tr := mcpschema.NewTracker()
	n := 0
	methods := map[string]int{}
	var order []string // of the progress and log notifications
	for _, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		dir, msg := line[:2], []byte(line[2:])
		if dir == "C " {
			tr.Client(msg)
			continue
		}
		n++
		var m struct {
			Method string
			Params struct {
				Progress float64
				Level    string
				Data     struct{ I int }
			}
		}
		json.Unmarshal(msg, &m)
		methods[m.Method]++
		switch m.Method {
		case "notifications/progress":
			order = append(order, fmt.Sprintf("progress %v", m.Params.Progress))
		case "notifications/message":
			order = append(order, fmt.Sprintf("%s %d", m.Params.Level, m.Params.Data.I))
		}
		if err := tr.Server(msg); err != nil {
			t.Errorf("server message does not validate (revision %q): %v\n%s", tr.Revision(), err, msg)
		}
	}
	for _, m := range []string{"notifications/progress", "notifications/message", "sampling/createMessage", "elicitation/create", "roots/list", "ping", "notifications/tools/list_changed"} {
		if methods[m] == 0 {
			t.Errorf("the server sent no %s", m)
		}
	}
	if got, want := strings.Join(order, ", "), "info 1, progress 1, info 2, progress 2, info 3, progress 3"; got != want {
		t.Errorf("progress and log notifications in the order %s, want %s", got, want)
	}
	t.Logf("validated %d server messages at revision %s", n, tr.Revision())
}
