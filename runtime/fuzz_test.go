package runtime_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// FuzzServe feeds arbitrary input to a session and checks that nothing is
// lost and nothing breaks: Serve returns, every line it writes is one whole
// JSON value, and every line that is a request (an object with jsonrpc
// "2.0", a method and a string or number id) gets an answer carrying its id.
func FuzzServe(f *testing.F) {
	initLine := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"f","version":"0"}}}`
	for _, seed := range []string{
		initLine + "\n" + `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`,
		initLine + "\n" + `{"jsonrpc":"2.0","id":"a","method":"tools/list"}` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"ping"}`,
		initLine + "\n" + `[{"jsonrpc":"2.0","id":3,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]`,
		initLine + "\n" + `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"text":5,"x":[}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/list"}` + "\n" + "not json\n{}\n[]\n" + `{"id":{}}`,
		initLine + "\n" + `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"nope"}}` + "\n" + `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"echo","arguments":null}}`,
		"\n\n\r\n   \n" + `{"jsonrpc":"2.0","id":-0,"method":"ping","params":null}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		srv := rttest.NewServer(rt.WithPageSize(1))
		srv.AddTool(rttest.Tool("echo", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
			d := mcpimpl.ArgumentsDecoder(req.Arguments)
			var text string
			if d.Object() {
				for {
					key, ok := d.Field()
					if !ok {
						break
					}
					if string(key) == "text" {
						text, _ = d.String()
					} else {
						d.Unknown("text")
					}
				}
			}
			if err := d.Err(); err != nil {
				return nil, err
			}
			return rt.TextResult(text), nil
		}))
		srv.AddTool(rttest.Tool("other", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
			return rt.TextResult("ok"), nil
		}))
		out, answered := serveFuzzInput(t, srv, input)
		requireAnswered(t, input, out, answered)
	})
}

// serveFuzzInput serves input to srv until its end and returns what the
// server wrote and how many answers each id got. It fails the test if Serve
// fails or does not return, or if a line it wrote is not one whole JSON-RPC
// response or a batch of them.
func serveFuzzInput(t *testing.T, srv *rt.Server, input []byte) (out string, answered map[string]int) {
	t.Helper()
	var buf rttest.SyncBuffer
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), bytes.NewReader(input), &buf) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("Serve did not return at the end of input")
	}
	out = buf.String()
	answered = map[string]int{}
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if !json.Valid(line) {
			t.Fatalf("output line is not JSON: %q", line)
		}
		var msgs []map[string]json.RawMessage
		if line[0] == '[' {
			if err := json.Unmarshal(line, &msgs); err != nil {
				t.Fatalf("batch response is not an array of objects: %q", line)
			}
		} else {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(line, &m); err != nil {
				t.Fatalf("output line is not an object: %q", line)
			}
			msgs = append(msgs, m)
		}
		for _, m := range msgs {
			if string(m["jsonrpc"]) != `"2.0"` || (m["result"] == nil) == (m["error"] == nil) {
				t.Fatalf("not a JSON-RPC response: %q", line)
			}
			answered[string(m["id"])]++
		}
	}
	return out, answered
}

// requireAnswered fails the test if a line of input that is a request (see
// requestID) got no answer.
func requireAnswered(t *testing.T, input []byte, out string, answered map[string]int) {
	t.Helper()
	for _, line := range bytes.Split(input, []byte("\n")) {
		if id, ok := requestID(line); ok && answered[id] == 0 {
			t.Fatalf("request %s was not answered; input:\n%s\noutput:\n%s", id, input, out)
		}
	}
}

// requestID returns the id of a line that is a single request, as the
// runtime would echo it.
func requestID(line []byte) (string, bool) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' || bytes.Contains(line, []byte("notifications/cancelled")) {
		return "", false
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(line, &m); err != nil {
		return "", false
	}
	var method string
	if json.Unmarshal(m["method"], &method) != nil || method == "" || string(m["jsonrpc"]) != `"2.0"` {
		return "", false
	}
	id := m["id"]
	if len(id) == 0 || (id[0] != '"' && id[0] != '-' && (id[0] < '0' || id[0] > '9')) {
		return "", false
	}
	// The runtime echoes the id as written; encoding/json has already
	// validated it, and keeps its text.
	return strings.TrimSpace(string(id)), true
}
