package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/mcpschema"
	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
)

const rev26 = mcpschema.Stateless

// meta26 is the _meta of a 2026-07-28 request declaring caps (JSON).
func meta26(caps string) map[string]any {
	return map[string]any{
		"io.modelcontextprotocol/protocolVersion":    rev26,
		"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "tester", "version": "0.1"},
		"io.modelcontextprotocol/clientCapabilities": json.RawMessage(caps),
	}
}

// params26 returns params with the _meta of a 2026-07-28 request.
func params26(caps string, params map[string]any) map[string]any {
	out := map[string]any{"_meta": meta26(caps)}
	for k, v := range params {
		out[k] = v
	}
	return out
}

// inputRequired fails the test unless res is an InputRequiredResult with
// one input request, key, and a request state, and returns the request and
// the state; what names the request res answers.
func inputRequired(t *testing.T, what string, res json.RawMessage, key string) (request json.RawMessage, state string) {
	t.Helper()
	var ir struct {
		ResultType    string                     `json:"resultType"`
		InputRequests map[string]json.RawMessage `json:"inputRequests"`
		RequestState  string                     `json:"requestState"`
	}
	json.Unmarshal(res, &ir)
	if ir.ResultType != "input_required" || len(ir.InputRequests) != 1 || ir.InputRequests[key] == nil || ir.RequestState == "" {
		t.Fatalf("%s: want an InputRequiredResult with the one input request %s, got %s", what, key, res)
	}
	return ir.InputRequests[key], ir.RequestState
}

// example reads a 2026-07-28 example message: dir/name of the examples.
func example(t testing.TB, name string) []byte {
	t.Helper()
	dir, err := mcpschema.Dir()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, rev26, "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// decodeObj unmarshals a JSON object.
func decodeObj(t testing.TB, raw []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("decoding %s: %v", raw, err)
	}
	return m
}

// exampleServer serves what the examples of the specification show.
func exampleServer(opts ...rt.Option) *rt.Server {
	srv := rt.NewServer("ExampleServer", "1.0.0", append([]rt.Option{rt.WithLogger(rttest.Quiet), rt.WithCacheHint(time.Hour, rt.CachePublic)}, opts...)...)
	srv.AddTool(rt.Tool{
		Name:        "get_weather",
		Title:       "Weather Information Provider",
		Description: "Get current weather information for a location",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"location":{"type":"string","description":"City name or zip code"}},"required":["location"]}`),
		Handler: func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
			var args struct{ Location string }
			json.Unmarshal(req.Arguments, &args)
			return rt.TextResult("Current weather in " + args.Location + ":\nTemperature: 72°F\nConditions: Partly cloudy"), nil
		},
	})
	srv.AddResource(rt.Resource{URI: "file:///project/src/main.rs", Name: "main.rs", Title: "Rust Software Application Main File", Description: "Primary application entry point", MIMEType: "text/x-rust",
		Handler: func(context.Context, *rt.ResourceRequest) ([]rt.ResourceContents, error) {
			return []rt.ResourceContents{{Text: "fn main() {\n    println!(\"Hello world!\");\n}"}}, nil
		}})
	srv.AddResourceTemplate(rt.ResourceTemplate{URITemplate: "file:///{path}", Name: "Project Files", Title: "Project Files",
		Description: "Access files in the project directory", MIMEType: "application/octet-stream",
		Handler: func(context.Context, *rt.ResourceRequest) ([]rt.ResourceContents, error) { return nil, nil }})
	srv.AddPrompt(rt.Prompt{Name: "code_review", Title: "Request Code Review", Description: "Asks the LLM to analyze code quality and suggest improvements",
		Arguments: []rt.PromptArgument{{Name: "code", Description: "The code to review", Required: true},
			{Name: "language", Complete: func(context.Context, *rt.CompleteRequest) ([]string, error) { return []string{"flask"}, nil }}},
		Handler: func(_ context.Context, req *rt.PromptRequest) (*rt.GetPromptResult, error) {
			return &rt.GetPromptResult{Description: "Code review prompt", Messages: []rt.PromptMessage{rt.UserMessage("Please review this Python code:\n" + req.Arguments["code"])}}, nil
		}})
	return srv
}

// TestVectors2026 sends the specification's example requests of revision
// 2026-07-28 as they are and compares the answers with the example
// responses. Every message is validated against the 2026-07-28 schema.
func TestVectors2026(t *testing.T) {
	serverInfo := map[string]any{"name": "ExampleServer", "version": "1.0.0"}
	for _, tc := range []struct {
		request, response string
		// same lists the members of the result that must equal the
		// example's; the rest may differ (a server's own capabilities).
		same []string
	}{
		{"DiscoverRequest/server-discover-request.json", "DiscoverResultResponse/discover-result-response.json",
			[]string{"resultType", "supportedVersions", "ttlMs", "cacheScope"}},
		{"CallToolRequest/call-tool-request.json", "CallToolResultResponse/call-tool-result-response.json",
			[]string{"resultType", "content"}},
		{"ListToolsRequest/list-tools-request.json", "ListToolsResultResponse/list-tools-result-response.json",
			[]string{"resultType", "ttlMs", "cacheScope"}},
		{"ReadResourceRequest/read-resource-request.json", "ReadResourceResultResponse/read-resource-result-response.json",
			[]string{"resultType", "contents"}},
		{"GetPromptRequest/get-prompt-request.json", "GetPromptResultResponse/get-prompt-result-response.json",
			[]string{"resultType", "description", "messages"}},
		{"CompleteRequest/completion-request.json", "CompleteResultResponse/completion-result-response.json",
			[]string{"resultType", "completion"}},
		{"ListPromptsRequest/list-prompts-request.json", "ListPromptsResultResponse/list-prompts-result-response.json",
			[]string{"resultType"}},
		{"ListResourcesRequest/list-resources-request.json", "ListResourcesResultResponse/list-resources-result-response.json",
			[]string{"resultType"}},
		{"ListResourceTemplatesRequest/list-resource-templates-request.json", "ListResourceTemplatesResultResponse/list-resource-templates-result-response.json",
			[]string{"resultType", "ttlMs", "cacheScope"}},
	} {
		t.Run(tc.request, func(t *testing.T) {
			c := start(t, exampleServer())
			req := example(t, tc.request)
			c.send(string(compact26(t, req)))
			want := decodeObj(t, example(t, tc.response))
			got := decodeObj(t, c.recv())
			if !reflect.DeepEqual(got["id"], want["id"]) {
				t.Fatalf("id %v, want %v", got["id"], want["id"])
			}
			gr, _ := got["result"].(map[string]any)
			wr := want["result"].(map[string]any)
			if gr == nil {
				t.Fatalf("want a result, got %v", got)
			}
			for _, k := range tc.same {
				if !reflect.DeepEqual(gr[k], wr[k]) {
					t.Errorf("result.%s = %v, want %v", k, gr[k], wr[k])
				}
			}
			if isErr, ok := gr["isError"]; ok && isErr != false {
				t.Errorf("result.isError = %v", isErr)
			}
			meta, _ := gr["_meta"].(map[string]any)
			if !reflect.DeepEqual(meta["io.modelcontextprotocol/serverInfo"], serverInfo) {
				t.Errorf("result._meta = %v, want the serverInfo %v", meta, serverInfo)
			}
			// The first item of a list is the example's, but for icons
			// and, for prompts, the arguments beyond the example's.
			for _, list := range []string{"tools", "prompts", "resources", "resourceTemplates"} {
				if wr[list] == nil {
					continue
				}
				item := gr[list].([]any)[0].(map[string]any)
				for k, v := range wr[list].([]any)[0].(map[string]any) {
					got := item[k]
					if k == "icons" {
						continue
					}
					if k == "arguments" {
						got = got.([]any)[:1]
					}
					if !reflect.DeepEqual(got, v) {
						t.Errorf("%s[0].%s = %v, want %v", list, k, got, v)
					}
				}
				if _, ok := gr["ttlMs"].(float64); !ok || gr["cacheScope"] != "public" {
					t.Errorf("a list result without the cache hint: %v", gr)
				}
			}
		})
	}
}

func compact26(t testing.TB, raw []byte) []byte {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(v)
	return b
}

// TestErrors2026 checks the error answers of revision 2026-07-28 against
// the examples: an unsupported version, and methods the revision dropped.
func TestErrors2026(t *testing.T) {
	t.Run("unsupported version", func(t *testing.T) {
		c := start(t, exampleServer())
		req := strings.Replace(string(compact26(t, example(t, "CallToolRequest/call-tool-request.json"))), `"2026-07-28"`, `"1900-01-01"`, 1)
		req = strings.Replace(req, `"call-tool-example"`, `1`, 1)
		c.send(req)
		got := c.decode(c.recv())
		want := decodeObj(t, example(t, "UnsupportedProtocolVersionError/unsupported-version.json"))["error"].(map[string]any)
		if got.Error == nil || got.Error.Code != int(want["code"].(float64)) {
			t.Fatalf("want error %v, got %s", want, got.raw)
		}
		var data struct {
			Supported []string
			Requested string
		}
		json.Unmarshal(got.Error.Data, &data)
		if data.Requested != "1900-01-01" || !reflect.DeepEqual(data.Supported, []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}) {
			t.Errorf("error data %s", got.Error.Data)
		}
	})
	for _, tc := range []struct {
		name, method string
		params       map[string]any
		code         int
		msg          string
	}{
		{"ping is gone", "ping", nil, rt.CodeMethodNotFound, "Method not found: ping is not part of protocol revision 2026-07-28"},
		{"setLevel is gone", "logging/setLevel", map[string]any{"level": "debug"}, rt.CodeMethodNotFound, "Method not found: logging/setLevel is not part of protocol revision 2026-07-28"},
		{"unknown tool", "tools/call", map[string]any{"name": "nope"}, rt.CodeInvalidParams, "Unknown tool: nope"},
		{"unknown resource is invalid params", "resources/read", map[string]any{"uri": "other://nope"}, rt.CodeInvalidParams, "Resource not found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := start(t, exampleServer())
			r := c.call(1, tc.method, params26(`{}`, tc.params))
			if r.Error == nil || r.Error.Code != tc.code || !strings.HasPrefix(r.Error.Message, tc.msg) {
				t.Errorf("got %s, want error %d %q", r.raw, tc.code, tc.msg)
			}
		})
	}
	t.Run("capabilities are required", func(t *testing.T) {
		c := start(t, exampleServer())
		r := c.call(1, "tools/list", map[string]any{"_meta": map[string]any{"io.modelcontextprotocol/protocolVersion": rev26}})
		if r.Error == nil || r.Error.Code != rt.CodeInvalidParams || !strings.Contains(r.Error.Message, "clientCapabilities") {
			t.Errorf("got %s", r.raw)
		}
	})
	t.Run("a 2026-07-28 session needs _meta on every request", func(t *testing.T) {
		c := start(t, exampleServer())
		c.result(1, "tools/list", params26(`{}`, nil))
		r := c.call(2, "tools/list", map[string]any{})
		if r.Error == nil || r.Error.Code != rt.CodeInvalidParams || !strings.Contains(r.Error.Message, "protocolVersion") {
			t.Errorf("got %s", r.raw)
		}
	})
}

// TestOlderRevisionsUnchanged2026 checks that a 2025-11-25 session answers
// as before: no resultType, no serverInfo in results, and _meta keys of
// 2026-07-28 in its requests change nothing.
func TestOlderRevisionsUnchanged2026(t *testing.T) {
	c := start(t, exampleServer())
	c.initialize("2025-11-25")
	res := c.result(1, "tools/call", map[string]any{"name": "get_weather", "arguments": map[string]any{"location": "Oslo"}})
	jsonEqual(t, "result", res, `{"content":[{"type":"text","text":"Current weather in Oslo:\nTemperature: 72°F\nConditions: Partly cloudy"}]}`)
	// Text is sent as the handler wrote it, in both eras.
	r26 := start(t, exampleServer()).call(1, "tools/call", params26(`{}`, map[string]any{"name": "get_weather", "arguments": map[string]any{"location": "<A&B>"}}))
	if !strings.Contains(string(r26.raw), `"text":"Current weather in <A&B>:`) {
		t.Errorf("2026-07-28 result: %s", r26.raw)
	}
	res = c.result(2, "tools/list", params26(`{}`, nil))
	if strings.Contains(string(res), "resultType") || strings.Contains(string(res), "serverInfo") || strings.Contains(string(res), "ttlMs") {
		t.Errorf("a 2025-11-25 session answered as 2026-07-28: %s", res)
	}
}

// confirmRuns counts the runs of the confirm tool of the era tests.
var confirmRuns atomic.Int32

// deleteTool asks for confirmation before it deletes, the same code in
// every revision.
var deleteTool = rt.Tool{
	Name:        "delete_all",
	InputSchema: json.RawMessage(`{"type":"object","properties":{"what":{"type":"string"}}}`),
	Handler: func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		confirmRuns.Add(1)
		res, err := rt.Elicit(ctx, &rt.ElicitParams{Message: "Delete everything?", RequestedSchema: json.RawMessage(`{"type":"object","properties":{"sure":{"type":"boolean"}},"required":["sure"]}`)})
		if err != nil {
			return nil, err
		}
		return rt.TextResult(res.Action + " " + string(res.Content)), nil
	},
}

const formParams = `{"mode":"form","message":"Delete everything?","requestedSchema":{"type":"object","properties":{"sure":{"type":"boolean"}},"required":["sure"]}}`

// TestElicitBothEras calls the same tool with an elicitation round trip
// under 2025-11-25 (a request to the client) and under 2026-07-28 (an
// InputRequiredResult and a retry).
func TestElicitBothEras(t *testing.T) {
	t.Run("2025-11-25", func(t *testing.T) {
		srv := rttest.NewServer()
		srv.AddTool(deleteTool)
		c := start(t, srv)
		c.initializeWith("2025-11-25", `{"elicitation":{"form":{}}}`)
		confirmRuns.Store(0)
		c.toolCallAsync(1, "delete_all", nil)
		r := c.recvRequest("elicitation/create")
		jsonEqual(t, "elicitation params", r.Params, formParams)
		c.answer(r.ID, `{"action":"accept","content":{"sure":true}}`)
		if text, _ := toolText(t, c.recvResponse("1")); text != `accept {"sure":true}` {
			t.Errorf("tool said %q", text)
		}
		if n := confirmRuns.Load(); n != 1 {
			t.Errorf("the handler ran %d times, want 1", n)
		}
	})
	t.Run("2026-07-28", func(t *testing.T) {
		srv := rttest.NewServer()
		srv.AddTool(deleteTool)
		c := start(t, srv)
		confirmRuns.Store(0)
		caps := `{"elicitation":{"form":{}}}`
		res := c.result(1, "tools/call", params26(caps, map[string]any{"name": "delete_all"}))
		request, state := inputRequired(t, "tools/call", res, "elicit-1")
		jsonEqual(t, "input request", request, `{"method":"elicitation/create","params":`+formParams+`}`)
		retry := params26(caps, map[string]any{"name": "delete_all",
			"inputResponses": map[string]any{"elicit-1": json.RawMessage(`{"action":"accept","content":{"sure":true}}`)},
			"requestState":   state})
		r := c.call(2, "tools/call", retry)
		if text, _ := toolText(t, r); text != `accept {"sure":true}` {
			t.Errorf("tool said %q", text)
		}
		var done struct{ ResultType string }
		json.Unmarshal(r.Result, &done)
		if done.ResultType != "complete" {
			t.Errorf("resultType %q, want complete", done.ResultType)
		}
		if n := confirmRuns.Load(); n != 2 {
			t.Errorf("the handler ran %d times, want 2 (once per round)", n)
		}

		// The state is sealed and bound to the request.
		bad := params26(caps, map[string]any{"name": "delete_all", "arguments": map[string]any{"what": "other"},
			"inputResponses": retry["inputResponses"], "requestState": state})
		if r := c.call(3, "tools/call", bad); r.Error == nil || r.Error.Code != rt.CodeInvalidParams || !strings.Contains(r.Error.Message, "another request") {
			t.Errorf("state of another request: got %s", r.raw)
		}
		retry["requestState"] = "x" + state
		if r := c.call(4, "tools/call", retry); r.Error == nil || r.Error.Code != rt.CodeInvalidParams || !strings.Contains(r.Error.Message, "verification") {
			t.Errorf("altered state: got %s", r.raw)
		}
		// A member name spelled with an escape is the same member.
		c.send(`{"jsonrpc":"2.0","id":41,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"delete_all","request\u0053tate":"x"}}`)
		if r := c.recvResponse("41"); r.Error == nil || r.Error.Code != rt.CodeInvalidParams || !strings.Contains(r.Error.Message, "requestState is not one this server issued") {
			t.Errorf("state under an escaped name: got %s", r.raw)
		}
		// Answers without the state that asked for them are not taken.
		delete(retry, "requestState")
		res = c.result(5, "tools/call", retry)
		if !strings.Contains(string(res), `"input_required"`) {
			t.Errorf("answers without state: got %s", res)
		}
		// Without the capability in this request's _meta, Elicit fails and
		// the call is answered with MissingRequiredClientCapability.
		r = c.call(6, "tools/call", params26(`{}`, map[string]any{"name": "delete_all"}))
		if r.Error == nil || r.Error.Code != rt.CodeMissingClientCapability || !strings.Contains(string(r.Error.Data), `"elicitation":{"form":{}}`) {
			t.Errorf("without the capability: got %s", r.raw)
		}
	})
}

// TestMultiRound2026 runs a handler that asks three times (elicitation,
// sampling, roots) over three rounds: the answers of earlier rounds travel
// in the requestState.
func TestMultiRound2026(t *testing.T) {
	srv := rttest.NewServer()
	srv.AddTool(rt.Tool{Name: "survey", InputSchema: json.RawMessage(rttest.ObjSchema), Handler: func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		e, err := rt.Elicit(ctx, &rt.ElicitParams{Message: "Name?", RequestedSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}}}`)})
		if err != nil {
			return nil, err
		}
		s, err := rt.Sample(ctx, &rt.CreateMessageParams{Messages: []rt.SamplingMessage{{Role: "user", Content: rt.TextContent{Text: "Capital of France?"}}}, MaxTokens: 100})
		if err != nil {
			return nil, err
		}
		roots, err := rt.Roots(ctx)
		if err != nil {
			return nil, err
		}
		return rt.TextResult(fmt.Sprintf("%s %s %d", e.Content, s.Text(), len(roots))), nil
	}})
	c := start(t, srv)
	caps := `{"elicitation":{"form":{}},"sampling":{},"roots":{}}`
	answers := map[string]string{
		"elicit-1": `{"action":"accept","content":{"name":"octocat"}}`,
		"sample-2": `{"role":"assistant","content":{"type":"text","text":"Paris"},"model":"m","stopReason":"endTurn"}`,
		"roots-3":  `{"roots":[{"uri":"file:///a"}]}`,
	}
	state := ""
	for round, key := range []string{"elicit-1", "sample-2", "roots-3"} {
		p := map[string]any{"name": "survey"}
		if state != "" {
			prev := []string{"elicit-1", "sample-2", "roots-3"}[round-1]
			p["requestState"] = state
			p["inputResponses"] = map[string]any{prev: json.RawMessage(answers[prev])}
		}
		res := c.result(round+1, "tools/call", params26(caps, p))
		_, state = inputRequired(t, fmt.Sprintf("round %d", round+1), res, key)
	}
	p := map[string]any{"name": "survey", "requestState": state, "inputResponses": map[string]any{"roots-3": json.RawMessage(answers["roots-3"])}}
	if text, _ := toolText(t, c.call(9, "tools/call", params26(caps, p))); text != `{"name":"octocat"} Paris 1` {
		t.Errorf("final round: tool said %q", text)
	}
}

// TestLogLevel2026 checks that log messages go out only for requests that
// ask with logLevel, at or above it.
func TestLogLevel2026(t *testing.T) {
	srv := rttest.NewServer()
	srv.AddTool(rttest.Tool("chatty", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		rt.Log(ctx, rt.LevelDebug, "debug line")
		rt.Log(ctx, rt.LevelWarning, "warning line")
		return rt.TextResult("ok"), nil
	}))
	c := start(t, srv)
	for i, tc := range []struct {
		level string
		want  []string
	}{
		{"", nil},
		{"debug", []string{`"debug line"`, `"warning line"`}},
		{"warning", []string{`"warning line"`}},
	} {
		meta := meta26(`{}`)
		if tc.level != "" {
			meta["io.modelcontextprotocol/logLevel"] = tc.level
		}
		c.request(i+1, "tools/call", map[string]any{"_meta": meta, "name": "chatty"})
		var got []string
		for {
			m := c.recvAny()
			if m.Method == "notifications/message" {
				var p struct{ Data json.RawMessage }
				json.Unmarshal(m.Params, &p)
				got = append(got, string(p.Data))
				continue
			}
			if string(m.ID) != fmt.Sprint(i+1) {
				t.Fatalf("unexpected %s", m.raw)
			}
			break
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("logLevel %q: messages %q, want %q", tc.level, got, tc.want)
		}
	}
	r := c.call(9, "tools/call", map[string]any{"_meta": map[string]any{
		"io.modelcontextprotocol/protocolVersion": rev26, "io.modelcontextprotocol/clientCapabilities": map[string]any{},
		"io.modelcontextprotocol/logLevel": "loud"}, "name": "chatty"})
	if r.Error == nil || r.Error.Code != rt.CodeInvalidParams {
		t.Errorf("bad logLevel: got %s", r.raw)
	}
}

// TestPingIn2026 checks that a handler's Ping fails at once in revision
// 2026-07-28, which has no requests to the client.
func TestPingIn2026(t *testing.T) {
	srv := rttest.NewServer()
	srv.AddTool(rttest.Tool("pinger", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		err := rt.Ping(ctx)
		return rt.TextResult(fmt.Sprint(errors.Is(err, rt.ErrCapability))), nil
	}))
	c := start(t, srv)
	if text, _ := toolText(t, c.call(1, "tools/call", params26(`{}`, map[string]any{"name": "pinger"}))); text != "true" {
		t.Errorf("Ping error matches ErrCapability: %s", text)
	}
}

// TestHTTP2026 answers 2026-07-28 requests over Streamable HTTP, with
// sessions and stateless, and checks the standard request headers.
func TestHTTP2026(t *testing.T) {
	call := string(compact26(t, example(t, "CallToolRequest/call-tool-request.json")))
	for _, stateless := range []bool{false, true} {
		t.Run(fmt.Sprint("stateless=", stateless), func(t *testing.T) {
			var opts []mcphttp.Option
			if stateless {
				opts = append(opts, mcphttp.WithStateless())
			}
			c := rttest.NewHTTPClient(t, mcphttp.Handler(exampleServer(), opts...))
			c.Version = rev26
			hdr := []string{"Mcp-Method", "tools/call", "Mcp-Name", "get_weather"}
			x := c.Post(call, http.StatusOK, hdr...)
			if x.Header.Get("Mcp-Session-Id") != "" {
				t.Errorf("a 2026-07-28 answer has a session id")
			}
			if !strings.Contains(string(x.Body), `"resultType":"complete"`) {
				t.Errorf("body %s", x.Body)
			}
			for _, tc := range []struct {
				name string
				hdr  []string
				msg  string
			}{
				{"no Mcp-Method", []string{"Mcp-Name", "get_weather"}, "the Mcp-Method header is required"},
				{"wrong Mcp-Method", []string{"Mcp-Method", "tools/list", "Mcp-Name", "get_weather"}, `Mcp-Method header value "tools/list" does not match body value "tools/call"`},
				{"no Mcp-Name", []string{"Mcp-Method", "tools/call"}, "one Mcp-Name header is required for tools/call"},
				{"wrong Mcp-Name", []string{"Mcp-Method", "tools/call", "Mcp-Name", "foo"}, `Mcp-Name header value "foo" does not match body value "get_weather"`},
				{"wrong base64 Mcp-Name", []string{"Mcp-Method", "tools/call", "Mcp-Name", "=?base64?Zm9v?="}, `Mcp-Name header value "foo" does not match`},
			} {
				x := c.Post(call, http.StatusBadRequest, tc.hdr...)
				var e struct {
					ID    string
					Error struct {
						Code    int
						Message string
					}
				}
				json.Unmarshal(x.Body, &e)
				if e.Error.Code != rt.CodeHeaderMismatch || !strings.Contains(e.Error.Message, tc.msg) || e.ID != "call-tool-example" {
					t.Errorf("%s: got %s", tc.name, x.Body)
				}
				c.Tracker.Server([]byte(`{"jsonrpc":"2.0","id":"call-tool-example","result":{"resultType":"complete","content":[]}}`)) // settle the tracker
			}
			x = c.Post(strings.Replace(strings.Replace(call, `"tools/call"`, `"ping"`, 1), `"call-tool-example"`, `"p"`, 1), http.StatusNotFound, "Mcp-Method", "ping")
			if !strings.Contains(string(x.Body), `"code":-32601`) {
				t.Errorf("unknown method: %s", x.Body)
			}
			c.Tracker.Server([]byte(`{"jsonrpc":"2.0","id":"p","result":{"resultType":"complete"}}`)) // settle the tracker
			for _, method := range []string{http.MethodGet, http.MethodDelete} {
				if x := c.Do(method, ""); x.Status != http.StatusMethodNotAllowed || x.Header.Get("Allow") != "POST" {
					t.Errorf("%s at 2026-07-28: status %d, Allow %q", method, x.Status, x.Header.Get("Allow"))
				}
			}
			x = c.Post(call, http.StatusOK, "Mcp-Method", "tools/call", "Mcp-Name", "=?base64?Z2V0X3dlYXRoZXI=?=")
			if !strings.Contains(string(x.Body), "Partly cloudy") {
				t.Errorf("base64 Mcp-Name: %s", x.Body)
			}
		})
	}
}

// TestListen2026 opens the specification's example subscription and
// checks the acknowledgment against the example, then the notifications it
// carries, tagged with its id, and its end by the client.
func TestListen2026(t *testing.T) {
	srv := exampleServer()
	c := start(t, srv)
	c.send(string(compact26(t, example(t, "SubscriptionsListenRequest/listen-for-list-changes.json"))))
	ack := c.recvAny()
	jsonEqual(t, "acknowledgment", ack.raw, string(compact26(t, example(t, "SubscriptionsAcknowledgedNotification/listen-acknowledged.json"))))

	srv.AddTool(rttest.Tool("added", nil2))
	jsonEqual(t, "tools changed", c.recvNotification("notifications/tools/list_changed"), `{"_meta":{"io.modelcontextprotocol/subscriptionId":"listen-1"}}`)
	srv.ResourceUpdated("file:///elsewhere") // not subscribed
	srv.ResourceUpdated("file:///project/config.json")
	jsonEqual(t, "resource updated", c.recvNotification("notifications/resources/updated"),
		`{"_meta":{"io.modelcontextprotocol/subscriptionId":"listen-1"},"uri":"file:///project/config.json"}`)

	// Requests go on while the subscription is open.
	c.result(1, "tools/list", params26(`{}`, nil))

	// Cancelled by the client: no response, no more notifications.
	c.notify("notifications/cancelled", map[string]any{"requestId": "listen-1"})
	c.result(2, "tools/list", params26(`{}`, nil)) // orders the cancellation before what follows
	srv.ResourceUpdated("file:///project/config.json")
	c.result(3, "tools/list", params26(`{}`, nil))

	r := c.call(4, "subscriptions/listen", params26(`{}`, nil))
	if r.Error == nil || r.Error.Code != rt.CodeInvalidParams {
		t.Errorf("listen without a filter: got %s", r.raw)
	}
}

// TestListenEndsWithResult2026 checks that a subscription the server ends
// (the session closes) is answered with a result naming it.
func TestListenEndsWithResult2026(t *testing.T) {
	srv := rt.NewServer("ExampleServer", "1.0.0", rt.WithLogger(rttest.Quiet)) // no prompts, no resources
	srv.AddTool(rttest.Tool("t", nil2))
	c := start(t, srv)
	c.request(7, "subscriptions/listen", params26(`{}`, map[string]any{"notifications": map[string]any{"promptsListChanged": true, "toolsListChanged": true, "resourceSubscriptions": []string{"file:///a"}}}))
	// The acknowledgment omits what the server never sends.
	jsonEqual(t, "acknowledgment", c.recvNotification("notifications/subscriptions/acknowledged"),
		`{"_meta":{"io.modelcontextprotocol/subscriptionId":7},"notifications":{"toolsListChanged":true}}`)
	c.in.Close() // end of input: the session ends
	r := c.recvResponse("7")
	jsonEqual(t, "closing result", r.Result, `{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":7,"io.modelcontextprotocol/serverInfo":{"name":"ExampleServer","version":"1.0.0"}}}`)
}

// TestClientFromRequest2026 checks that a handler sees the client info,
// capabilities and revision of its own request in revision 2026-07-28,
// when what the request keeps fits the room a call has for it and when it
// does not.
func TestClientFromRequest2026(t *testing.T) {
	srv := rttest.NewServer()
	srv.AddTool(rttest.Tool("whoami", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		info, caps := rt.ClientInfo(ctx), rt.ClientCapabilities(ctx)
		return rt.TextResult(fmt.Sprintf("%s/%s %s elicit=%v sample=%v %s", info.Name, info.Version, rt.ProtocolVersion(ctx), caps.Elicitation != nil, caps.Sampling != nil, caps.Raw)), nil
	}))
	c := start(t, srv)
	large := `{"experimental":{"x":"` + strings.Repeat("x", 300) + `"},"roots":{}}`
	for i, tc := range []struct{ caps, want string }{
		{`{"elicitation":{}}`, `tester/0.1 2026-07-28 elicit=true sample=false {"elicitation":{}}`},
		{`{"sampling":{}}`, `tester/0.1 2026-07-28 elicit=false sample=true {"sampling":{}}`},
		{large, `tester/0.1 2026-07-28 elicit=false sample=false ` + large},
	} {
		if text, _ := toolText(t, c.call(i+1, "tools/call", params26(tc.caps, map[string]any{"name": "whoami"}))); text != tc.want {
			t.Errorf("request %d: %q, want %q", i+1, text, tc.want)
		}
	}
}

// TestClientAfterAnswer2026 checks that a handler's context that outlives
// its 2026-07-28 request, whose params are released when it is answered,
// reads nothing of the request any more: no client info, no capabilities,
// as outside a request of a session that was not initialized.
func TestClientAfterAnswer2026(t *testing.T) {
	srv := rttest.NewServer()
	kept := make(chan context.Context, 1)
	srv.AddTool(rttest.Tool("keep", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		kept <- ctx
		return rt.TextResult(rt.ClientInfo(ctx).Name), nil
	}))
	c := start(t, srv)
	if text, _ := toolText(t, c.call(1, "tools/call", params26(`{"sampling":{}}`, map[string]any{"name": "keep"}))); text != "tester" {
		t.Fatalf("client name during the call %q, want tester", text)
	}
	ctx := <-kept
	if info := rt.ClientInfo(ctx); info != (rt.Implementation{}) {
		t.Errorf("client info after the answer %+v, want none", info)
	}
	if caps := rt.ClientCapabilities(ctx); caps.Raw != nil || caps.Sampling != nil {
		t.Errorf("capabilities after the answer: raw %s, sampling %v; want none", caps.Raw, caps.Sampling)
	}
	// The next request reuses what the first one's params were read into.
	if text, _ := toolText(t, c.call(2, "tools/call", params26(`{}`, map[string]any{"name": "keep"}))); text != "tester" {
		t.Fatalf("client name during the second call %q, want tester", text)
	}
	<-kept
	if info := rt.ClientInfo(ctx); info != (rt.Implementation{}) {
		t.Errorf("client info of the first request after the second %+v, want none", info)
	}
}

// TestReadInputRequired2026 checks that resources/read can ask for input
// too, and that initialize never negotiates 2026-07-28.
func TestReadInputRequired2026(t *testing.T) {
	srv := exampleServer()
	srv.AddResource(rt.Resource{URI: "file:///roots", Name: "roots", Handler: func(ctx context.Context, req *rt.ResourceRequest) ([]rt.ResourceContents, error) {
		roots, err := rt.Roots(ctx)
		if err != nil {
			return nil, err
		}
		return []rt.ResourceContents{{Text: roots[0].URI}}, nil
	}})
	c := start(t, srv)
	res := c.result(1, "resources/read", params26(`{"roots":{}}`, map[string]any{"uri": "file:///roots"}))
	request, state := inputRequired(t, "resources/read", res, "roots-1")
	jsonEqual(t, "input request", request, `{"method":"roots/list","params":{}}`)
	res = c.result(2, "resources/read", params26(`{"roots":{}}`, map[string]any{"uri": "file:///roots", "requestState": state,
		"inputResponses": map[string]any{"roots-1": map[string]any{"roots": []any{map[string]any{"uri": "file:///home"}}}}}))
	if !strings.Contains(string(res), `"text":"file:///home"`) || !strings.Contains(string(res), `"ttlMs":3600000`) {
		t.Errorf("retry: %s", res)
	}

	c2 := start(t, exampleServer())
	init := c2.result(0, "initialize", map[string]any{"protocolVersion": rev26, "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "t", "version": "0"}})
	if !strings.Contains(string(init), `"protocolVersion":"2025-11-25"`) {
		t.Errorf("initialize asking for %s: %s", rev26, init)
	}
}

// TestMissingCapability2026 answers with the specification's example error
// when a handler needs a capability the request did not declare.
func TestMissingCapability2026(t *testing.T) {
	srv := rttest.NewServer()
	srv.AddTool(rttest.Tool("must_ask", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		if rt.ClientCapabilities(ctx).Elicitation == nil {
			return nil, rt.MissingCapability("elicitation")
		}
		return rt.TextResult("asked"), nil
	}))
	c := start(t, srv)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"must_ask"}}`)
	jsonEqual(t, "error", c.recv(), string(compact26(t, example(t, "MissingRequiredClientCapabilityError/missing-elicitation-capability.json"))))
}
