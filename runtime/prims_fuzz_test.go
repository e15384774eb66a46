package runtime_test

import (
	"bytes"
	"context"
	"testing"

	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
)

// FuzzPrimitives feeds arbitrary input to a session of a server with
// resources, templates, prompts and completions, and checks that Serve
// returns, writes only whole JSON-RPC responses, and answers every request.
func FuzzPrimitives(f *testing.F) {
	initLine := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"f","version":"0"}}}` + "\n"
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"notes://42"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"file:///a/b?rev=1"}}` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"resources/list","params":{"cursor":"bzE"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"resources/templates/list"}` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"mem://a"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"greet","arguments":{"name":"x","style":"formal"}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"greet","arguments":{"name":1,"x":[]}}}` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"prompts/list"}`,
		`{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"style","value":"f"},"context":{"arguments":{"a":"b"}}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/resource","uri":"notes://{id}"},"argument":{"name":"id","value":""}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"resources/unsubscribe","params":{"uri":"mem://a"}}` + "\n" + `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
	} {
		f.Add([]byte(initLine + seed))
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		srv := rttest.NewServer(rt.WithPageSize(1), rt.WithResourceSubscriptions())
		srv.AddResource(textResource("mem://a", "a"))
		srv.AddResource(textResource("mem://b", "b"))
		srv.AddResourceTemplate(echoTemplate("file:///{+path}{?rev}"))
		srv.AddResourceTemplate(rt.ResourceTemplate{URITemplate: "notes://{id}", Complete: map[string]rt.CompleteFunc{"id": rt.EnumCompletion("1", "2")},
			Handler: func(_ context.Context, req *rt.ResourceRequest) ([]rt.ResourceContents, error) {
				_, err := noteID(req)
				return []rt.ResourceContents{{Text: "n"}}, err
			}})
		srv.AddPrompt(greetPrompt)
		out, answered := serveFuzzInput(t, srv, input)
		if bytes.Contains(input, []byte("notifications/cancelled")) {
			return // a cancelled request is rightly left unanswered
		}
		requireAnswered(t, input, out, answered)
	})
}
