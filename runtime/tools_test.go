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

	"github.com/mcpgen/mcpgen/internal/mcpschema"
	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// fullTool has every optional member of a tool.
var fullTool = rt.Tool{
	Name:        "full",
	Title:       "Full Tool",
	Description: "Has everything.",
	// Spread over lines: the runtime must compact it into one message line.
	InputSchema:  json.RawMessage("{\n  \"type\": \"object\",\n  \"properties\": {\"q\": {\"type\": \"string\"}}\n}"),
	OutputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`),
	Annotations:  &rt.ToolAnnotations{ReadOnlyHint: rt.Bool(true), OpenWorldHint: rt.Bool(false)},
	Handler: func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		return rt.Structured(map[string]int{"n": 1}, "")
	},
}

// bareTool has no optional member.
var bareTool = rt.Tool{
	Name:        "bare",
	InputSchema: json.RawMessage(rttest.ObjSchema),
	Handler: func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		return rt.TextResult("bare"), nil
	},
}

func TestToolsListShapes(t *testing.T) {
	const (
		in    = `"inputSchema":{"type":"object","properties":{"q":{"type":"string"}}}`
		out   = `"outputSchema":{"type":"object","properties":{"n":{"type":"integer"}}}`
		ann   = `"annotations":{"readOnlyHint":true,"openWorldHint":false}`
		bare  = `{"name":"bare","inputSchema":{"type":"object"}}`
		old   = `{"tools":[{"name":"full","description":"Has everything.",` + in + `},` + bare + `]}`
		mid   = `{"tools":[{"name":"full","description":"Has everything.",` + in + `,` + ann + `},` + bare + `]}`
		fresh = `{"tools":[{"name":"full","title":"Full Tool","description":"Has everything.",` + in + `,` + out + `,` + ann + `},` + bare + `]}`
	)
	for _, tc := range []struct{ rev, want string }{
		{"2024-11-05", old},
		{"2025-03-26", mid},
		{"2025-06-18", fresh},
		{"2025-11-25", fresh},
	} {
		t.Run(tc.rev, func(t *testing.T) {
			srv := rttest.NewServer()
			srv.AddTool(fullTool)
			srv.AddTool(bareTool)
			c := start(t, srv)
			c.initialize(tc.rev)
			first := c.result(1, "tools/list", nil)
			jsonEqual(t, "tools/list", first, tc.want)
			// Deterministic: the same bytes every time, also with empty params.
			for i, params := range []any{map[string]any{}, map[string]any{"cursor": nil}, map[string]any{"_meta": map[string]any{"progressToken": 1}}} {
				if again := c.result(2+i, "tools/list", params); !bytes.Equal(again, first) {
					t.Errorf("tools/list %d = %s, want %s", i, again, first)
				}
			}
		})
	}
}

func TestToolsListOrder(t *testing.T) {
	srv := rttest.NewServer()
	names := []string{"zeta", "alpha", "mid.dle", "b-2", "B_1"}
	for _, n := range names {
		srv.AddTool(rttest.Tool(n, nil2))
	}
	c := start(t, srv)
	c.initialize("2025-11-25")
	for i := range 3 {
		if got := toolNames(t, c.result(i, "tools/list", nil)); strings.Join(got, " ") != strings.Join(names, " ") {
			t.Fatalf("tools/list names %q, want registration order %q", got, names)
		}
	}
}

func nil2(context.Context, *rt.ToolRequest) (*rt.CallToolResult, error) { return nil, nil }

// toolNames returns the names of a tools/list page and its cursor.
func toolNames(t testing.TB, res json.RawMessage) []string {
	t.Helper()
	names, _ := page(t, res)
	return names
}

func page(t testing.TB, res json.RawMessage) ([]string, *string) {
	t.Helper()
	var p struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
		NextCursor *string `json:"nextCursor"`
	}
	if err := json.Unmarshal(res, &p); err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(p.Tools))
	for i, tl := range p.Tools {
		names[i] = tl.Name
	}
	return names, p.NextCursor
}

func TestToolsListPagination(t *testing.T) {
	for _, tc := range []struct {
		name  string
		size  int
		tools int
		pages []string // names per page, space-separated
	}{
		{"2 of 5", 2, 5, []string{"t1 t2", "t3 t4", "t5"}},
		{"2 of 4", 2, 4, []string{"t1 t2", "t3 t4"}},
		{"1 of 3", 1, 3, []string{"t1", "t2", "t3"}},
		{"5 of 5", 5, 5, []string{"t1 t2 t3 t4 t5"}},
		{"10 of 5", 10, 5, []string{"t1 t2 t3 t4 t5"}},
		{"0 means all", 0, 5, []string{"t1 t2 t3 t4 t5"}},
		{"negative means all", -1, 5, []string{"t1 t2 t3 t4 t5"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := rttest.NewServer(rt.WithPageSize(tc.size))
			for i := 1; i <= tc.tools; i++ {
				srv.AddTool(rttest.Tool(fmt.Sprintf("t%d", i), nil2))
			}
			c := start(t, srv)
			c.initialize("2025-06-18")
			var got []string
			var cursors []string
			var params any
			for i := 0; ; i++ {
				if i > tc.tools+1 {
					t.Fatalf("more pages than tools: %q", got)
				}
				names, next := page(t, c.result(i, "tools/list", params))
				got = append(got, strings.Join(names, " "))
				if next == nil {
					break
				}
				cursors = append(cursors, *next)
				params = map[string]any{"cursor": *next}
			}
			if strings.Join(got, "|") != strings.Join(tc.pages, "|") {
				t.Errorf("pages %q, want %q", got, tc.pages)
			}
			// Cursors stay valid and lead to the same pages.
			for i, cur := range cursors {
				names, _ := page(t, c.result(100+i, "tools/list", map[string]any{"cursor": cur}))
				if strings.Join(names, " ") != tc.pages[i+1] {
					t.Errorf("cursor %q again: %q, want %q", cur, names, tc.pages[i+1])
				}
			}
		})
	}
}

func TestToolsListInvalidCursor(t *testing.T) {
	srv := rttest.NewServer(rt.WithPageSize(2))
	for i := 1; i <= 5; i++ {
		srv.AddTool(rttest.Tool(fmt.Sprintf("t%d", i), nil2))
	}
	c := start(t, srv)
	c.initialize("2025-11-25")
	_, next := page(t, c.result(1, "tools/list", nil))
	if next == nil {
		t.Fatal("no nextCursor on the first page")
	}
	for i, tc := range []struct {
		name    string
		params  string
		message string
	}{
		{"garbage", `{"cursor":"not a cursor!"}`, "Invalid params: invalid cursor"},
		{"base64 of something else", `{"cursor":"bm9wZQ"}`, "Invalid params: invalid cursor"},
		{"changed cursor", `{"cursor":"` + *next + `x"}`, "Invalid params: invalid cursor"},
		{"number", `{"cursor":2}`, "Invalid params: cursor: must be a string, got 2"},
		{"params an array", `[1]`, "Invalid params: params: must be an object, got an array"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c.t = t
			wantError(t, c.call(10+i, "tools/list", json.RawMessage(tc.params)), rt.CodeInvalidParams, tc.message, "")
		})
	}
	c.t = t
	// The session still lists.
	if names := toolNames(t, c.result(2, "tools/list", nil)); strings.Join(names, " ") != "t1 t2" {
		t.Errorf("after invalid cursors: %q", names)
	}
}

// The tools of TestToolsCall.
var (
	failTool = rttest.Tool("fail", func(context.Context, *rt.ToolRequest) (*rt.CallToolResult, error) {
		return nil, errors.New("disk on fire")
	})
	rpcErrTool = rttest.Tool("rpcerr", func(context.Context, *rt.ToolRequest) (*rt.CallToolResult, error) {
		return nil, rt.NewError(-32001, "quota exceeded", map[string]int{"retryAfter": 5})
	})
	wrappedRPCErrTool = rttest.Tool("wrapped", func(context.Context, *rt.ToolRequest) (*rt.CallToolResult, error) {
		return nil, fmt.Errorf("context: %w", &rt.Error{Code: -32002, Message: "inner"})
	})
	boomTool = rttest.Tool("boom", func(context.Context, *rt.ToolRequest) (*rt.CallToolResult, error) {
		panic("kaboom")
	})
	nilTool     = rttest.Tool("nil", nil2)
	argsTool    = rttest.Tool("args", argsHandler)
	contentTool = rttest.Tool("content", func(context.Context, *rt.ToolRequest) (*rt.CallToolResult, error) {
		return rt.ContentResult([]rt.Content{
			rt.TextContent{Text: "t"},
			rt.ImageContent{Data: []byte{0x89, 'P', 'N', 'G'}, MIMEType: "image/png"},
			rt.AudioContent{Data: []byte("RIFF"), MIMEType: "audio/wav"},
			rt.ResourceLink{URI: "file:///a.txt", Name: "a.txt", Title: "A", Description: "The a file.", MIMEType: "text/plain"},
			rt.ResourceLink{URI: "file:///b", Name: "b"},
			rt.EmbeddedResource{URI: "file:///c.txt", MIMEType: "text/plain", Text: "see"},
			rt.EmbeddedResource{URI: "file:///d.bin", Blob: []byte{0, 1, 2}},
			nil,
		}), nil
	})
	badStructTool = rttest.Tool("badstruct", func(context.Context, *rt.ToolRequest) (*rt.CallToolResult, error) {
		return &rt.CallToolResult{Content: []rt.Content{rt.TextContent{Text: "x"}}, StructuredContent: json.RawMessage(`{"n":`)}, nil
	})
	listTool = rttest.Tool("list", func(_ context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		d := mcpimpl.ArgumentsDecoder(req.Arguments)
		var mode string
		if d.Object() {
			for {
				key, ok := d.Field()
				if !ok {
					break
				}
				if string(key) == "mode" {
					mode, _ = d.String()
				} else {
					d.Unknown("mode")
				}
			}
		}
		if err := d.Err(); err != nil {
			return nil, err
		}
		switch mode {
		case "nil-wrapped":
			return rt.Structured([]int(nil), "items")
		case "nil":
			return rt.Structured(nil, "")
		case "nil-map":
			return rt.Structured(map[string]int(nil), "")
		case "chan":
			return rt.Structured(make(chan int), "")
		}
		return rt.Structured([]int{1, 2}, "items")
	})
)

// argsHandler describes the arguments it was given.
func argsHandler(_ context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
	d := mcpimpl.ArgumentsDecoder(req.Arguments)
	n := 0
	if d.Object() {
		for {
			if _, ok := d.Field(); !ok {
				break
			}
			d.Skip()
			n++
		}
	}
	if err := d.Err(); err != nil {
		return nil, err
	}
	return rt.TextResult(fmt.Sprintf("nil=%v fields=%d", req.Arguments == nil, n)), nil
}

func callTools(srv *rt.Server) {
	for _, tl := range []rt.Tool{rttest.EchoTool, addTool, failTool, rpcErrTool, wrappedRPCErrTool, boomTool, nilTool, argsTool, contentTool, badStructTool, listTool} {
		srv.AddTool(tl)
	}
}

const availableTools = `{"available":["echo","add","fail","rpcerr","wrapped","boom","nil","args","content","badstruct","list"]}`

func textResult(text string, isError bool) string {
	s := `{"content":[{"type":"text","text":` + jsonText(text) + `}]`
	if isError {
		s += `,"isError":true`
	}
	return s + "}"
}

func TestToolsCall(t *testing.T) {
	var logs bytes.Buffer
	var logMu sync.Mutex
	srv := rttest.NewServer(rt.WithLogger(slog.New(slog.NewTextHandler(lockedWriter{&logMu, &logs}, nil))))
	callTools(srv)
	c := start(t, srv)
	c.initialize("2025-11-25")
	const panicText = "internal error: the tool failed unexpectedly; the server logged the details"
	for i, tc := range []struct {
		name   string
		params string // of tools/call
		result string // the whole result, or
		code   int    // the error code, message and data
		msg    string
		data   string
	}{
		{name: "text", params: `{"name":"echo","arguments":{"text":"hi"}}`, result: textResult("hi", false)},
		{name: "text needing escapes", params: `{"name":"echo","arguments":{"text":"a\nb \"q\" \\ \u2028 \u0001 é 😀"}}`, result: textResult("a\nb \"q\" \\ \u2028 \u0001 é 😀", false)},
		{name: "structured", params: `{"name":"add","arguments":{"a":1,"b":2}}`, result: `{"content":[{"type":"text","text":"{\"sum\":3}"}],"structuredContent":{"sum":3}}`},
		{name: "handler error", params: `{"name":"fail","arguments":{}}`, result: textResult("disk on fire", true)},
		{name: "handler *Error", params: `{"name":"rpcerr"}`, code: -32001, msg: "quota exceeded", data: `{"retryAfter":5}`},
		{name: "wrapped *Error is a tool error", params: `{"name":"wrapped"}`, result: textResult("context: jsonrpc error -32002: inner", true)},
		{name: "panic", params: `{"name":"boom"}`, result: textResult(panicText, true)},
		{name: "after a panic", params: `{"name":"echo","arguments":{"text":"still here"}}`, result: textResult("still here", false)},
		{name: "nil result", params: `{"name":"nil"}`, result: `{"content":[]}`},
		{name: "unknown tool", params: `{"name":"nope","arguments":{}}`, code: rt.CodeInvalidParams, msg: "Unknown tool: nope", data: availableTools},
		{name: "empty tool name", params: `{"name":""}`, code: rt.CodeInvalidParams, msg: "Unknown tool: ", data: availableTools},
		{name: "missing name", params: `{"arguments":{"text":"x"}}`, code: rt.CodeInvalidParams, msg: "Invalid params: params.name (the tool name) is required"},
		{name: "empty params", params: `{}`, code: rt.CodeInvalidParams, msg: "Invalid params: params.name (the tool name) is required"},
		{name: "no params", code: rt.CodeInvalidParams, msg: "Invalid params: params.name (the tool name) is required"},
		{name: "null params", params: `null`, code: rt.CodeInvalidParams, msg: "Invalid params: params.name (the tool name) is required"},
		{name: "name a number", params: `{"name":5}`, code: rt.CodeInvalidParams, msg: "Invalid params: name: must be a string, got 5"},
		{name: "arguments absent", params: `{"name":"args"}`, result: textResult("nil=true fields=0", false)},
		{name: "arguments null", params: `{"name":"args","arguments":null}`, result: textResult("nil=true fields=0", false)},
		{name: "arguments empty", params: `{"name":"args","arguments":{}}`, result: textResult("nil=false fields=0", false)},
		{name: "arguments before name", params: `{"arguments":{"a":1,"b":[2]},"name":"args"}`, result: textResult("nil=false fields=2", false)},
		{name: "arguments a string", params: `{"name":"args","arguments":"x"}`, result: textResult(`invalid arguments: arguments: must be an object, got "x"`, true)},
		{name: "arguments an array", params: `{"name":"args","arguments":[1]}`, result: textResult(`invalid arguments: arguments: must be an object, got an array`, true)},
		{name: "one violation", params: `{"name":"echo","arguments":{}}`, result: textResult("invalid arguments: text: required property is missing", true)},
		{name: "every violation", params: `{"name":"add","arguments":{"a":"x","c":true,"b":1.5}}`,
			result: textResult("invalid arguments (3 problems):\n- a: must be an integer, got \"x\"\n- c: unknown property (allowed: a, b)\n- b: must be an integer, got 1.5", true)},
		{name: "missing and wrong", params: `{"name":"add","arguments":{"a":9223372036854775808}}`,
			result: textResult("invalid arguments (2 problems):\n- a: must be an integer ≤ 9223372036854775807, got 9223372036854775808\n- b: required property is missing", true)},
		{name: "content blocks", params: `{"name":"content"}`, result: `{"content":[` +
			`{"type":"text","text":"t"},` +
			`{"type":"image","data":"iVBORw==","mimeType":"image/png"},` +
			`{"type":"audio","data":"UklGRg==","mimeType":"audio/wav"},` +
			`{"type":"resource_link","uri":"file:///a.txt","name":"a.txt","title":"A","description":"The a file.","mimeType":"text/plain"},` +
			`{"type":"resource_link","uri":"file:///b","name":"b"},` +
			`{"type":"resource","resource":{"uri":"file:///c.txt","mimeType":"text/plain","text":"see"}},` +
			`{"type":"resource","resource":{"uri":"file:///d.bin","blob":"AAEC"}},` +
			`{"type":"text","text":""}]}`},
		{name: "invalid structured content", params: `{"name":"badstruct"}`, result: textResult("internal error: the tool produced invalid structured output", true)},
		{name: "wrapped structured array", params: `{"name":"list"}`, result: `{"content":[{"type":"text","text":"{\"items\":[1,2]}"}],"structuredContent":{"items":[1,2]}}`},
		{name: "wrapped nil array", params: `{"name":"list","arguments":{"mode":"nil-wrapped"}}`, result: `{"content":[{"type":"text","text":"{\"items\":[]}"}],"structuredContent":{"items":[]}}`},
		{name: "nil structured", params: `{"name":"list","arguments":{"mode":"nil"}}`, result: textResult("internal error: the tool returned no result", true)},
		{name: "nil map structured", params: `{"name":"list","arguments":{"mode":"nil-map"}}`, result: `{"content":[{"type":"text","text":"{}"}],"structuredContent":{}}`},
		{name: "unencodable structured", params: `{"name":"list","arguments":{"mode":"chan"}}`, result: textResult("internal error: the tool's result does not encode as JSON: json: unsupported type: chan int", true)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c.t = t
			var params any
			if tc.params != "" {
				params = json.RawMessage(tc.params)
			}
			r := c.call(i+1, "tools/call", params)
			if tc.result != "" {
				if r.Error != nil {
					t.Fatalf("want a result, got %s", r.raw)
				}
				jsonEqual(t, "result", r.Result, tc.result)
				return
			}
			wantError(t, r, tc.code, tc.msg, tc.data)
		})
	}
	c.t = t
	logMu.Lock()
	log := logs.String()
	logMu.Unlock()
	for _, want := range []string{`level=ERROR msg="tool panicked" tool=boom panic=kaboom stack=`, `level=ERROR msg="tool returned invalid structured content" tool=badstruct`} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(p)
}

func TestStructuredContentByRevision(t *testing.T) {
	for _, rev := range mcpschema.Revisions {
		t.Run(rev, func(t *testing.T) {
			srv := rttest.NewServer()
			srv.AddTool(addTool)
			srv.AddTool(fullTool)
			srv.AddTool(rttest.Tool("raw", func(context.Context, *rt.ToolRequest) (*rt.CallToolResult, error) {
				return rt.StructuredResult([]byte(`{"k":["v",1]}`)), nil
			}))
			c := start(t, srv)
			c.initialize(rev)
			sum := `{"content":[{"type":"text","text":"{\"sum\":5}"}]}`
			n := `{"content":[{"type":"text","text":"{\"n\":1}"}]}`
			if rev >= "2025-06-18" {
				sum = `{"content":[{"type":"text","text":"{\"sum\":5}"}],"structuredContent":{"sum":5}}`
				n = `{"content":[{"type":"text","text":"{\"n\":1}"}],"structuredContent":{"n":1}}`
			}
			jsonEqual(t, "add", c.toolCall(1, "add", map[string]int{"a": 2, "b": 3}).Result, sum)
			jsonEqual(t, "full", c.toolCall(2, "full", nil).Result, n)
			raw := `{"content":[{"type":"text","text":"{\"k\":[\"v\",1]}"}]}`
			if rev >= "2025-06-18" {
				raw = `{"content":[{"type":"text","text":"{\"k\":[\"v\",1]}"}],"structuredContent":{"k":["v",1]}}`
			}
			jsonEqual(t, "raw", c.toolCall(4, "raw", nil).Result, raw)
			// Errors never carry structured content.
			text, isErr := toolText(t, c.toolCall(3, "add", map[string]any{"a": 2}))
			if text != "invalid arguments: b: required property is missing" || !isErr {
				t.Errorf("add without b = %q (isError %v)", text, isErr)
			}
		})
	}
}

func TestNotifyFromHandler(t *testing.T) {
	srv := rttest.NewServer()
	srv.AddTool(rttest.Tool("notify", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		s := rt.SessionFromContext(ctx)
		if s != req.Session {
			return nil, errors.New("SessionFromContext differs from req.Session")
		}
		if err := s.Notify("notifications/tools/list_changed", nil); err != nil {
			return nil, err
		}
		if err := s.Notify("notifications/message", []byte(`{"level":"info","logger":"t","data":{"line":"a\nb"}}`)); err != nil {
			return nil, err
		}
		return rt.TextResult("sent"), nil
	}))
	if rt.SessionFromContext(context.Background()) != nil {
		t.Error("SessionFromContext(Background) is not nil")
	}
	c := start(t, srv)
	c.initialize("2025-06-18")
	c.request(1, "tools/call", map[string]any{"name": "notify"})
	jsonEqual(t, "first notification", c.recv(), `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`)
	jsonEqual(t, "second notification", c.recv(), `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"t","data":{"line":"a\nb"}}}`)
	jsonEqual(t, "result", c.recvResponse("1").Result, textResult("sent", false))
}

func TestAddToolPanics(t *testing.T) {
	h := nil2
	long := strings.Repeat("x", 129)
	for _, tc := range []struct {
		name string
		tool rt.Tool
		want string
	}{
		{"empty name", rt.Tool{Name: "", InputSchema: json.RawMessage(rttest.ObjSchema), Handler: h}, `runtime: AddTool: tool name "" must have 1 to 128 characters`},
		{"long name", rt.Tool{Name: long, InputSchema: json.RawMessage(rttest.ObjSchema), Handler: h}, `runtime: AddTool: tool name "` + long + `" must have 1 to 128 characters`},
		{"space in name", rt.Tool{Name: "a b", InputSchema: json.RawMessage(rttest.ObjSchema), Handler: h}, `runtime: AddTool: tool name "a b" has ' ', but only A-Z a-z 0-9 _ - and . are allowed`},
		{"slash in name", rt.Tool{Name: "a/b", InputSchema: json.RawMessage(rttest.ObjSchema), Handler: h}, `runtime: AddTool: tool name "a/b" has '/', but only A-Z a-z 0-9 _ - and . are allowed`},
		{"nil handler", rt.Tool{Name: "a", InputSchema: json.RawMessage(rttest.ObjSchema)}, `runtime: AddTool "a": nil Handler`},
		{"no input schema", rt.Tool{Name: "a", Handler: h}, `runtime: AddTool "a": InputSchema must be a JSON object`},
		{"input schema an array", rt.Tool{Name: "a", InputSchema: json.RawMessage(`[]`), Handler: h}, `runtime: AddTool "a": InputSchema must be a JSON object`},
		{"input schema not JSON", rt.Tool{Name: "a", InputSchema: json.RawMessage(`{"type":`), Handler: h}, `runtime: AddTool "a": InputSchema must be a JSON object`},
		{"input schema not JSON, on lines", rt.Tool{Name: "a", InputSchema: json.RawMessage("{\n\"type\":\n"), Handler: h}, `runtime: AddTool "a": InputSchema must be a JSON object`},
		{"output schema a string", rt.Tool{Name: "a", InputSchema: json.RawMessage(rttest.ObjSchema), OutputSchema: json.RawMessage(`"x"`), Handler: h}, `runtime: AddTool "a": OutputSchema must be a JSON object`},
		{"duplicate", rt.Tool{Name: "taken", InputSchema: json.RawMessage(rttest.ObjSchema), Handler: h}, `runtime: AddTool: duplicate tool name "taken"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := rttest.NewServer()
			srv.AddTool(rttest.Tool("taken", h))
			defer func() {
				p := recover()
				if fmt.Sprint(p) != tc.want {
					t.Errorf("panic %q, want %q", p, tc.want)
				}
			}()
			srv.AddTool(tc.tool)
		})
	}
	// Every allowed character, and the longest name.
	srv := rttest.NewServer()
	srv.AddTool(rttest.Tool("azAZ09_-.", h))
	srv.AddTool(rttest.Tool(long[:128], h))
}

func TestAddToolWhileServing(t *testing.T) {
	srv := rttest.NewServer(rt.WithPageSize(3))
	srv.AddTool(rttest.Tool("t0", nil2))
	c := start(t, srv)
	c.initialize("2025-11-25")
	// Changes are announced once the server has read
	// notifications/initialized: a round trip makes sure it has.
	c.result("ready", "ping", nil)
	const n = 200
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 1; i <= n; i++ {
			srv.AddTool(rttest.Tool(fmt.Sprintf("t%d", i), nil2))
		}
	}()
	changes := 0
	for i := 0; i < n; i++ {
		c.request(i, "tools/list", nil)
		res, skipped := c.responseAmid(jsonText(i), "notifications/tools/list_changed")
		changes += skipped
		if names := toolNames(t, res.Result); len(names) == 0 || names[0] != "t0" {
			t.Fatalf("tools/list while adding: %q", names)
		}
	}
	<-done
	// Each addition was announced.
	for ; changes < n; changes++ {
		c.recvNotification("notifications/tools/list_changed")
	}
	// Once added, every tool is listed, in order.
	var all []string
	var params any
	for i := 0; i <= n; i++ {
		names, next := page(t, c.result(1000+i, "tools/list", params))
		all = append(all, names...)
		if next == nil {
			break
		}
		params = map[string]any{"cursor": *next}
	}
	if len(all) != n+1 || all[n] != fmt.Sprintf("t%d", n) {
		t.Errorf("listed %d tools (last %q), want %d", len(all), all[len(all)-1], n+1)
	}
}

// TestContentBlocksByRevision sends each kind of content block to every
// revision that has it, so that the schema of each revision checks it.
func TestContentBlocksByRevision(t *testing.T) {
	blocks := []struct {
		name  string
		since string
		block rt.Content
		want  string
	}{
		{"text", "2024-11-05", rt.TextContent{Text: "hi"}, `{"type":"text","text":"hi"}`},
		{"image", "2024-11-05", rt.ImageContent{Data: []byte("img"), MIMEType: "image/png"}, `{"type":"image","data":"aW1n","mimeType":"image/png"}`},
		{"text resource", "2024-11-05", rt.EmbeddedResource{URI: "mem://x", MIMEType: "text/plain", Text: "x"}, `{"type":"resource","resource":{"uri":"mem://x","mimeType":"text/plain","text":"x"}}`},
		{"blob resource", "2024-11-05", rt.EmbeddedResource{URI: "mem://y", Blob: []byte{}}, `{"type":"resource","resource":{"uri":"mem://y","blob":""}}`},
		{"audio", "2025-03-26", rt.AudioContent{Data: []byte{0xff}, MIMEType: "audio/mpeg"}, `{"type":"audio","data":"/w==","mimeType":"audio/mpeg"}`},
		{"resource link", "2025-06-18", rt.ResourceLink{URI: "https://example.com/r", Name: "r", MIMEType: "text/html"}, `{"type":"resource_link","uri":"https://example.com/r","name":"r","mimeType":"text/html"}`},
	}
	for _, rev := range mcpschema.Revisions {
		t.Run(rev, func(t *testing.T) {
			srv := rttest.NewServer()
			for _, b := range blocks {
				srv.AddTool(rttest.Tool(strings.ReplaceAll(b.name, " ", "_"), func(context.Context, *rt.ToolRequest) (*rt.CallToolResult, error) {
					return rt.ContentResult([]rt.Content{b.block}), nil
				}))
			}
			c := start(t, srv)
			c.initialize(rev)
			for i, b := range blocks {
				if rev < b.since {
					continue
				}
				r := c.toolCall(i, strings.ReplaceAll(b.name, " ", "_"), nil)
				jsonEqual(t, b.name, r.Result, `{"content":[`+b.want+`]}`)
			}
		})
	}
}
