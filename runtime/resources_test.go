package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/mcpschema"
	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// textResource returns a resource at uri whose text is body.
func textResource(uri, body string) rt.Resource {
	return rt.Resource{URI: uri, Name: uri, MIMEType: "text/plain", Handler: func(context.Context, *rt.ResourceRequest) ([]rt.ResourceContents, error) {
		return []rt.ResourceContents{{Text: body}}, nil
	}}
}

// echoTemplate is a template whose read reports the template and variables
// it matched, as JSON.
func echoTemplate(tmpl string) rt.ResourceTemplate {
	return rt.ResourceTemplate{URITemplate: tmpl, Name: "t", Handler: func(_ context.Context, req *rt.ResourceRequest) ([]rt.ResourceContents, error) {
		b, _ := json.Marshal(map[string]any{"template": req.Template, "vars": req.Vars})
		return []rt.ResourceContents{rt.TextContents("application/json", string(b))}, nil
	}}
}

// noteID decodes the variable id of a template as generated code would:
// a string that must hold an integer from 1 to 999.
func noteID(req *rt.ResourceRequest) (int64, error) {
	d := mcpimpl.StringsDecoder("uri", req.Vars, []string{"id"})
	var id int64
	has := false
	if d.Object() {
		for {
			key, ok := d.Field()
			if !ok {
				break
			}
			switch string(key) {
			case "id":
				has = true
				if n, ok := mcpimpl.VarInt(d, 64); ok {
					if n < 1 || n > 999 {
						d.Invalid("must be an integer from 1 to 999")
					}
					id = n
				}
			default:
				d.Unknown("id")
			}
		}
		if !has {
			d.Missing("id")
		}
	}
	return id, d.Err()
}

// contentsText returns the text of the only contents of a read result.
func contentsText(t testing.TB, r *response) string {
	t.Helper()
	if r.Error != nil {
		t.Fatalf("want a read result, got %s", r.raw)
	}
	var res struct {
		Contents []struct {
			Text string `json:"text"`
		} `json:"contents"`
	}
	if err := json.Unmarshal(r.Result, &res); err != nil || len(res.Contents) != 1 {
		t.Fatalf("want one contents, got %s (%v)", r.Result, err)
	}
	return res.Contents[0].Text
}

func TestResourceCapabilities(t *testing.T) {
	info := `,"serverInfo":{"name":"test","version":"1.0.0"}}`
	withResource := func(s *rt.Server) { s.AddResource(textResource("mem://a", "a")) }
	withTemplate := func(s *rt.Server) { s.AddResourceTemplate(echoTemplate("mem://{x}")) }
	withPrompt := func(s *rt.Server) {
		s.AddPrompt(rt.Prompt{Name: "p", Arguments: []rt.PromptArgument{{Name: "a"}}, Handler: promptText("p")})
	}
	withCompletion := func(s *rt.Server) {
		s.AddPrompt(rt.Prompt{Name: "c", Arguments: []rt.PromptArgument{{Name: "a", Complete: rt.EnumCompletion("x")}}, Handler: promptText("c")})
	}
	for _, tc := range []struct {
		name string
		opts []rt.Option
		add  []func(*rt.Server)
		want map[string]string // revision → capabilities
	}{
		{"nothing", nil, nil, map[string]string{"2024-11-05": `{"logging":{}}`, "2025-11-25": `{"logging":{}}`}},
		{"resource", nil, []func(*rt.Server){withResource}, map[string]string{"2024-11-05": `{"logging":{},"resources":{"listChanged":true}}`, "2025-11-25": `{"logging":{},"resources":{"listChanged":true}}`}},
		{"template only", nil, []func(*rt.Server){withTemplate}, map[string]string{"2025-06-18": `{"logging":{},"resources":{"listChanged":true}}`}},
		{"subscribe", []rt.Option{rt.WithResourceSubscriptions()}, []func(*rt.Server){withResource}, map[string]string{"2025-03-26": `{"logging":{},"resources":{"subscribe":true,"listChanged":true}}`}},
		{"subscribe without resources", []rt.Option{rt.WithResourceSubscriptions()}, nil, map[string]string{"2025-03-26": `{"logging":{}}`}},
		{"prompt", nil, []func(*rt.Server){withPrompt}, map[string]string{"2025-03-26": `{"logging":{},"prompts":{"listChanged":true}}`}},
		{"completion", nil, []func(*rt.Server){withCompletion}, map[string]string{
			"2024-11-05": `{"logging":{},"prompts":{"listChanged":true}}`, // no completions capability yet
			"2025-03-26": `{"logging":{},"prompts":{"listChanged":true},"completions":{}}`,
			"2025-11-25": `{"logging":{},"prompts":{"listChanged":true},"completions":{}}`}},
		{"tools and all", nil, []func(*rt.Server){func(s *rt.Server) { s.AddTool(rttest.EchoTool) }, withResource, withCompletion}, map[string]string{
			"2025-11-25": `{"logging":{},"tools":{"listChanged":true},"resources":{"listChanged":true},"prompts":{"listChanged":true},"completions":{}}`}},
	} {
		for rev, want := range tc.want {
			t.Run(tc.name+"/"+rev, func(t *testing.T) {
				srv := rttest.NewServer(tc.opts...)
				for _, f := range tc.add {
					f(srv)
				}
				c := start(t, srv)
				jsonEqual(t, "initialize", c.initialize(rev), `{"protocolVersion":"`+rev+`","capabilities":`+want+info)
			})
		}
	}
}

func TestResourcesListShapes(t *testing.T) {
	prio := 0.5
	full := rt.Resource{URI: "mem://full", Name: "full", Title: "Full", Description: "Has everything.", MIMEType: "text/markdown", Size: 42,
		Annotations: &rt.Annotations{Audience: []string{"user"}, Priority: &prio, LastModified: "2025-01-12T15:00:58Z"},
		Meta:        json.RawMessage("{\n\"k\": 1}"), Handler: textResource("", "").Handler}
	bare := rt.Resource{URI: "mem://bare", Handler: full.Handler}
	tmpl := rt.ResourceTemplate{URITemplate: "mem://notes/{id}", Name: "note", Title: "Note", Description: "A note.", MIMEType: "text/plain",
		Annotations: &rt.Annotations{LastModified: "2025-01-12T15:00:58Z"}, Handler: full.Handler}
	const (
		bareJSON = `{"uri":"mem://bare","name":"mem://bare"}`
		oldRes   = `{"resources":[{"uri":"mem://full","name":"full","description":"Has everything.","mimeType":"text/markdown","annotations":{"audience":["user"],"priority":0.5},"size":42},` + bareJSON + `]}`
		newRes   = `{"resources":[{"uri":"mem://full","name":"full","title":"Full","description":"Has everything.","mimeType":"text/markdown","annotations":{"audience":["user"],"priority":0.5,"lastModified":"2025-01-12T15:00:58Z"},"_meta":{"k":1},"size":42},` + bareJSON + `]}`
		oldTmpl  = `{"resourceTemplates":[{"uriTemplate":"mem://notes/{id}","name":"note","description":"A note.","mimeType":"text/plain"}]}`
		newTmpl  = `{"resourceTemplates":[{"uriTemplate":"mem://notes/{id}","name":"note","title":"Note","description":"A note.","mimeType":"text/plain","annotations":{"lastModified":"2025-01-12T15:00:58Z"}}]}`
	)
	for _, tc := range []struct{ rev, res, tmpl string }{
		{"2024-11-05", oldRes, oldTmpl},
		{"2025-03-26", oldRes, oldTmpl},
		{"2025-06-18", newRes, newTmpl},
		{"2025-11-25", newRes, newTmpl},
	} {
		t.Run(tc.rev, func(t *testing.T) {
			srv := rttest.NewServer()
			srv.AddResource(full)
			srv.AddResource(bare)
			srv.AddResourceTemplate(tmpl)
			c := start(t, srv)
			c.initialize(tc.rev)
			jsonEqual(t, "resources/list", c.result(1, "resources/list", nil), tc.res)
			jsonEqual(t, "resources/templates/list", c.result(2, "resources/templates/list", map[string]any{}), tc.tmpl)
		})
	}
}

func TestResourcesListOnlyTemplates(t *testing.T) {
	srv := rttest.NewServer()
	srv.AddResourceTemplate(echoTemplate("mem://{x}"))
	c := start(t, srv)
	c.initialize("2025-11-25")
	jsonEqual(t, "resources/list", c.result(1, "resources/list", nil), `{"resources":[]}`)
}

func TestResourcesPagination(t *testing.T) {
	srv := rttest.NewServer(rt.WithPageSize(2))
	var want []string
	for i := range 5 {
		uri := fmt.Sprintf("mem://r%d", i)
		srv.AddResource(textResource(uri, ""))
		srv.AddResourceTemplate(echoTemplate(fmt.Sprintf("mem://t%d/{x}", i)))
		srv.AddPrompt(rt.Prompt{Name: fmt.Sprintf("p%d", i), Handler: promptText("")})
		want = append(want, strconv.Itoa(i))
	}
	c := start(t, srv)
	c.initialize("2025-11-25")
	id := 0
	for _, tc := range []struct{ method, list, key, prefix string }{
		{"resources/list", "resources", "uri", "mem://r"},
		{"resources/templates/list", "resourceTemplates", "uriTemplate", "mem://t"},
		{"prompts/list", "prompts", "name", "p"},
	} {
		var got []string
		var cursor any
		for pages := 0; ; pages++ {
			if pages > 3 {
				t.Fatalf("%s: more pages than expected", tc.method)
			}
			id++
			var params any
			if cursor != nil {
				params = map[string]any{"cursor": cursor}
			}
			var page map[string]json.RawMessage
			if err := json.Unmarshal(c.result(id, tc.method, params), &page); err != nil {
				t.Fatal(err)
			}
			var items []map[string]any
			json.Unmarshal(page[tc.list], &items)
			if len(items) > 2 {
				t.Errorf("%s: page of %d items, want at most 2", tc.method, len(items))
			}
			for _, it := range items {
				s, _ := it[tc.key].(string)
				s = strings.TrimPrefix(s, tc.prefix)
				got = append(got, strings.TrimSuffix(s, "/{x}"))
			}
			next, ok := page["nextCursor"]
			if !ok {
				break
			}
			json.Unmarshal(next, &cursor)
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s over pages = %q, want %q", tc.method, got, want)
		}
		id++
		wantError(t, c.call(id, tc.method, map[string]any{"cursor": "bogus"}), rt.CodeInvalidParams, "Invalid params: invalid cursor", "")
	}
}

func TestResourcesRead(t *testing.T) {
	type res = []rt.ResourceContents
	srv := rttest.NewServer()
	srv.AddResource(textResource("notes://index", "the index"))
	srv.AddResource(rt.Resource{URI: "mem://blob", Name: "blob", MIMEType: "application/octet-stream", Handler: func(context.Context, *rt.ResourceRequest) ([]rt.ResourceContents, error) {
		return res{rt.BlobContents("", []byte{1, 2, 3}), {URI: "mem://blob#2", MIMEType: "text/plain", Text: "two", Meta: json.RawMessage(`{"a":1}`)}}, nil
	}})
	srv.AddResource(rt.Resource{URI: "mem://empty", Handler: func(context.Context, *rt.ResourceRequest) ([]rt.ResourceContents, error) { return nil, nil }})
	srv.AddResourceTemplate(echoTemplate("notes://{id}"))
	srv.AddResourceTemplate(echoTemplate("notes://archive/{id}"))
	srv.AddResourceTemplate(echoTemplate("mem://dir/{name}"))
	srv.AddResourceTemplate(echoTemplate("file:///{+path}"))
	srv.AddResourceTemplate(echoTemplate("file:///docs/{+path}{?rev}"))
	srv.AddResourceTemplate(rt.ResourceTemplate{URITemplate: "num://{id}", Name: "num", Handler: func(_ context.Context, req *rt.ResourceRequest) ([]rt.ResourceContents, error) {
		id, err := noteID(req)
		if err != nil {
			return nil, err
		}
		return res{rt.TextContents("text/plain", fmt.Sprint(id*2))}, nil
	}})
	fail := func(err error) rt.ResourceHandler {
		return func(context.Context, *rt.ResourceRequest) ([]rt.ResourceContents, error) { return nil, err }
	}
	srv.AddResourceTemplate(rt.ResourceTemplate{URITemplate: "err://gone/{x}", Handler: fail(fmt.Errorf("no note %q: %w", "x", rt.ErrResourceNotFound))})
	srv.AddResourceTemplate(rt.ResourceTemplate{URITemplate: "err://rpc/{x}", Handler: fail(&rt.Error{Code: -32001, Message: "custom", Data: json.RawMessage(`{"why":"test"}`)})})
	srv.AddResourceTemplate(rt.ResourceTemplate{URITemplate: "err://plain/{x}", Handler: fail(errors.New("the disk is on fire"))})
	srv.AddResourceTemplate(rt.ResourceTemplate{URITemplate: "err://panic/{x}", Handler: func(context.Context, *rt.ResourceRequest) ([]rt.ResourceContents, error) { panic("boom") }})
	srv.AddResourceTemplate(rt.ResourceTemplate{URITemplate: "err://meta/{x}", Handler: func(context.Context, *rt.ResourceRequest) ([]rt.ResourceContents, error) {
		return res{{Text: "x", Meta: json.RawMessage(`{bad`)}}, nil
	}})

	const blob = `{"uri":"mem://blob","mimeType":"application/octet-stream","blob":"AQID"}`
	for _, rev := range []string{"2024-11-05", "2025-11-25"} {
		t.Run(rev, func(t *testing.T) {
			c := start(t, srv)
			c.initialize(rev)
			meta := ""
			if rev >= "2025-06-18" {
				meta = `,"_meta":{"a":1}`
			}
			for i, tc := range []struct {
				params any
				want   string // the result, or
				code   int    // the error
				msg    string
				data   string
			}{
				{params: map[string]any{"uri": "notes://index"}, want: `{"contents":[{"uri":"notes://index","mimeType":"text/plain","text":"the index"}]}`},
				{params: map[string]any{"uri": "mem://blob"}, want: `{"contents":[` + blob + `,{"uri":"mem://blob#2","mimeType":"text/plain","text":"two"` + meta + `}]}`},
				{params: map[string]any{"uri": "mem://empty"}, want: `{"contents":[]}`},
				// Static first, then the most specific template.
				{params: map[string]any{"uri": "notes://42"}, want: echo("notes://42", "notes://{id}", `{"id":"42"}`)},
				{params: map[string]any{"uri": "mem://dir/a%2Fb%20c"}, want: echo("mem://dir/a%2Fb%20c", "mem://dir/{name}", `{"name":"a/b c"}`)},
				{params: map[string]any{"uri": "notes://archive/7"}, want: echo("notes://archive/7", "notes://archive/{id}", `{"id":"7"}`)},
				{params: map[string]any{"uri": "file:///src/main.go"}, want: echo("file:///src/main.go", "file:///{+path}", `{"path":"src/main.go"}`)},
				{params: map[string]any{"uri": "file:///docs/a/b.md"}, want: echo("file:///docs/a/b.md", "file:///docs/{+path}{?rev}", `{"path":"a/b.md"}`)},
				{params: map[string]any{"uri": "file:///docs/a.md?rev=2"}, want: echo("file:///docs/a.md?rev=2", "file:///docs/{+path}{?rev}", `{"path":"a.md","rev":"2"}`)},
				{params: map[string]any{"uri": "num://21"}, want: `{"contents":[{"uri":"num://21","mimeType":"text/plain","text":"42"}]}`},
				// Errors.
				{params: map[string]any{"uri": "nothing://here"}, code: rt.CodeResourceNotFound, msg: "Resource not found", data: `{"uri":"nothing://here"}`},
				{params: map[string]any{"uri": "notes://"}, code: rt.CodeResourceNotFound, msg: "Resource not found", data: `{"uri":"notes://"}`},
				{params: map[string]any{}, code: rt.CodeInvalidParams, msg: "Invalid params: uri: required property is missing"},
				{params: nil, code: rt.CodeInvalidParams, msg: "Invalid params: uri: required property is missing"},
				{params: map[string]any{"uri": 5}, code: rt.CodeInvalidParams, msg: "Invalid params: uri: must be a string, got 5"},
				{params: map[string]any{"uri": "num://abc"}, code: rt.CodeInvalidParams, msg: `Invalid params: id: must be an integer, got "abc"`},
				{params: map[string]any{"uri": "num://0"}, code: rt.CodeInvalidParams, msg: `Invalid params: id: must be an integer from 1 to 999, got "0"`},
				{params: map[string]any{"uri": "err://gone/1"}, code: rt.CodeResourceNotFound, msg: "Resource not found", data: `{"uri":"err://gone/1"}`},
				{params: map[string]any{"uri": "err://rpc/1"}, code: -32001, msg: "custom", data: `{"why":"test"}`},
				{params: map[string]any{"uri": "err://plain/1"}, code: rt.CodeInternalError, msg: "Internal error: the disk is on fire"},
				{params: map[string]any{"uri": "err://panic/1"}, code: rt.CodeInternalError, msg: "Internal error: the resource failed unexpectedly; the server logged the details"},
				{params: map[string]any{"uri": "err://meta/1"}, code: rt.CodeInternalError, msg: "Internal error: the resource handler produced invalid _meta"},
			} {
				r := c.call(i+1, "resources/read", tc.params)
				if tc.code != 0 {
					wantError(t, r, tc.code, tc.msg, tc.data)
					continue
				}
				if r.Error != nil {
					t.Errorf("read %v: %s", tc.params, r.raw)
					continue
				}
				jsonEqual(t, fmt.Sprint(tc.params), r.Result, tc.want)
			}
		})
	}
}

// echo is what reading uri through echoTemplate(tmpl) returns, where vars
// is the JSON of the variables.
func echo(uri, tmpl, vars string) string {
	var v any
	json.Unmarshal([]byte(vars), &v)
	text, _ := json.Marshal(map[string]any{"template": tmpl, "vars": v})
	b, _ := json.Marshal(string(text))
	return `{"contents":[{"uri":"` + uri + `","mimeType":"application/json","text":` + string(b) + `}]}`
}

func TestResourcesReadCancelled(t *testing.T) {
	started := make(chan struct{})
	ended := make(chan error, 1)
	srv := rttest.NewServer()
	srv.AddResourceTemplate(rt.ResourceTemplate{URITemplate: "slow://{x}", Handler: func(ctx context.Context, req *rt.ResourceRequest) ([]rt.ResourceContents, error) {
		close(started)
		select {
		case <-ctx.Done():
			ended <- ctx.Err()
		case <-time.After(rttest.Timeout):
			ended <- errors.New("not cancelled")
		}
		return nil, ctx.Err()
	}})
	c := start(t, srv)
	c.initialize("2025-11-25")
	c.request(1, "resources/read", map[string]any{"uri": "slow://1"})
	<-started
	c.notify("notifications/cancelled", map[string]any{"requestId": 1})
	if err := <-ended; !errors.Is(err, context.Canceled) {
		t.Fatalf("handler ended with %v, want context.Canceled", err)
	}
	// No response to the cancelled read; the session goes on.
	if got := c.result(2, "ping", nil); string(got) != "{}" {
		t.Fatalf("ping = %s", got)
	}
}

func TestResourcesBeforeInitialize(t *testing.T) {
	srv := rttest.NewServer()
	srv.AddResource(textResource("mem://a", "a"))
	srv.AddPrompt(greetPrompt)
	c := start(t, srv)
	for i, m := range []string{"resources/list", "resources/read", "prompts/get"} {
		wantError(t, c.call(i, m, map[string]any{"uri": "mem://a", "name": "greet"}), rt.CodeInvalidRequest, "Invalid Request: the session is not initialized; send initialize first", "")
	}
}

func TestMethodNotFoundListsPrimitives(t *testing.T) {
	srv := rttest.NewServer(rt.WithResourceSubscriptions())
	srv.AddResource(textResource("mem://a", "a"))
	c := start(t, srv)
	c.initialize("2025-11-25")
	const all = `{"supported":["initialize","ping","logging/setLevel","tools/list","tools/call","resources/list","resources/templates/list","resources/read","resources/subscribe","resources/unsubscribe"]}`
	wantError(t, c.call(1, "prompts/list", nil), rt.CodeMethodNotFound, "Method not found: prompts/list", all)
	wantError(t, c.call(2, "completion/complete", nil), rt.CodeMethodNotFound, "Method not found: completion/complete", all)

	// Without the option, no subscriptions.
	srv2 := rttest.NewServer()
	srv2.AddResource(textResource("mem://a", "a"))
	c2 := start(t, srv2)
	c2.initialize("2025-11-25")
	wantError(t, c2.call(1, "resources/subscribe", map[string]any{"uri": "mem://a"}), rt.CodeMethodNotFound, "Method not found: resources/subscribe",
		`{"supported":["initialize","ping","logging/setLevel","tools/list","tools/call","resources/list","resources/templates/list","resources/read"]}`)
}

func TestResourceSubscriptions(t *testing.T) {
	srv := rttest.NewServer(rt.WithResourceSubscriptions())
	srv.AddResource(textResource("mem://a", "a"))
	srv.AddResourceTemplate(echoTemplate("notes://{id}"))
	a, b := start(t, srv), start(t, srv)
	a.initialize("2025-11-25")
	b.initialize("2024-11-05")
	for _, tc := range []struct {
		c    *testClient
		uri  string
		code int
	}{
		{a, "notes://1", 0},
		{a, "mem://a", 0},
		{a, "mem://a", 0}, // twice is once
		{b, "notes://2", 0},
		{a, "none://x", rt.CodeResourceNotFound},
	} {
		r := tc.c.call(1, "resources/subscribe", map[string]any{"uri": tc.uri})
		if tc.code != 0 {
			wantError(t, r, tc.code, "Resource not found", `{"uri":"`+tc.uri+`"}`)
		} else if string(r.Result) != "{}" {
			t.Fatalf("subscribe %s = %s", tc.uri, r.raw)
		}
	}
	wantError(t, a.call(2, "resources/subscribe", map[string]any{}), rt.CodeInvalidParams, "Invalid params: uri: required property is missing", "")

	updated := func(uri string) string {
		return `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"` + uri + `"}}`
	}
	srv.ResourceUpdated("notes://1")
	jsonEqual(t, "a's notification", a.recv(), updated("notes://1"))
	srv.ResourceUpdated("notes://2")
	jsonEqual(t, "b's notification", b.recv(), updated("notes://2"))
	srv.ResourceUpdated("notes://3") // nobody
	srv.ResourceUpdated("mem://a")
	jsonEqual(t, "a's notification", a.recv(), updated("mem://a"))

	// Unsubscribing, also from what was never subscribed, answers {}.
	for i, uri := range []string{"notes://1", "never://x"} {
		if r := a.result(3+i, "resources/unsubscribe", map[string]any{"uri": uri}); string(r) != "{}" {
			t.Fatalf("unsubscribe = %s", r)
		}
	}
	srv.ResourceUpdated("notes://1")
	srv.ResourceUpdated("mem://a")
	jsonEqual(t, "a's notification", a.recv(), updated("mem://a"))

	// A session that ended is forgotten.
	if rest := b.finish(); len(rest) > 0 {
		t.Fatalf("b got %s", lines(rest))
	}
	srv.ResourceUpdated("notes://2")
	if r := a.result(9, "ping", nil); string(r) != "{}" {
		t.Fatalf("ping = %s", r)
	}
}

func TestListChanged(t *testing.T) {
	srv := rttest.NewServer()
	srv.AddResource(textResource("mem://a", "a"))
	srv.AddPrompt(greetPrompt)
	early := start(t, srv) // not initialized: gets nothing
	c := start(t, srv)
	c.initialize("2025-11-25")
	if got := c.result(1, "resources/list", nil); !strings.Contains(string(got), "mem://a") {
		t.Fatalf("resources/list = %s", got)
	}
	const (
		res     = `{"jsonrpc":"2.0","method":"notifications/resources/list_changed"}`
		prompts = `{"jsonrpc":"2.0","method":"notifications/prompts/list_changed"}`
	)
	srv.AddResource(textResource("mem://b", "b"))
	jsonEqual(t, "after AddResource", c.recv(), res)
	jsonEqual(t, "resources/list", c.result(2, "resources/list", nil),
		`{"resources":[{"uri":"mem://a","name":"mem://a","mimeType":"text/plain"},{"uri":"mem://b","name":"mem://b","mimeType":"text/plain"}]}`)
	if !srv.RemoveResource("mem://a") || srv.RemoveResource("mem://a") {
		t.Error("RemoveResource reports wrongly whether it removed")
	}
	jsonEqual(t, "after RemoveResource", c.recv(), res)
	wantError(t, c.call(3, "resources/read", map[string]any{"uri": "mem://a"}), rt.CodeResourceNotFound, "Resource not found", `{"uri":"mem://a"}`)

	srv.AddResourceTemplate(echoTemplate("mem://t/{x}"))
	jsonEqual(t, "after AddResourceTemplate", c.recv(), res)
	if r := c.call(4, "resources/read", map[string]any{"uri": "mem://t/1"}); r.Error != nil {
		t.Fatalf("read through the new template: %s", r.raw)
	}
	if !srv.RemoveResourceTemplate("mem://t/{x}") || srv.RemoveResourceTemplate("mem://t/{x}") {
		t.Error("RemoveResourceTemplate reports wrongly whether it removed")
	}
	jsonEqual(t, "after RemoveResourceTemplate", c.recv(), res)
	jsonEqual(t, "templates", c.result(5, "resources/templates/list", nil), `{"resourceTemplates":[]}`)

	srv.AddPrompt(rt.Prompt{Name: "second", Handler: promptText("2")})
	jsonEqual(t, "after AddPrompt", c.recv(), prompts)
	if !srv.RemovePrompt("greet") || srv.RemovePrompt("greet") {
		t.Error("RemovePrompt reports wrongly whether it removed")
	}
	jsonEqual(t, "after RemovePrompt", c.recv(), prompts)
	jsonEqual(t, "prompts/list", c.result(6, "prompts/list", nil), `{"prompts":[{"name":"second"}]}`)
	if rest := early.finish(); len(rest) > 0 {
		t.Errorf("an uninitialized session got %s", lines(rest))
	}
}

func TestAddResourcePanics(t *testing.T) {
	h := textResource("", "").Handler
	for _, tc := range []struct {
		name string
		add  func(*rt.Server)
		want string
	}{
		{"empty URI", func(s *rt.Server) { s.AddResource(rt.Resource{Handler: h}) }, "empty URI"},
		{"variables", func(s *rt.Server) { s.AddResource(rt.Resource{URI: "a://{x}", Handler: h}) }, "use AddResourceTemplate"},
		{"no handler", func(s *rt.Server) { s.AddResource(rt.Resource{URI: "a://x"}) }, "nil Handler"},
		{"bad meta", func(s *rt.Server) { s.AddResource(rt.Resource{URI: "a://x", Meta: json.RawMessage(`[1]`), Handler: h}) }, "Meta must be a JSON object"},
		{"duplicate", func(s *rt.Server) {
			s.AddResource(rt.Resource{URI: "a://x", Handler: h})
			s.AddResource(rt.Resource{URI: "a://x", Handler: h})
		}, `duplicate resource URI "a://x"`},
		{"bad template", func(s *rt.Server) { s.AddResourceTemplate(rt.ResourceTemplate{URITemplate: "a://{x", Handler: h}) }, "unclosed expression"},
		{"literal template", func(s *rt.Server) { s.AddResourceTemplate(rt.ResourceTemplate{URITemplate: "a://x", Handler: h}) }, "use AddResource"},
		{"template without handler", func(s *rt.Server) { s.AddResourceTemplate(rt.ResourceTemplate{URITemplate: "a://{x}"}) }, "nil Handler"},
		{"completion of no variable", func(s *rt.Server) {
			s.AddResourceTemplate(rt.ResourceTemplate{URITemplate: "a://{x}", Handler: h, Complete: map[string]rt.CompleteFunc{"y": rt.EnumCompletion()}})
		}, `Complete names "y"`},
		{"duplicate template", func(s *rt.Server) {
			s.AddResourceTemplate(rt.ResourceTemplate{URITemplate: "a://{x}", Handler: h})
			s.AddResourceTemplate(rt.ResourceTemplate{URITemplate: "a://{x}", Handler: h})
		}, "duplicate resource template"},
		{"prompt without name", func(s *rt.Server) { s.AddPrompt(rt.Prompt{Handler: promptText("")}) }, "empty name"},
		{"prompt without handler", func(s *rt.Server) { s.AddPrompt(rt.Prompt{Name: "p"}) }, "nil Handler"},
		{"prompt argument twice", func(s *rt.Server) {
			s.AddPrompt(rt.Prompt{Name: "p", Arguments: []rt.PromptArgument{{Name: "a"}, {Name: "a"}}, Handler: promptText("")})
		}, `argument "a" declared twice`},
		{"prompt argument without name", func(s *rt.Server) {
			s.AddPrompt(rt.Prompt{Name: "p", Arguments: []rt.PromptArgument{{}}, Handler: promptText("")})
		}, "an argument has no name"},
		{"duplicate prompt", func(s *rt.Server) { s.AddPrompt(greetPrompt); s.AddPrompt(greetPrompt) }, `duplicate prompt name "greet"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				p := recover()
				if s, _ := p.(string); !strings.Contains(s, tc.want) {
					t.Errorf("panic %v, want one containing %q", p, tc.want)
				}
			}()
			tc.add(rttest.NewServer())
		})
	}
}

func TestContentDowngrade(t *testing.T) {
	prio := 1.0
	blocks := []rt.Content{
		&rt.EmbeddedResource{URI: "notes://e", Text: "e", Annotations: &rt.Annotations{Priority: &prio, LastModified: "2025-01-12T15:00:58Z"}},
		rt.NewAudio([]byte{1, 2}, "audio/wav"),
		&rt.AudioContent{Data: []byte{1}, MIMEType: "audio/mpeg"},
		rt.ResourceLink{URI: "notes://1", Name: "one", Description: "The first note", Size: 3, Annotations: &rt.Annotations{Audience: []string{"assistant"}}},
		&rt.ResourceLink{URI: "notes://2", Name: "two"},
	}
	const (
		audio1 = `{"type":"audio","data":"AQI=","mimeType":"audio/wav"}`
		audio2 = `{"type":"audio","data":"AQ==","mimeType":"audio/mpeg"}`
		link1  = `{"type":"resource_link","uri":"notes://1","name":"one","description":"The first note","size":3,"annotations":{"audience":["assistant"]}}`
		link2  = `{"type":"resource_link","uri":"notes://2","name":"two"}`
		noA1   = `{"type":"text","text":"[audio (audio/wav, 2 bytes) left out: this client's protocol revision has no audio content]"}`
		noA2   = `{"type":"text","text":"[audio (audio/mpeg, 1 bytes) left out: this client's protocol revision has no audio content]"}`
		noL1   = `{"type":"text","text":"Resource one: notes://1 (The first note)"}`
		noL2   = `{"type":"text","text":"Resource two: notes://2"}`
	)
	const (
		emb    = `{"type":"resource","resource":{"uri":"notes://e","text":"e"},"annotations":{"priority":1,"lastModified":"2025-01-12T15:00:58Z"}}`
		embOld = `{"type":"resource","resource":{"uri":"notes://e","text":"e"},"annotations":{"priority":1}}`
	)
	want := map[string][]string{
		"2024-11-05": {embOld, noA1, noA2, noL1, noL2},
		"2025-03-26": {embOld, audio1, audio2, noL1, noL2},
		"2025-06-18": {emb, audio1, audio2, link1, link2},
		"2025-11-25": {emb, audio1, audio2, link1, link2},
	}
	for _, rev := range mcpschema.Revisions {
		t.Run(rev, func(t *testing.T) {
			srv := rttest.NewServer()
			srv.AddTool(rttest.Tool("blocks", func(context.Context, *rt.ToolRequest) (*rt.CallToolResult, error) {
				return rt.ContentResult(blocks), nil
			}))
			srv.AddPrompt(rt.Prompt{Name: "blocks", Handler: func(context.Context, *rt.PromptRequest) (*rt.GetPromptResult, error) {
				var msgs []rt.PromptMessage
				for _, b := range blocks {
					msgs = append(msgs, rt.PromptMessage{Role: "user", Content: b})
				}
				return &rt.GetPromptResult{Messages: msgs}, nil
			}})
			c := start(t, srv)
			c.initialize(rev)
			jsonEqual(t, "tool result", c.toolCall(1, "blocks", nil).Result, `{"content":[`+strings.Join(want[rev], ",")+`]}`)
			var msgs []string
			for _, b := range want[rev] {
				msgs = append(msgs, `{"role":"user","content":`+b+`}`)
			}
			jsonEqual(t, "prompt result", c.result(2, "prompts/get", map[string]any{"name": "blocks"}), `{"messages":[`+strings.Join(msgs, ",")+`]}`)
		})
	}
}

func TestSlowReadDoesNotBlock(t *testing.T) {
	release := make(chan struct{})
	srv := rttest.NewServer()
	srv.AddResource(rt.Resource{URI: "slow://x", Handler: func(ctx context.Context, _ *rt.ResourceRequest) ([]rt.ResourceContents, error) {
		select {
		case <-release:
		case <-ctx.Done():
		}
		return []rt.ResourceContents{{Text: "late"}}, nil
	}})
	srv.AddPrompt(rt.Prompt{Name: "p", Handler: promptText("now")})
	c := start(t, srv)
	c.initialize("2025-11-25")
	c.request(1, "resources/read", map[string]any{"uri": "slow://x"})
	if r := c.result(2, "prompts/get", map[string]any{"name": "p"}); !strings.Contains(string(r), "now") {
		t.Fatalf("prompts/get = %s", r)
	}
	close(release)
	if got := contentsText(t, c.recvResponse("1")); got != "late" {
		t.Fatalf("read = %q", got)
	}
}

func TestPrimitivesChangeWhileServing(t *testing.T) {
	srv := rttest.NewServer()
	srv.AddResource(textResource("mem://base", "base"))
	srv.AddPrompt(rt.Prompt{Name: "base", Handler: promptText("base")})
	c := start(t, srv)
	c.initialize("2025-11-25")
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 50 {
			uri := fmt.Sprintf("mem://%d", i)
			srv.AddResource(textResource(uri, "x"))
			srv.AddResourceTemplate(echoTemplate(fmt.Sprintf("mem://t%d/{x}", i)))
			srv.AddPrompt(rt.Prompt{Name: fmt.Sprint(i), Handler: promptText("")})
			srv.RemoveResource(uri)
			srv.RemoveResourceTemplate(fmt.Sprintf("mem://t%d/{x}", i))
			srv.RemovePrompt(fmt.Sprint(i))
		}
	}()
	// Requests and list_changed notifications interleave; every response
	// must still be right.
	for i := 1; i <= 60; i++ {
		method, params := "resources/read", any(map[string]any{"uri": "mem://base"})
		switch i % 3 {
		case 1:
			method, params = "resources/list", nil
		case 2:
			method, params = "prompts/get", map[string]any{"name": "base"}
		}
		c.request(i, method, params)
		for {
			r := c.decode(c.recv())
			if r.ID == nil {
				continue // a notification
			}
			if string(r.ID) != fmt.Sprint(i) || r.Error != nil {
				t.Fatalf("%s: %s", method, r.raw)
			}
			break
		}
	}
	<-done
	// Drain the notifications still coming.
	for _, m := range c.finish() {
		if !strings.Contains(string(m), "list_changed") {
			t.Errorf("unexpected message %s", m)
		}
	}
}

func TestReadLeavesHandlerSliceAlone(t *testing.T) {
	shared := []rt.ResourceContents{{Text: "shared"}}
	srv := rttest.NewServer()
	for _, uri := range []string{"mem://a", "mem://b"} {
		srv.AddResource(rt.Resource{URI: uri, MIMEType: "text/plain", Handler: func(context.Context, *rt.ResourceRequest) ([]rt.ResourceContents, error) {
			return shared, nil
		}})
	}
	c := start(t, srv)
	c.initialize("2025-11-25")
	jsonEqual(t, "a", c.result(1, "resources/read", map[string]any{"uri": "mem://a"}), `{"contents":[{"uri":"mem://a","mimeType":"text/plain","text":"shared"}]}`)
	jsonEqual(t, "b", c.result(2, "resources/read", map[string]any{"uri": "mem://b"}), `{"contents":[{"uri":"mem://b","mimeType":"text/plain","text":"shared"}]}`)
	if shared[0].URI != "" || shared[0].MIMEType != "" {
		t.Errorf("the handler's contents were modified: %+v", shared[0])
	}
}
