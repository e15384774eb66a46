package runtime_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
)

// incoming is a message from the server: a request, a notification or a
// response.
type incoming struct {
	raw    []byte
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
}

func (c *testClient) recvAny() *incoming {
	c.t.Helper()
	raw := c.recv()
	m := &incoming{raw: raw}
	if err := json.Unmarshal(raw, m); err != nil {
		c.t.Fatalf("decoding %s: %v", raw, err)
	}
	return m
}

// recvRequest returns the next message, which must be a request of the
// server with the given method.
func (c *testClient) recvRequest(method string) *incoming {
	c.t.Helper()
	m := c.recvAny()
	if m.Method != method || m.ID == nil {
		c.t.Fatalf("want a %s request from the server, got %s", method, m.raw)
	}
	return m
}

// recvNotification returns the params of the next message, which must be
// a notification with the given method.
func (c *testClient) recvNotification(method string) json.RawMessage {
	c.t.Helper()
	m := c.recvAny()
	if m.Method != method || m.ID != nil {
		c.t.Fatalf("want a %s notification, got %s", method, m.raw)
	}
	return m.Params
}

// responseAmid returns the response with the given id, skipping the
// notifications with method skip that come before it, and how many it
// skipped.
func (c *testClient) responseAmid(id, skip string) (*response, int) {
	c.t.Helper()
	for n := 0; ; n++ {
		m := c.recvAny()
		if m.Method == skip && m.ID == nil {
			continue
		}
		r := c.decode(m.raw)
		if string(r.ID) != id || m.Method != "" {
			c.t.Fatalf("want the response %s, got %s", id, m.raw)
		}
		return r, n
	}
}

// answer sends the client's result for a server request.
func (c *testClient) answer(id json.RawMessage, result string) {
	c.t.Helper()
	c.send(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":` + result + `}`)
}

// initializeWith runs the handshake declaring the given client
// capabilities (JSON).
func (c *testClient) initializeWith(rev, caps string) {
	c.t.Helper()
	c.result(0, "initialize", map[string]any{
		"protocolVersion": rev,
		"capabilities":    json.RawMessage(caps),
		"clientInfo":      map[string]any{"name": "tester", "version": "0.1", "title": "Tester"},
	})
	c.notify("notifications/initialized", nil)
}

// callWithMeta sends tools/call with a _meta member.
func (c *testClient) callWithMeta(id any, name string, meta map[string]any) {
	c.t.Helper()
	params := map[string]any{"name": name}
	if meta != nil {
		params["_meta"] = meta
	}
	c.request(id, "tools/call", params)
}

// errText is a tool result for err, or a text result.
func errText(err error, text string) (*rt.CallToolResult, error) {
	if err != nil {
		return rt.TextResult("error: " + err.Error()), nil
	}
	return rt.TextResult(text), nil
}

func TestProgress(t *testing.T) {
	progressTool := rttest.Tool("work", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		// A derived context finds the call too.
		ctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		var errs []string
		for _, p := range []struct {
			progress, total float64
			msg             string
		}{{1, 3, "one"}, {2.5, 3, ""}, {2.5, 3, "again"}, {2, 3, "back"}, {3, 0, "done"}} {
			if err := rt.Progress(ctx, p.progress, p.total, p.msg); err != nil {
				errs = append(errs, err.Error())
			}
		}
		return rt.TextResult(strings.Join(errs, "\n")), nil
	})
	const refused = "runtime: Progress: progress 2.5 does not exceed the last one reported, 2.5\n" +
		"runtime: Progress: progress 2 does not exceed the last one reported, 2.5"
	for _, tc := range []struct {
		name  string
		meta  map[string]any
		token string // as JSON; "" for none
	}{
		{"string token", map[string]any{"progressToken": "tok"}, `"tok"`},
		{"number token", map[string]any{"progressToken": 17, "other": true}, `17`},
		{"no token", map[string]any{"other": 1}, ""},
		{"no meta", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := rttest.NewServer()
			srv.AddTool(progressTool)
			c := start(t, srv)
			c.initialize("2025-11-25")
			c.callWithMeta(1, "work", tc.meta)
			if tc.token != "" {
				for _, want := range []string{
					`{"progressToken":` + tc.token + `,"progress":1,"total":3,"message":"one"}`,
					`{"progressToken":` + tc.token + `,"progress":2.5,"total":3}`,
					`{"progressToken":` + tc.token + `,"progress":3,"message":"done"}`,
				} {
					jsonEqual(t, "progress", c.recvNotification("notifications/progress"), want)
				}
				if text, _ := toolText(t, c.recvResponse("1")); text != refused {
					t.Errorf("errors = %q, want %q", text, refused)
				}
				return
			}
			if text, _ := toolText(t, c.recvResponse("1")); text != "" {
				t.Errorf("without a token Progress failed: %q", text)
			}
		})
	}
}

func TestProgressNotFinite(t *testing.T) {
	zero := 0.0
	if err := rt.Progress(context.Background(), 1, 2, ""); err != nil {
		t.Errorf("outside a call: %v, want a no-op", err)
	}
	srv := rttest.NewServer()
	srv.AddTool(rttest.Tool("nan", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		return errText(rt.Progress(ctx, zero/zero, 0, ""), "sent")
	}))
	c := start(t, srv)
	c.initialize("2025-11-25")
	c.callWithMeta(1, "nan", map[string]any{"progressToken": 1})
	if text, _ := toolText(t, c.recvResponse("1")); text != "error: runtime: Progress: progress NaN and total 0 must be finite numbers" {
		t.Errorf("got %q", text)
	}
}

// logTool logs one message at each level with Log, then one with each slog
// level through Logger.
var logTool = rttest.Tool("log", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
	for l := rt.LevelDebug; l <= rt.LevelEmergency; l++ {
		if err := rt.Log(ctx, l, map[string]any{"n": int(l)}); err != nil {
			return nil, err
		}
	}
	log := rt.Logger(ctx).With("k", "v")
	log.Debug("slog debug")
	log.Info("slog info", "n", 1)
	log.Warn("slog warn")
	log.Error("slog error")
	return rt.TextResult("logged"), nil
})

func TestLogLevels(t *testing.T) {
	all := []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}
	for _, tc := range []struct {
		set       string // "" for no logging/setLevel
		from      int    // index in all of the first level sent
		slogLevel string // least severe slog message sent
	}{
		{"", 8, ""}, // nothing until the client sets a level
		{"debug", 0, "debug"},
		{"warning", 3, "warn"},
		{"emergency", 7, ""},
	} {
		t.Run("level "+tc.set, func(t *testing.T) {
			var serverLog bytes.Buffer
			var mu sync.Mutex
			srv := rttest.NewServer(rt.WithLogger(slog.New(slog.NewJSONHandler(lockedWriter{&mu, &serverLog}, &slog.HandlerOptions{Level: slog.LevelDebug}))))
			srv.AddTool(logTool)
			c := start(t, srv)
			c.initialize("2025-11-25")
			if tc.set != "" {
				jsonEqual(t, "setLevel", c.result(1, "logging/setLevel", map[string]any{"level": tc.set}), `{}`)
			}
			c.request(2, "tools/call", map[string]any{"name": "log"})
			for i := tc.from; i < len(all); i++ {
				jsonEqual(t, "log message", c.recvNotification("notifications/message"), fmt.Sprintf(`{"level":%q,"data":{"n":%d}}`, all[i], i))
			}
			slogs := []struct{ level, msg string }{{"debug", `{"msg":"slog debug","k":"v"}`}, {"info", `{"msg":"slog info","k":"v","n":1}`}, {"warning", `{"msg":"slog warn","k":"v"}`}, {"error", `{"msg":"slog error","k":"v"}`}}
			sent := 0
			for i, s := range slogs {
				if tc.slogLevel == "" || i < map[string]int{"debug": 0, "info": 1, "warn": 2}[tc.slogLevel] {
					continue
				}
				jsonEqual(t, "slog message", c.recvNotification("notifications/message"), `{"level":"`+s.level+`","data":`+s.msg+`}`)
				sent++
			}
			if text, _ := toolText(t, c.recvResponse("2")); text != "logged" {
				t.Errorf("tool said %q", text)
			}
			// What the client did not want went to the server's log.
			mu.Lock()
			defer mu.Unlock()
			if got, want := strings.Count(serverLog.String(), "\n"), tc.from+len(slogs)-sent; got != want {
				t.Errorf("server log has %d records, want %d:\n%s", got, want, serverLog.String())
			}
		})
	}
}

func TestSetLevelErrors(t *testing.T) {
	srv := rttest.NewServer()
	srv.AddTool(logTool)
	c := start(t, srv)
	wantError(t, c.call(1, "logging/setLevel", map[string]any{"level": "info"}), rt.CodeInvalidRequest,
		"Invalid Request: the session is not initialized; send initialize first", "")
	c.initialize("2025-06-18")
	const levels = "; use one of debug, info, notice, warning, error, critical, alert, emergency"
	wantError(t, c.call(2, "logging/setLevel", map[string]any{"level": "verbose"}), rt.CodeInvalidParams,
		`Invalid params: params.level "verbose" is not a log level`+levels, "")
	wantError(t, c.call(3, "logging/setLevel", nil), rt.CodeInvalidParams, "Invalid params: params.level is required"+levels, "")
	wantError(t, c.call(4, "logging/setLevel", map[string]any{"level": 3}), rt.CodeInvalidParams, "Invalid params: level: must be a string, got 3", "")
}

func TestLogHandlerOutsideSession(t *testing.T) {
	var out bytes.Buffer
	log := slog.New(rt.NewLogHandler(slog.NewTextHandler(&out, nil), "app"))
	log.Info("plain")
	if !strings.Contains(out.String(), "msg=plain") {
		t.Errorf("a record outside a session did not reach the next handler: %q", out.String())
	}
	if err := rt.Log(context.Background(), rt.LevelInfo, "x"); err == nil {
		t.Error("Log outside a session: no error")
	}
}

const allCaps = `{"sampling":{"tools":{}},"elicitation":{"form":{},"url":{}},"roots":{"listChanged":true}}`

func TestSample(t *testing.T) {
	srv := rttest.NewServer()
	srv.AddTool(rttest.Tool("ask", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		temp := 0.5
		res, err := rt.Sample(ctx, &rt.CreateMessageParams{
			Messages:         []rt.SamplingMessage{{Role: "user", Content: rt.TextContent{Text: "Capital of France?"}}},
			SystemPrompt:     "Be brief.",
			MaxTokens:        50,
			Temperature:      &temp,
			ModelPreferences: &rt.ModelPreferences{Hints: []rt.ModelHint{{Name: "small"}}},
		})
		if err != nil {
			var e *rt.Error
			if errors.As(err, &e) {
				return rt.TextResult(fmt.Sprintf("client error %d %s", e.Code, e.Message)), nil
			}
			return nil, err
		}
		return rt.TextResult(res.Model + ": " + res.Text() + " (" + res.StopReason + ")"), nil
	}))
	c := start(t, srv)
	c.initializeWith("2025-11-25", allCaps)

	c.request(1, "tools/call", map[string]any{"name": "ask"})
	r := c.recvRequest("sampling/createMessage")
	jsonEqual(t, "sampling params", r.Params, `{"messages":[{"role":"user","content":{"type":"text","text":"Capital of France?"}}],
		"modelPreferences":{"hints":[{"name":"small"}]},"systemPrompt":"Be brief.","temperature":0.5,"maxTokens":50}`)
	c.answer(r.ID, `{"role":"assistant","content":{"type":"text","text":"Paris."},"model":"m1","stopReason":"endTurn"}`)
	if text, _ := toolText(t, c.recvResponse("1")); text != "m1: Paris. (endTurn)" {
		t.Errorf("tool said %q", text)
	}

	// A client that declines answers with an error.
	c.request(2, "tools/call", map[string]any{"name": "ask"})
	r = c.recvRequest("sampling/createMessage")
	c.send(`{"jsonrpc":"2.0","id":` + string(r.ID) + `,"error":{"code":-1,"message":"User rejected sampling request"}}`)
	if text, _ := toolText(t, c.recvResponse("2")); text != "client error -1 User rejected sampling request" {
		t.Errorf("tool said %q", text)
	}
}

// elicitTool asks for confirmation in form mode, or opens a URL when the
// argument url is set.
var elicitTool = rt.Tool{
	Name:        "confirm",
	InputSchema: json.RawMessage(`{"type":"object","properties":{"url":{"type":"string"}}}`),
	Handler: func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		var args struct{ URL string }
		json.Unmarshal(req.Arguments, &args)
		p := &rt.ElicitParams{Message: "Delete everything?", RequestedSchema: json.RawMessage(`{"type":"object","properties":{"sure":{"type":"boolean"}},"required":["sure"]}`)}
		if args.URL != "" {
			p = &rt.ElicitParams{Mode: rt.ElicitURL, Message: "Sign in", URL: args.URL, ElicitationID: "e1"}
		}
		res, err := rt.Elicit(ctx, p)
		if err != nil {
			return rt.TextResult("error: " + err.Error()), nil
		}
		return rt.TextResult(res.Action + " " + string(res.Content)), nil
	},
}

func TestElicit(t *testing.T) {
	const form = `{"message":"Delete everything?","requestedSchema":{"type":"object","properties":{"sure":{"type":"boolean"}},"required":["sure"]}}`
	for _, tc := range []struct {
		name, rev, caps string
		args            map[string]any
		want            string // the request's params; "" when none is sent
		answer, text    string
	}{
		{name: "form 2025-06-18", rev: "2025-06-18", caps: `{"elicitation":{}}`, want: form,
			answer: `{"action":"accept","content":{"sure":true}}`, text: `accept {"sure":true}`},
		{name: "form 2025-11-25", rev: "2025-11-25", caps: `{"elicitation":{"form":{}}}`, want: `{"mode":"form",` + form[1:],
			answer: `{"action":"decline"}`, text: `decline `},
		{name: "empty elicitation capability means form", rev: "2025-11-25", caps: `{"elicitation":{}}`, want: `{"mode":"form",` + form[1:],
			answer: `{"action":"cancel"}`, text: `cancel `},
		{name: "url", rev: "2025-11-25", caps: allCaps, args: map[string]any{"url": "https://example.com/login"},
			want:   `{"mode":"url","message":"Sign in","url":"https://example.com/login","elicitationId":"e1"}`,
			answer: `{"action":"accept"}`, text: `accept `},
		{name: "url without its capability", rev: "2025-11-25", caps: `{"elicitation":{"form":{}}}`, args: map[string]any{"url": "https://example.com/login"},
			text: "error: runtime: Elicit: the client did not declare the elicitation capability for URLs"},
		{name: "url in 2025-06-18", rev: "2025-06-18", caps: `{"elicitation":{}}`, args: map[string]any{"url": "https://example.com/login"},
			text: "error: runtime: Elicit: URL elicitation needs protocol revision 2025-11-25 or later; the client speaks 2025-06-18"},
		{name: "form in 2025-03-26", rev: "2025-03-26", caps: `{"elicitation":{}}`,
			text: "error: runtime: Elicit: elicitation needs protocol revision 2025-06-18 or later; the client speaks 2025-03-26"},
		{name: "no capability", rev: "2025-11-25", caps: `{"sampling":{}}`,
			text: "error: runtime: Elicit: the client did not declare the elicitation capability for forms"},
		{name: "unknown action", rev: "2025-11-25", caps: allCaps, want: `{"mode":"form",` + form[1:],
			answer: `{"action":"maybe"}`, text: `error: runtime: Elicit: the client answered with the unknown action "maybe"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := rttest.NewServer()
			srv.AddTool(elicitTool)
			c := start(t, srv)
			c.initializeWith(tc.rev, tc.caps)
			c.toolCallAsync(1, "confirm", tc.args)
			if tc.want != "" {
				r := c.recvRequest("elicitation/create")
				jsonEqual(t, "elicitation params", r.Params, tc.want)
				c.answer(r.ID, tc.answer)
			}
			if text, _ := toolText(t, c.recvResponse("1")); text != tc.text {
				t.Errorf("tool said %q, want %q", text, tc.text)
			}
		})
	}
}

// toolCallAsync sends tools/call without waiting for its response.
func (c *testClient) toolCallAsync(id any, name string, args any) {
	c.t.Helper()
	params := map[string]any{"name": name}
	if args != nil {
		params["arguments"] = args
	}
	c.request(id, "tools/call", params)
}

func TestMissingCapability(t *testing.T) {
	calls := map[string]func(ctx context.Context) error{
		"sample": func(ctx context.Context) error {
			_, err := rt.Sample(ctx, &rt.CreateMessageParams{Messages: []rt.SamplingMessage{{Role: "user", Content: rt.TextContent{Text: "x"}}}, MaxTokens: 1})
			return err
		},
		"sample_tools": func(ctx context.Context) error {
			_, err := rt.Sample(ctx, &rt.CreateMessageParams{Messages: []rt.SamplingMessage{{Role: "user", Content: rt.TextContent{Text: "x"}}}, MaxTokens: 1,
				Tools: []rt.SamplingTool{{Name: "t", InputSchema: json.RawMessage(`{"type":"object"}`)}}})
			return err
		},
		"elicit": func(ctx context.Context) error {
			_, err := rt.Elicit(ctx, &rt.ElicitParams{Message: "x", RequestedSchema: json.RawMessage(`{"type":"object","properties":{}}`)})
			return err
		},
		"roots": func(ctx context.Context) error { _, err := rt.Roots(ctx); return err },
	}
	srv := rttest.NewServer()
	for name, f := range calls {
		srv.AddTool(rttest.Tool(name, func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
			err := f(ctx)
			return rt.TextResult(fmt.Sprintf("%v|%v", errors.Is(err, rt.ErrCapability), err)), nil
		}))
	}
	for _, tc := range []struct{ rev, caps, tool, want string }{
		{"2025-11-25", `{}`, "sample", "true|runtime: Sample: the client did not declare the sampling capability"},
		{"2025-11-25", `{"sampling":{}}`, "sample_tools", "true|runtime: Sample: the client did not declare the sampling.tools capability"},
		{"2025-06-18", `{"sampling":{"tools":{}}}`, "sample_tools", "true|runtime: Sample: tools in sampling need protocol revision 2025-11-25 or later; the client speaks 2025-06-18"},
		{"2025-11-25", `{"roots":null}`, "elicit", "true|runtime: Elicit: the client did not declare the elicitation capability for forms"},
		{"2024-11-05", `{"sampling":{}}`, "roots", "true|runtime: Roots: the client did not declare the roots capability"},
	} {
		t.Run(tc.tool+" "+tc.caps, func(t *testing.T) {
			c := start(t, srv)
			c.initializeWith(tc.rev, tc.caps)
			// The error comes at once: the next message is the response.
			if text, _ := toolText(t, c.toolCall(1, tc.tool, nil)); text != tc.want {
				t.Errorf("got %q, want %q", text, tc.want)
			}
		})
	}
}

func TestRoots(t *testing.T) {
	srv := rttest.NewServer()
	srv.AddTool(rttest.Tool("roots", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		roots, err := rt.Roots(ctx)
		b, _ := json.Marshal(roots)
		return errText(err, string(b))
	}))
	for _, tc := range []struct {
		name    string
		caps    string
		cached  bool
		answers []string
		want    []string
	}{
		{"cached until list_changed", `{"roots":{"listChanged":true}}`, true,
			[]string{`{"roots":[{"uri":"file:///a","name":"A"}]}`, `{"roots":[]}`},
			[]string{`[{"uri":"file:///a","name":"A"}]`, `[{"uri":"file:///a","name":"A"}]`, `[]`}},
		{"asked each time without listChanged", `{"roots":{}}`, false,
			[]string{`{"roots":[{"uri":"file:///a"}]}`, `{"roots":[{"uri":"file:///b"}]}`, `{"roots":[]}`},
			[]string{`[{"uri":"file:///a"}]`, `[{"uri":"file:///b"}]`, `[]`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := start(t, srv)
			c.initializeWith("2025-11-25", tc.caps)
			answers := tc.answers
			for i, want := range tc.want {
				if i == 2 {
					c.notify("notifications/roots/list_changed", nil)
				}
				c.toolCallAsync(i+1, "roots", nil)
				if !tc.cached || i != 1 {
					r := c.recvRequest("roots/list")
					if r.Params != nil {
						t.Errorf("roots/list params = %s, want none", r.Params)
					}
					c.answer(r.ID, answers[0])
					answers = answers[1:]
				}
				if text, _ := toolText(t, c.recvResponse(fmt.Sprint(i+1))); text != want {
					t.Errorf("call %d: %s, want %s", i+1, text, want)
				}
			}
		})
	}
}

func TestClientRequestDeadline(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []rt.Option
		wait time.Duration // the handler's own timeout; 0 for none
	}{
		{"context deadline", nil, 50 * time.Millisecond},
		{"server timeout", []rt.Option{rt.WithClientRequestTimeout(50 * time.Millisecond)}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := rttest.NewServer(tc.opts...)
			srv.AddTool(rttest.Tool("ping", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
				if tc.wait > 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, tc.wait)
					defer cancel()
				}
				err := rt.Ping(ctx)
				return rt.TextResult(fmt.Sprintf("%v|%v", errors.Is(err, context.DeadlineExceeded), err)), nil
			}))
			c := start(t, srv)
			c.initialize("2025-11-25")
			c.toolCallAsync(1, "ping", nil)
			r := c.recvRequest("ping")
			jsonEqual(t, "cancellation", c.recvNotification("notifications/cancelled"), `{"requestId":`+string(r.ID)+`,"reason":"context deadline exceeded"}`)
			if text, _ := toolText(t, c.recvResponse("1")); text != "true|runtime: ping: no answer from the client: context deadline exceeded" {
				t.Errorf("tool said %q", text)
			}
			// A late answer is dropped; the session goes on.
			c.answer(r.ID, `{}`)
			c.result(2, "ping", nil)
		})
	}
}

func TestPingAnswered(t *testing.T) {
	srv := rttest.NewServer()
	srv.AddTool(rttest.Tool("ping", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		return errText(rt.Ping(ctx), "pong")
	}))
	c := start(t, srv)
	c.initialize("2024-11-05")
	c.toolCallAsync(1, "ping", nil)
	c.answer(c.recvRequest("ping").ID, `{}`)
	if text, _ := toolText(t, c.recvResponse("1")); text != "pong" {
		t.Errorf("tool said %q", text)
	}
}

func TestCancelWhileAsking(t *testing.T) {
	got := make(chan error, 1)
	srv := rttest.NewServer()
	srv.AddTool(rttest.Tool("ask", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		_, err := rt.Elicit(ctx, &rt.ElicitParams{Message: "?", RequestedSchema: json.RawMessage(`{"type":"object","properties":{}}`)})
		got <- err
		return errText(err, "answered")
	}))
	c := start(t, srv)
	c.initializeWith("2025-11-25", allCaps)
	c.toolCallAsync(1, "ask", nil)
	r := c.recvRequest("elicitation/create")
	c.notify("notifications/cancelled", map[string]any{"requestId": 1, "reason": "changed my mind"})
	select {
	case err := <-got:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Elicit returned %v, want context.Canceled", err)
		}
	case <-time.After(rttest.Timeout):
		t.Fatal("Elicit did not return after the call was cancelled")
	}
	// The server withdraws its request; the cancelled call gets no response.
	jsonEqual(t, "cancellation", c.recvNotification("notifications/cancelled"), `{"requestId":`+string(r.ID)+`,"reason":"context canceled"}`)
	c.result(2, "ping", nil)
}

func TestClientFromContext(t *testing.T) {
	srv := rttest.NewServer()
	srv.AddTool(rttest.Tool("who", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		caps := rt.ClientCapabilities(ctx)
		b, _ := json.Marshal(struct {
			Info    rt.Implementation
			Rev     string
			S       *rt.SamplingCapability
			E       *rt.ElicitationCapability
			R       *rt.RootsCapability
			RawCaps json.RawMessage
		}{rt.ClientInfo(ctx), rt.ProtocolVersion(ctx), caps.Sampling, caps.Elicitation, caps.Roots, caps.Raw})
		return rt.TextResult(string(b)), nil
	}))
	for _, tc := range []struct{ rev, caps, want string }{
		{"2025-11-25", allCaps, `{"Info":{"Name":"tester","Version":"0.1","Title":"Tester"},"Rev":"2025-11-25",
			"S":{"Context":false,"Tools":true},"E":{"Form":true,"URL":true},"R":{"ListChanged":true},"RawCaps":` + allCaps + `}`},
		{"2025-06-18", `{"sampling":{"context":{}},"elicitation":{}}`, `{"Info":{"Name":"tester","Version":"0.1","Title":"Tester"},"Rev":"2025-06-18",
			"S":{"Context":true,"Tools":false},"E":{"Form":true,"URL":false},"R":null,"RawCaps":{"sampling":{"context":{}},"elicitation":{}}}`},
		{"2024-11-05", `{}`, `{"Info":{"Name":"tester","Version":"0.1","Title":"Tester"},"Rev":"2024-11-05","S":null,"E":null,"R":null,"RawCaps":{}}`},
	} {
		t.Run(tc.rev, func(t *testing.T) {
			c := start(t, srv)
			c.initializeWith(tc.rev, tc.caps)
			text, _ := toolText(t, c.toolCall(1, "who", nil))
			jsonEqual(t, "what the handler sees", []byte(text), tc.want)
		})
	}
	if info := rt.ClientInfo(context.Background()); info != (rt.Implementation{}) {
		t.Errorf("outside a session: %+v", info)
	}
}

func TestToolListChanged(t *testing.T) {
	srv := rttest.NewServer()
	srv.AddTool(rttest.EchoTool)
	c := start(t, srv)
	c.result(0, "initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "x", "version": "1"}})
	// Not announced before the client is initialized.
	srv.AddTool(addTool)
	c.notify("notifications/initialized", nil)
	other := start(t, srv)
	other.initialize("2025-06-18")
	// Pings make sure each server has read notifications/initialized.
	c.result("p", "ping", nil)
	other.result("p", "ping", nil)

	srv.AddTool(whoamiTool)
	for _, cl := range []*testClient{c, other} {
		if p := cl.recvNotification("notifications/tools/list_changed"); p != nil {
			t.Errorf("list_changed params = %s, want none", p)
		}
	}
	if names := toolNames(t, c.result(1, "tools/list", nil)); strings.Join(names, ",") != "echo,add,whoami" {
		t.Errorf("tools = %q", names)
	}
	if !srv.RemoveTool("add") {
		t.Error("RemoveTool(add) = false")
	}
	for _, cl := range []*testClient{c, other} {
		cl.recvNotification("notifications/tools/list_changed")
	}
	if srv.RemoveTool("add") {
		t.Error("RemoveTool of a removed tool = true")
	}
	if names := toolNames(t, c.result(2, "tools/list", nil)); strings.Join(names, ",") != "echo,whoami" {
		t.Errorf("tools after RemoveTool = %q", names)
	}
	r := c.toolCall(3, "add", map[string]any{"a": 1, "b": 2})
	wantError(t, r, rt.CodeInvalidParams, "Unknown tool: add", `{"available":["echo","whoami"]}`)
	// A session that ended is not told.
	if rest := other.finish(); len(rest) > 0 {
		t.Errorf("unexpected: %s", lines(rest))
	}
	srv.AddTool(addTool)
	c.recvNotification("notifications/tools/list_changed")
}

func TestStaleCursor(t *testing.T) {
	srv := rttest.NewServer(rt.WithPageSize(1))
	srv.AddTool(rttest.EchoTool)
	srv.AddTool(addTool)
	c := start(t, srv)
	c.initialize("2025-11-25")
	_, next := page(t, c.result(1, "tools/list", nil))
	if next == nil {
		t.Fatal("no next cursor")
	}
	// The same cursor works while the list stands.
	if names, _ := page(t, c.result(2, "tools/list", map[string]any{"cursor": *next})); strings.Join(names, ",") != "add" {
		t.Errorf("page 2 = %q", names)
	}
	srv.AddTool(whoamiTool)
	c.recvNotification("notifications/tools/list_changed")
	wantError(t, c.call(3, "tools/list", map[string]any{"cursor": *next}), rt.CodeInvalidParams,
		"Invalid params: the list of tools changed since this cursor was issued; list again without a cursor", "")
	// Listing again from the start gives consistent pages.
	var all []string
	var params any
	for i := 0; i < 5; i++ {
		names, next := page(t, c.result(10+i, "tools/list", params))
		all = append(all, names...)
		if next == nil {
			break
		}
		params = map[string]any{"cursor": *next}
	}
	if strings.Join(all, ",") != "echo,add,whoami" {
		t.Errorf("listed %q", all)
	}
}

func TestCompleteElicitation(t *testing.T) {
	srv := rttest.NewServer()
	srv.AddTool(rttest.Tool("done", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		return errText(rt.CompleteElicitation(ctx, "e1"), "told")
	}))
	for _, tc := range []struct{ rev, caps, want string }{
		{"2025-11-25", allCaps, "told"},
		{"2025-11-25", `{"elicitation":{"form":{}}}`, "error: runtime: CompleteElicitation: the client did not declare the elicitation capability for URLs"},
		{"2025-06-18", `{"elicitation":{}}`, "error: runtime: CompleteElicitation: the client did not declare the elicitation capability for URLs"},
	} {
		t.Run(tc.rev+" "+tc.caps, func(t *testing.T) {
			c := start(t, srv)
			c.initializeWith(tc.rev, tc.caps)
			c.toolCallAsync(1, "done", nil)
			if tc.want == "told" {
				jsonEqual(t, "notification", c.recvNotification("notifications/elicitation/complete"), `{"elicitationId":"e1"}`)
			}
			if text, _ := toolText(t, c.recvResponse("1")); text != tc.want {
				t.Errorf("tool said %q, want %q", text, tc.want)
			}
		})
	}
}

// TestWaitingCallsLeaveTheLimit: a call waiting for the client's answer
// does not hold one of the session's call slots, so the answer can be read
// while the client sends further calls.
func TestWaitingCallsLeaveTheLimit(t *testing.T) {
	srv := rttest.NewServer(rt.WithMaxInFlight(1))
	srv.AddTool(rttest.EchoTool)
	srv.AddTool(rttest.Tool("ping", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		return errText(rt.Ping(ctx), "pong")
	}))
	c := start(t, srv)
	c.initialize("2025-11-25")
	c.toolCallAsync(1, "ping", nil)
	r := c.recvRequest("ping")
	if text, _ := toolText(t, c.toolCall(2, "echo", map[string]any{"text": "meanwhile"})); text != "meanwhile" {
		t.Errorf("echo = %q", text)
	}
	c.answer(r.ID, `{}`)
	if text, _ := toolText(t, c.recvResponse("1")); text != "pong" {
		t.Errorf("ping tool = %q", text)
	}
}

func TestElicitBadSchema(t *testing.T) {
	var schema json.RawMessage
	srv := rttest.NewServer()
	srv.AddTool(rttest.Tool("ask", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		_, err := rt.Elicit(ctx, &rt.ElicitParams{Message: "?", RequestedSchema: schema})
		return errText(err, "asked")
	}))
	for _, tc := range []struct{ schema, want string }{
		{``, `error: runtime: Elicit: RequestedSchema must be a JSON Schema object with "type":"object" and "properties", got `},
		{`{"type":"object"}`, `error: runtime: Elicit: RequestedSchema must be a JSON Schema object with "type":"object" and "properties", got {"type":"object"}`},
		{`{"type":"string","properties":{}}`, `error: runtime: Elicit: RequestedSchema must be a JSON Schema object with "type":"object" and "properties", got {"type":"string","properties":{}}`},
		{`[1]`, `error: runtime: Elicit: RequestedSchema must be a JSON Schema object with "type":"object" and "properties", got [1]`},
	} {
		schema = json.RawMessage(tc.schema)
		c := start(t, srv)
		c.initializeWith("2025-11-25", allCaps)
		if text, _ := toolText(t, c.toolCall(1, "ask", nil)); text != tc.want {
			t.Errorf("schema %s: %q, want %q", tc.schema, text, tc.want)
		}
		c.finish()
	}
}
