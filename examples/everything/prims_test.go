package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestPrimitives reads every resource and gets every prompt over stdio and
// compares each answer whole: the listings (names, titles, descriptions,
// MIME types, required arguments), the contents, completion of arg1, and
// the errors for a missing, an unknown argument or an unknown resource.
// The resources and prompts are generated from annotations; these answers
// are what the scenarios of the conformance suite read.
func TestPrimitives(t *testing.T) {
	tests := []struct {
		method, params string
		want           string // the whole result or error
	}{
		{"resources/list", `{}`, `{"result":{"resources":[` +
			`{"uri":"test://static-text","name":"static-text","description":"A static text resource","mimeType":"text/plain"},` +
			`{"uri":"test://static-binary","name":"static-binary","description":"A static binary resource: a PNG image","mimeType":"image/png"},` +
			`{"uri":"test://watched-resource","name":"watched-resource","description":"A resource that changes every 3 seconds; subscribe to hear of it","mimeType":"text/plain"}]}}`},
		{"resources/templates/list", `{}`, `{"result":{"resourceTemplates":[` +
			`{"uriTemplate":"test://template/{id}/data","name":"template","description":"A resource template: the data of one id","mimeType":"application/json",` +
			`"_meta":{"io.github.mcpgen/variables":{"properties":{"id":{"type":"string"}},"type":"object","required":["id"]}}}]}}`},
		{"prompts/list", `{}`, `{"result":{"prompts":[` +
			`{"name":"test_simple_prompt","title":"Simple prompt","description":"A prompt without arguments"},` +
			`{"name":"test_prompt_with_arguments","title":"Prompt with arguments","description":"A prompt with two required arguments","arguments":[` +
			`{"name":"arg1","description":"First test argument","required":true},{"name":"arg2","description":"Second test argument","required":true}]},` +
			`{"name":"test_prompt_with_embedded_resource","title":"Prompt with an embedded resource","description":"A prompt that embeds the resource of a URI","arguments":[` +
			`{"name":"resourceUri","description":"URI of the resource to embed","required":true}]},` +
			`{"name":"test_prompt_with_image","title":"Prompt with an image","description":"A prompt that holds a PNG image"}]}}`},
		{"resources/read", `{"uri":"test://static-text"}`,
			`{"result":{"contents":[{"uri":"test://static-text","mimeType":"text/plain","text":"This is the content of the static text resource."}]}}`},
		{"resources/read", `{"uri":"test://static-binary"}`,
			`{"result":{"contents":[{"uri":"test://static-binary","mimeType":"image/png","blob":"` + pngBase64 + `"}]}}`},
		{"resources/read", `{"uri":"test://template/123/data"}`,
			`{"result":{"contents":[{"uri":"test://template/123/data","mimeType":"application/json","text":"{\"id\":\"123\",\"templateTest\":true,\"data\":\"Data for ID: 123\"}"}]}}`},
		// A quote in the id stays valid JSON in the text.
		{"resources/read", `{"uri":"test://template/a%22b/data"}`,
			`{"result":{"contents":[{"uri":"test://template/a%22b/data","mimeType":"application/json","text":"{\"id\":\"a\\\"b\",\"templateTest\":true,\"data\":\"Data for ID: a\\\"b\"}"}]}}`},
		{"resources/read", `{"uri":"test://nothing"}`,
			`{"error":{"code":-32002,"message":"Resource not found","data":{"uri":"test://nothing"}}}`},
		{"resources/subscribe", `{"uri":"test://watched-resource"}`, `{"result":{}}`},
		{"resources/unsubscribe", `{"uri":"test://watched-resource"}`, `{"result":{}}`},
		{"prompts/get", `{"name":"test_simple_prompt"}`,
			`{"result":{"messages":[{"role":"user","content":{"type":"text","text":"This is a simple prompt for testing."}}]}}`},
		{"prompts/get", `{"name":"test_prompt_with_arguments","arguments":{"arg1":"testValue1","arg2":"testValue2"}}`,
			`{"result":{"messages":[{"role":"user","content":{"type":"text","text":"Prompt with arguments: arg1='testValue1', arg2='testValue2'"}}]}}`},
		{"prompts/get", `{"name":"test_prompt_with_arguments","arguments":{"arg1":"a"}}`,
			`{"error":{"code":-32602,"message":"Invalid params: arg2: required argument is missing"}}`},
		{"prompts/get", `{"name":"test_prompt_with_arguments","arguments":{"arg1":"a","arg2":"b","arg3":"c"}}`,
			`{"error":{"code":-32602,"message":"Invalid params: arg3: unknown argument (arguments: arg1, arg2)"}}`},
		{"prompts/get", `{"name":"test_prompt_with_embedded_resource","arguments":{"resourceUri":"test://example-resource"}}`,
			`{"result":{"messages":[{"role":"user","content":{"type":"resource","resource":{"uri":"test://example-resource","mimeType":"text/plain","text":"Embedded resource content for testing."}}},` +
				`{"role":"user","content":{"type":"text","text":"Please process the embedded resource above."}}]}}`},
		{"prompts/get", `{"name":"test_prompt_with_image"}`,
			`{"result":{"messages":[{"role":"user","content":{"type":"image","data":"` + pngBase64 + `","mimeType":"image/png"}},` +
				`{"role":"user","content":{"type":"text","text":"Please analyze the image above."}}]}}`},
		{"completion/complete", `{"ref":{"type":"ref/prompt","name":"test_prompt_with_arguments"},"argument":{"name":"arg1","value":"test"}}`,
			`{"result":{"completion":{"values":["test","testValue1"],"total":2,"hasMore":false}}}`},
		{"completion/complete", `{"ref":{"type":"ref/prompt","name":"test_prompt_with_arguments"},"argument":{"name":"arg1","value":"PA"}}`,
			`{"result":{"completion":{"values":["paris","park","party"],"total":3,"hasMore":false}}}`},
		{"completion/complete", `{"ref":{"type":"ref/prompt","name":"test_prompt_with_arguments"},"argument":{"name":"arg1","value":""}}`,
			`{"result":{"completion":{"values":["paris","park","party","test","testValue1"],"total":5,"hasMore":false}}}`},
		{"completion/complete", `{"ref":{"type":"ref/prompt","name":"test_prompt_with_arguments"},"argument":{"name":"arg2","value":"x"}}`,
			`{"result":{"completion":{"values":[],"total":0,"hasMore":false}}}`},
	}
	lines := []string{
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	}
	for i, tc := range tests {
		lines = append(lines, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, i+1, tc.method, tc.params))
	}
	watched := len(tests) + 1
	lines = append(lines, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"resources/read","params":{"uri":"test://watched-resource"}}`, watched))
	got := stdioAnswers(t, lines, watched+1)

	var init struct {
		Capabilities struct {
			Resources struct {
				Subscribe bool `json:"subscribe"`
			} `json:"resources"`
			Completions *struct{} `json:"completions"`
		} `json:"capabilities"`
	}
	if err := json.Unmarshal(result(t, got[0]), &init); err != nil || !init.Capabilities.Resources.Subscribe || init.Capabilities.Completions == nil {
		t.Errorf("initialize: %s, want resources.subscribe and completions (%v)", got[0], err)
	}
	for i, tc := range tests {
		if g := string(got[i+1]); g != tc.want {
			t.Errorf("%s %s:\n got %s\nwant %s", tc.method, tc.params, g, tc.want)
		}
	}
	var read struct {
		Contents []struct{ URI, MimeType, Text string } `json:"contents"`
	}
	if err := json.Unmarshal(result(t, got[watched]), &read); err != nil || len(read.Contents) != 1 {
		t.Fatalf("watched resource: %s (%v)", got[watched], err)
	}
	c := read.Contents[0]
	stamp, ok := strings.CutPrefix(c.Text, "Watched resource content at ")
	if _, err := time.Parse(time.RFC3339, stamp); !ok || err != nil || c.URI != watchedURI || c.MimeType != "text/plain" {
		t.Errorf("watched resource: %+v, want text/plain with a time (%v)", c, err)
	}
}

// stdioAnswers runs the server over stdio, sends lines and returns the
// first n answers by id, each as {"result":…} or {"error":…}.
func stdioAnswers(t *testing.T, lines []string, n int) map[int]json.RawMessage {
	t.Helper()
	cmd := exec.Command(buildServer(t))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	// A server that stops answering fails the test instead of hanging it.
	timer := time.AfterFunc(30*time.Second, func() { cmd.Process.Kill() })
	defer timer.Stop()
	for _, line := range lines {
		fmt.Fprintln(stdin, line)
	}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(nil, 1<<20)
	got := map[int]json.RawMessage{}
	for len(got) < n && sc.Scan() {
		var m struct {
			ID     *int            `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("unexpected message %s", sc.Bytes())
		}
		if m.ID == nil {
			continue // a notification
		}
		if m.Error != nil {
			got[*m.ID] = json.RawMessage(`{"error":` + string(m.Error) + `}`)
		} else {
			got[*m.ID] = json.RawMessage(`{"result":` + string(m.Result) + `}`)
		}
	}
	if len(got) < n {
		t.Fatalf("got %d answers, want %d (scan: %v)", len(got), n, sc.Err())
	}
	return got
}

// result returns the result of an answer of stdioAnswers.
func result(t *testing.T, answer json.RawMessage) json.RawMessage {
	t.Helper()
	var m struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(answer, &m); err != nil || m.Result == nil {
		t.Fatalf("%s: not a result (%v)", answer, err)
	}
	return m.Result
}
