package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// promptText returns a handler of a prompt of one user message.
func promptText(text string) rt.PromptHandler {
	return func(context.Context, *rt.PromptRequest) (*rt.GetPromptResult, error) {
		return &rt.GetPromptResult{Messages: []rt.PromptMessage{rt.UserMessage(text)}}, nil
	}
}

// greetPrompt greets someone in a style: an enum, checked as generated
// code would, through a decoder over the arguments.
var greetPrompt = rt.Prompt{
	Name:        "greet",
	Title:       "Greeting",
	Description: "Greets someone.",
	Arguments: []rt.PromptArgument{
		{Name: "name", Title: "Name", Description: "Who to greet.", Required: true},
		{Name: "style", Description: "formal or casual", Complete: rt.EnumCompletion("formal", "casual", "Fancy")},
	},
	Handler: func(_ context.Context, req *rt.PromptRequest) (*rt.GetPromptResult, error) {
		d := mcpimpl.StringsDecoder("arguments", req.Arguments, []string{"name", "style"})
		var name, style string
		if d.Object() {
			for {
				key, ok := d.Field()
				if !ok {
					break
				}
				switch string(key) {
				case "name":
					name, _ = d.String()
				case "style":
					style, _ = d.String()
					if style != "formal" && style != "casual" && style != "Fancy" {
						d.Invalid(`must be one of "formal", "casual", "Fancy"`)
					}
				default:
					d.Unknown("name, style")
				}
			}
		}
		if err := d.Err(); err != nil {
			return nil, err
		}
		if name != req.Arguments["name"] || style != req.Arguments["style"] {
			return nil, fmt.Errorf("Arguments %v disagree with the decoder", req.Arguments)
		}
		return &rt.GetPromptResult{Description: "A " + style + " greeting", Messages: []rt.PromptMessage{
			{Role: "user", Content: rt.TextContent{Text: "Greet " + name + "."}},
			rt.AssistantMessage("Hello, " + name + "!"),
		}}, nil
	},
}

func TestPromptsList(t *testing.T) {
	srv := rttest.NewServer()
	srv.AddPrompt(greetPrompt)
	srv.AddPrompt(rt.Prompt{Name: "bare", Meta: json.RawMessage(`{"x":true}`), Handler: promptText("")})
	const (
		old   = `{"prompts":[{"name":"greet","description":"Greets someone.","arguments":[{"name":"name","description":"Who to greet.","required":true},{"name":"style","description":"formal or casual"}]},{"name":"bare"}]}`
		fresh = `{"prompts":[{"name":"greet","title":"Greeting","description":"Greets someone.","arguments":[{"name":"name","title":"Name","description":"Who to greet.","required":true},{"name":"style","description":"formal or casual"}]},{"name":"bare","_meta":{"x":true}}]}`
	)
	for rev, want := range map[string]string{"2024-11-05": old, "2025-03-26": old, "2025-06-18": fresh, "2025-11-25": fresh} {
		t.Run(rev, func(t *testing.T) {
			c := start(t, srv)
			c.initialize(rev)
			jsonEqual(t, "prompts/list", c.result(1, "prompts/list", nil), want)
		})
	}
}

func TestPromptsGet(t *testing.T) {
	srv := rttest.NewServer()
	srv.AddPrompt(greetPrompt)
	srv.AddPrompt(rt.Prompt{Name: "none", Handler: promptText("no arguments")})
	srv.AddPrompt(rt.Prompt{Name: "nil", Handler: func(context.Context, *rt.PromptRequest) (*rt.GetPromptResult, error) { return nil, nil }})
	srv.AddPrompt(rt.Prompt{Name: "fails", Handler: func(context.Context, *rt.PromptRequest) (*rt.GetPromptResult, error) {
		return nil, errors.New("no inspiration")
	}})
	srv.AddPrompt(rt.Prompt{Name: "rpc", Handler: func(context.Context, *rt.PromptRequest) (*rt.GetPromptResult, error) {
		return nil, rt.NewError(rt.CodeInvalidParams, "Invalid params: not today", nil)
	}})
	srv.AddPrompt(rt.Prompt{Name: "panics", Handler: func(context.Context, *rt.PromptRequest) (*rt.GetPromptResult, error) { panic("boom") }})
	srv.AddPrompt(rt.Prompt{Name: "badrole", Handler: func(context.Context, *rt.PromptRequest) (*rt.GetPromptResult, error) {
		return &rt.GetPromptResult{Messages: []rt.PromptMessage{rt.UserMessage("ok"), {Role: "system", Content: rt.NewText("x")}}}, nil
	}})
	c := start(t, srv)
	c.initialize("2025-11-25")
	const available = `{"available":["greet","none","nil","fails","rpc","panics","badrole"]}`
	for i, tc := range []struct {
		params any
		want   string
		code   int
		msg    string
		data   string
	}{
		{params: map[string]any{"name": "greet", "arguments": map[string]any{"name": "Ada", "style": "formal"}},
			want: `{"description":"A formal greeting","messages":[{"role":"user","content":{"type":"text","text":"Greet Ada."}},{"role":"assistant","content":{"type":"text","text":"Hello, Ada!"}}]}`},
		{params: map[string]any{"name": "none"}, want: `{"messages":[{"role":"user","content":{"type":"text","text":"no arguments"}}]}`},
		{params: map[string]any{"name": "none", "arguments": nil}, want: `{"messages":[{"role":"user","content":{"type":"text","text":"no arguments"}}]}`},
		{params: map[string]any{"name": "nil"}, want: `{"messages":[]}`},
		{params: map[string]any{"name": "greet"}, code: rt.CodeInvalidParams, msg: "Invalid params: name: required argument is missing"},
		{params: map[string]any{"name": "greet", "arguments": map[string]any{"style": "casual"}}, code: rt.CodeInvalidParams, msg: "Invalid params: name: required argument is missing"},
		{params: map[string]any{"name": "greet", "arguments": map[string]any{"name": "Ada", "mood": "x"}}, code: rt.CodeInvalidParams, msg: "Invalid params: mood: unknown argument (arguments: name, style)"},
		{params: map[string]any{"name": "none", "arguments": map[string]any{"x": "1"}}, code: rt.CodeInvalidParams, msg: "Invalid params: x: unknown argument (the prompt takes none)"},
		{params: map[string]any{"name": "greet", "arguments": map[string]any{"name": 7}}, code: rt.CodeInvalidParams, msg: "Invalid params: name: must be a string, got 7"},
		{params: map[string]any{"name": "greet", "arguments": []string{}}, code: rt.CodeInvalidParams, msg: "Invalid params: arguments: must be an object, got an array"},
		{params: map[string]any{"name": "greet", "arguments": map[string]any{"name": "Ada", "style": "rude"}}, code: rt.CodeInvalidParams, msg: `Invalid params: style: must be one of "formal", "casual", "Fancy", got "rude"`},
		{params: map[string]any{"name": "nope"}, code: rt.CodeInvalidParams, msg: "Unknown prompt: nope", data: available},
		{params: map[string]any{}, code: rt.CodeInvalidParams, msg: "Invalid params: params.name (the prompt name) is required"},
		{params: map[string]any{"name": 1}, code: rt.CodeInvalidParams, msg: "Invalid params: name: must be a string, got 1"},
		{params: map[string]any{"name": "fails"}, code: rt.CodeInternalError, msg: "Internal error: no inspiration"},
		{params: map[string]any{"name": "rpc"}, code: rt.CodeInvalidParams, msg: "Invalid params: not today"},
		{params: map[string]any{"name": "panics"}, code: rt.CodeInternalError, msg: "Internal error: the prompt failed unexpectedly; the server logged the details"},
		{params: map[string]any{"name": "badrole"}, code: rt.CodeInternalError, msg: `Internal error: message 1 of the prompt has role "system"; want "user" or "assistant"`},
	} {
		r := c.call(i+1, "prompts/get", tc.params)
		if tc.code != 0 {
			wantError(t, r, tc.code, tc.msg, tc.data)
		} else if r.Error != nil {
			t.Errorf("prompts/get %v: %s", tc.params, r.raw)
		} else {
			jsonEqual(t, fmt.Sprint(tc.params), r.Result, tc.want)
		}
	}
}

func TestComplete(t *testing.T) {
	many := make([]string, 150)
	for i := range many {
		many[i] = fmt.Sprintf("v%03d", i)
	}
	var seen *rt.CompleteRequest
	record := func(_ context.Context, req *rt.CompleteRequest) ([]string, error) {
		cp := *req
		cp.Context = maps.Clone(req.Context)
		seen = &cp
		return []string{"one"}, nil
	}
	srv := rttest.NewServer()
	srv.AddPrompt(greetPrompt)
	srv.AddPrompt(rt.Prompt{Name: "p", Arguments: []rt.PromptArgument{
		{Name: "many", Complete: rt.EnumCompletion(many...)},
		{Name: "rec", Complete: record},
		{Name: "plain"},
		{Name: "fails", Complete: func(context.Context, *rt.CompleteRequest) ([]string, error) { return nil, errors.New("index offline") }},
		{Name: "panics", Complete: func(context.Context, *rt.CompleteRequest) ([]string, error) { panic("boom") }},
	}, Handler: promptText("")})
	srv.AddResourceTemplate(rt.ResourceTemplate{URITemplate: "notes://{folder}/{id}", Handler: textResource("", "").Handler,
		Complete: map[string]rt.CompleteFunc{"id": record}})
	ref := func(name string) map[string]any { return map[string]any{"type": "ref/prompt", "name": name} }
	res := func(uri string) map[string]any { return map[string]any{"type": "ref/resource", "uri": uri} }
	arg := func(name, value string) map[string]any { return map[string]any{"name": name, "value": value} }
	values := func(v ...string) string {
		if v == nil {
			v = []string{}
		}
		b, _ := json.Marshal(v)
		return fmt.Sprintf(`{"completion":{"values":%s,"total":%d,"hasMore":false}}`, b, len(v))
	}
	for _, rev := range []string{"2025-03-26", "2025-11-25"} {
		t.Run(rev, func(t *testing.T) {
			c := start(t, srv)
			c.initialize(rev)
			for i, tc := range []struct {
				params map[string]any
				want   string
				code   int
				msg    string
				data   string
			}{
				{params: map[string]any{"ref": ref("greet"), "argument": arg("style", "")}, want: values("formal", "casual", "Fancy")},
				{params: map[string]any{"ref": ref("greet"), "argument": arg("style", "F")}, want: values("formal", "Fancy")},
				{params: map[string]any{"ref": ref("greet"), "argument": arg("style", "CAS")}, want: values("casual")},
				{params: map[string]any{"ref": ref("greet"), "argument": arg("style", "formally")}, want: values()},
				{params: map[string]any{"ref": ref("greet"), "argument": arg("name", "A")}, want: values()},
				{params: map[string]any{"ref": ref("p"), "argument": arg("many", "v")},
					want: `{"completion":{"values":` + jsonText(many[:100]) + `,"total":150,"hasMore":true}}`},
				{params: map[string]any{"ref": ref("p"), "argument": arg("many", "v14")}, want: values(many[140:150]...)},
				{params: map[string]any{"ref": ref("p"), "argument": arg("plain", "x")}, want: values()},
				{params: map[string]any{"ref": res("notes://{folder}/{id}"), "argument": arg("folder", "x")}, want: values()},
				{params: map[string]any{"ref": ref("nope"), "argument": arg("x", "")}, code: rt.CodeInvalidParams, msg: "Unknown prompt: nope", data: `{"available":["greet","p"]}`},
				{params: map[string]any{"ref": ref("greet"), "argument": arg("mood", "")}, code: rt.CodeInvalidParams, msg: `Invalid params: prompt "greet" has no argument "mood" (arguments: name, style)`},
				{params: map[string]any{"ref": res("notes://{x}"), "argument": arg("x", "")}, code: rt.CodeInvalidParams, msg: "Unknown resource template: notes://{x}", data: `{"available":["notes://{folder}/{id}"]}`},
				{params: map[string]any{"ref": res("notes://{folder}/{id}"), "argument": arg("x", "")}, code: rt.CodeInvalidParams, msg: `Invalid params: resource template "notes://{folder}/{id}" has no variable "x" (variables: folder, id)`},
				{params: map[string]any{"ref": map[string]any{"type": "ref/tool", "name": "x"}, "argument": arg("x", "")}, code: rt.CodeInvalidParams, msg: `Invalid params: ref.type must be "ref/prompt" or "ref/resource", got "ref/tool"`},
				{params: map[string]any{"ref": ref("greet")}, code: rt.CodeInvalidParams, msg: "Invalid params: argument: required property is missing"},
				{params: map[string]any{"ref": map[string]any{"type": "ref/prompt"}, "argument": map[string]any{"name": "x"}}, code: rt.CodeInvalidParams,
					msg: "Invalid params: argument.value: required property is missing; ref.name: required property is missing"},
				{params: map[string]any{"ref": ref("p"), "argument": arg("fails", "")}, code: rt.CodeInternalError, msg: "Internal error: index offline"},
				{params: map[string]any{"ref": ref("p"), "argument": arg("panics", "")}, code: rt.CodeInternalError, msg: "Internal error: the completion failed unexpectedly; the server logged the details"},
			} {
				r := c.call(i+1, "completion/complete", tc.params)
				if tc.code != 0 {
					wantError(t, r, tc.code, tc.msg, tc.data)
				} else if r.Error != nil {
					t.Errorf("complete %v: %s", tc.params, r.raw)
				} else {
					jsonEqual(t, fmt.Sprint(tc.params), r.Result, tc.want)
				}
			}

			// The request a CompleteFunc sees; context only where the
			// revision has it.
			ctxArgs := map[string]any{"arguments": map[string]any{"folder": "work", "other": "x"}}
			wantCtx := map[string]string{}
			if rev >= "2025-06-18" {
				wantCtx = map[string]string{"folder": "work", "other": "x"}
			}
			for i, tc := range []struct {
				params map[string]any
				want   rt.CompleteRequest
			}{
				{map[string]any{"ref": res("notes://{folder}/{id}"), "argument": arg("id", "4"), "context": ctxArgs},
					rt.CompleteRequest{URITemplate: "notes://{folder}/{id}", Argument: "id", Value: "4", Context: wantCtx}},
				{map[string]any{"ref": ref("p"), "argument": arg("rec", "ab")},
					rt.CompleteRequest{Prompt: "p", Argument: "rec", Value: "ab", Context: map[string]string{}}},
			} {
				seen = nil
				jsonEqual(t, "recorded", c.result(100+i, "completion/complete", tc.params), values("one"))
				if seen == nil || seen.Session == nil {
					t.Fatalf("the CompleteFunc did not run with a session")
				}
				seen.Session = nil
				if seen.Prompt != tc.want.Prompt || seen.URITemplate != tc.want.URITemplate || seen.Argument != tc.want.Argument ||
					seen.Value != tc.want.Value || !maps.Equal(seen.Context, tc.want.Context) {
					t.Errorf("CompleteRequest = %+v, want %+v", *seen, tc.want)
				}
			}
		})
	}
}

func TestCompleteWithoutCompleters(t *testing.T) {
	srv := rttest.NewServer()
	srv.AddPrompt(rt.Prompt{Name: "p", Arguments: []rt.PromptArgument{{Name: "a"}}, Handler: promptText("")})
	c := start(t, srv)
	caps := c.initialize("2025-11-25")
	if strings.Contains(string(caps), "completions") {
		t.Errorf("completions advertised without a completer: %s", caps)
	}
	r := c.call(1, "completion/complete", map[string]any{"ref": map[string]any{"type": "ref/prompt", "name": "p"}, "argument": map[string]any{"name": "a", "value": ""}})
	if r.Error == nil || r.Error.Code != rt.CodeMethodNotFound {
		t.Errorf("completion/complete without completers = %s, want method not found", r.raw)
	}
	// Removing the last completable prompt withdraws the method.
	srv.AddPrompt(rt.Prompt{Name: "q", Arguments: []rt.PromptArgument{{Name: "a", Complete: rt.EnumCompletion("x")}}, Handler: promptText("")})
	c.recv() // list_changed
	if r := c.call(2, "completion/complete", map[string]any{"ref": map[string]any{"type": "ref/prompt", "name": "q"}, "argument": map[string]any{"name": "a", "value": ""}}); r.Error != nil {
		t.Errorf("complete = %s", r.raw)
	}
	srv.RemovePrompt("q")
	c.recv() // list_changed
	if r := c.call(3, "completion/complete", map[string]any{"ref": map[string]any{"type": "ref/prompt", "name": "p"}, "argument": map[string]any{"name": "a", "value": ""}}); r.Error == nil || r.Error.Code != rt.CodeMethodNotFound {
		t.Errorf("complete after removal = %s", r.raw)
	}
}

func TestEnumCompletion(t *testing.T) {
	f := rt.EnumCompletion("Alpha", "alps", "beta", "ÄRGER")
	for _, tc := range []struct {
		prefix string
		want   []string
	}{
		{"", []string{"Alpha", "alps", "beta", "ÄRGER"}},
		{"al", []string{"Alpha", "alps"}},
		{"ALP", []string{"Alpha", "alps"}},
		{"alph", []string{"Alpha"}},
		{"ä", []string{"ÄRGER"}},
		{"x", nil},
		{"alphabet", nil},
	} {
		got, err := f(context.Background(), &rt.CompleteRequest{Value: tc.prefix})
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("EnumCompletion(%q) = %q, %v; want %q", tc.prefix, got, err, tc.want)
		}
	}
}
