package runtime_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
)

const supported = `{"supported":["initialize","ping","logging/setLevel","tools/list","tools/call"]}`

func TestParseError(t *testing.T) {
	for _, tc := range []struct {
		name, line, message string
	}{
		{"not JSON", `not json`, "Parse error: invalid JSON at offset 1: unexpected character 'o' in literal null"},
		{"truncated object", `{"jsonrpc":"2.0","id":1,"method":"ping"`, "Parse error: invalid JSON at offset 39: unexpected end of input; expected ',' or '}' after property value"},
		{"trailing garbage", `{"jsonrpc":"2.0","id":1,"method":"ping"} x`, "Parse error: invalid JSON at offset 41: unexpected character 'x' after top-level value"},
		{"bad string", `{"jsonrpc":"2.0","id":"a` + "\x01" + `","method":"ping"}`, `Parse error: invalid JSON at offset 24: invalid control character '\x01' in string (it must be escaped)`},
		{"truncated batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"}`, "Parse error: invalid JSON at offset 41: unexpected end of input; expected ',' or ']' after array element"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := rttest.NewServer()
			srv.AddTool(rttest.EchoTool)
			c := start(t, srv)
			c.send(tc.line)
			wantError(t, c.recvResponse("null"), rt.CodeParseError, tc.message, "")
			// The server keeps serving.
			jsonEqual(t, "ping", c.result(2, "ping", nil), `{}`)
			c.initialize("2025-06-18")
			c.send(tc.line)
			wantError(t, c.recvResponse("null"), rt.CodeParseError, tc.message, "")
			jsonEqual(t, "ping", c.result(3, "ping", nil), `{}`)
		})
	}
}

func TestInvalidRequest(t *testing.T) {
	srv := rttest.NewServer()
	srv.AddTool(rttest.EchoTool)
	c := start(t, srv)
	c.initialize("2025-11-25")
	for _, tc := range []struct {
		name, line, id, message string
	}{
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":1,"method":"ping"}`, "1", `Invalid Request: jsonrpc must be "2.0"`},
		{"jsonrpc a number", `{"jsonrpc":2,"id":1,"method":"ping"}`, "1", `Invalid Request: jsonrpc must be "2.0"`},
		{"no jsonrpc", `{"id":"x","method":"ping"}`, `"x"`, `Invalid Request: jsonrpc must be "2.0"`},
		{"no method", `{"jsonrpc":"2.0","id":2}`, "2", "Invalid Request: a message needs a method (request or notification) or a result or error (response)"},
		{"empty method", `{"jsonrpc":"2.0","id":3,"method":""}`, "3", "Invalid Request: method must not be empty"},
		{"method a number", `{"jsonrpc":"2.0","id":4,"method":7}`, "4", "Invalid Request: method must be a string"},
		{"id an object", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, "null", "Invalid Request: id must be a string or a number"},
		{"id a boolean", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, "null", "Invalid Request: id must be a string or a number"},
		{"id an array", `{"jsonrpc":"2.0","id":[1],"method":"ping"}`, "null", "Invalid Request: id must be a string or a number"},
		{"id null", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, "null", "Invalid Request: id must be a string or a number"},
		{"params a string", `{"jsonrpc":"2.0","id":5,"method":"ping","params":"x"}`, "5", "Invalid Request: params must be an object"},
		{"params a number", `{"jsonrpc":"2.0","id":6,"method":"tools/list","params":1}`, "6", "Invalid Request: params must be an object"},
		{"notification with params a string", `{"jsonrpc":"2.0","method":"notifications/initialized","params":"x"}`, "null", "Invalid Request: params must be an object"},
		{"a string", `"ping"`, "null", "Invalid Request: a message must be a JSON object"},
		{"a number", `42`, "null", "Invalid Request: a message must be a JSON object"},
		{"null", `null`, "null", "Invalid Request: a message must be a JSON object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c.t = t
			c.send(tc.line)
			wantError(t, c.recvResponse(tc.id), rt.CodeInvalidRequest, tc.message, "")
			jsonEqual(t, "ping", c.result("after", "ping", nil), `{}`)
		})
	}
	c.t = t
}

func TestMethodNotFound(t *testing.T) {
	srv := rttest.NewServer()
	srv.AddTool(rttest.EchoTool)
	c := start(t, srv)
	c.initialize("2025-06-18")
	for i, method := range []string{"resources/list", "prompts/get", "notifications/initialized", "Ping", "tools/call/x"} {
		wantError(t, c.call(i, method, nil), rt.CodeMethodNotFound, "Method not found: "+method, supported)
	}
}

func TestNotificationsAreNotAnswered(t *testing.T) {
	srv := rttest.NewServer()
	srv.AddTool(rttest.EchoTool)
	c := start(t, srv)
	c.initialize("2025-11-25")
	for _, line := range []string{
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":12345,"reason":"none in flight"}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled"}`,
		`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`,
		`{"jsonrpc":"2.0","method":"notifications/no-such-thing","params":{"x":[1,2]}}`,
		`{"jsonrpc":"2.0","method":"ping"}`,
		`{"jsonrpc":"2.0","method":"tools/list"}`,
		// A response to a request the server never sent.
		`{"jsonrpc":"2.0","id":99,"result":{}}`,
		`{"jsonrpc":"2.0","id":98,"error":{"code":1,"message":"x"}}`,
		// Blank lines.
		``,
		"  \t",
	} {
		c.send(line)
	}
	// Messages are handled in order, so an answer to any of them would come
	// before the ping's.
	jsonEqual(t, "ping", c.result("last", "ping", nil), `{}`)
	if rest := c.finish(); len(rest) > 0 {
		t.Errorf("notifications were answered:\n%s", lines(rest))
	}
}

// batchIDs returns the ids of the responses of a batch, sorted, and the
// responses by id.
func batchResponses(t *testing.T, raw []byte) ([]string, map[string]*response) {
	t.Helper()
	var elems []json.RawMessage
	if err := json.Unmarshal(raw, &elems); err != nil {
		t.Fatalf("want a batch response, got %s", raw)
	}
	byID := map[string]*response{}
	var ids []string
	for _, e := range elems {
		r := &response{raw: e}
		if err := json.Unmarshal(e, r); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, string(r.ID))
		byID[string(r.ID)] = r
	}
	slices.Sort(ids)
	return ids, byID
}

func TestBatch(t *testing.T) {
	srv := rttest.NewServer()
	srv.AddTool(rttest.EchoTool)
	c := start(t, srv)
	c.initialize("2025-03-26")

	t.Run("requests and a notification", func(t *testing.T) {
		c.t = t
		c.send(`[{"jsonrpc":"2.0","id":1,"method":"ping"},` +
			`{"jsonrpc":"2.0","id":"two","method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}},` +
			`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":77}},` +
			`{"jsonrpc":"2.0","id":3,"method":"tools/list"},` +
			`{"jsonrpc":"2.0","id":4,"method":"nope"}]`)
		ids, byID := batchResponses(t, c.recv())
		if want := []string{`"two"`, "1", "3", "4"}; !slices.Equal(ids, want) {
			t.Fatalf("batch response ids %q, want %q", ids, want)
		}
		jsonEqual(t, "ping", byID["1"].Result, `{}`)
		jsonEqual(t, "echo", byID[`"two"`].Result, `{"content":[{"type":"text","text":"hi"}]}`)
		jsonEqual(t, "tools/list", byID["3"].Result, `{"tools":[{"name":"echo","description":"Echoes text.","inputSchema":`+string(rttest.EchoTool.InputSchema)+`}]}`)
		wantError(t, byID["4"], rt.CodeMethodNotFound, "Method not found: nope", supported)
	})
	t.Run("only notifications", func(t *testing.T) {
		c.t = t
		c.send(`[{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","method":"notifications/x"}]`)
		jsonEqual(t, "ping", c.result(5, "ping", nil), `{}`)
	})
	t.Run("empty", func(t *testing.T) {
		c.t = t
		c.send(`[]`)
		wantError(t, c.recvResponse("null"), rt.CodeInvalidRequest, "Invalid Request: empty batch", "")
	})
	t.Run("empty with spaces", func(t *testing.T) {
		c.t = t
		c.send(` [ ] `)
		wantError(t, c.recvResponse("null"), rt.CodeInvalidRequest, "Invalid Request: empty batch", "")
	})
	t.Run("initialize inside", func(t *testing.T) {
		c.t = t
		c.send(`[{"jsonrpc":"2.0","id":6,"method":"initialize","params":{"protocolVersion":"2025-03-26"}},{"jsonrpc":"2.0","id":7,"method":"ping"}]`)
		ids, byID := batchResponses(t, c.recv())
		if want := []string{"6", "7"}; !slices.Equal(ids, want) {
			t.Fatalf("batch response ids %q, want %q", ids, want)
		}
		wantError(t, byID["6"], rt.CodeInvalidRequest, "Invalid Request: initialize must not be part of a batch", "")
		jsonEqual(t, "ping", byID["7"].Result, `{}`)
	})
	t.Run("invalid elements", func(t *testing.T) {
		c.t = t
		c.send(`[1,{"jsonrpc":"1.0","id":8,"method":"ping"},{"jsonrpc":"2.0","id":9,"method":"ping"}]`)
		ids, byID := batchResponses(t, c.recv())
		if want := []string{"8", "9", "null"}; !slices.Equal(ids, want) {
			t.Fatalf("batch response ids %q, want %q", ids, want)
		}
		wantError(t, byID["null"], rt.CodeInvalidRequest, "Invalid Request: a message must be a JSON object", "")
		wantError(t, byID["8"], rt.CodeInvalidRequest, `Invalid Request: jsonrpc must be "2.0"`, "")
		jsonEqual(t, "ping", byID["9"].Result, `{}`)
	})
	t.Run("nested batch", func(t *testing.T) {
		c.t = t
		c.send(`[[{"jsonrpc":"2.0","id":10,"method":"ping"}]]`)
		ids, byID := batchResponses(t, c.recv())
		if want := []string{"null"}; !slices.Equal(ids, want) {
			t.Fatalf("batch response ids %q, want %q", ids, want)
		}
		wantError(t, byID["null"], rt.CodeInvalidRequest, "Invalid Request: a message must be a JSON object", "")
	})
	c.t = t
}

func TestBatchRejected(t *testing.T) {
	const batch = `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"tools/list"}]`
	for _, tc := range []struct {
		rev, message string
	}{
		{"", "Invalid Request: JSON-RPC batches are not supported before initialize"},
		{"2024-11-05", "Invalid Request: JSON-RPC batches are not supported in protocol revision 2024-11-05"},
		{"2025-06-18", "Invalid Request: JSON-RPC batches are not supported in protocol revision 2025-06-18"},
		{"2025-11-25", "Invalid Request: JSON-RPC batches are not supported in protocol revision 2025-11-25"},
	} {
		t.Run("revision "+tc.rev, func(t *testing.T) {
			srv := rttest.NewServer()
			srv.AddTool(rttest.EchoTool)
			c := start(t, srv)
			if tc.rev != "" {
				c.initialize(tc.rev)
			}
			for _, line := range []string{batch, `[]`, `[{"jsonrpc":"2.0","method":"notifications/initialized"}]`} {
				c.send(line)
				wantError(t, c.recvResponse("null"), rt.CodeInvalidRequest, tc.message, "")
			}
			if tc.rev == "" {
				// An initialize inside a batch does not initialize.
				c.send(`[{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-03-26"}}]`)
				wantError(t, c.recvResponse("null"), rt.CodeInvalidRequest, tc.message, "")
				wantError(t, c.call(4, "tools/list", nil), rt.CodeInvalidRequest, "Invalid Request: the session is not initialized; send initialize first", "")
			}
			jsonEqual(t, "ping", c.result(5, "ping", nil), `{}`)
		})
	}
}

func TestMaxMessageSize(t *testing.T) {
	// pingOfSize returns a ping request of exactly n bytes.
	pingOfSize := func(id, n int) string {
		head := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping","params":{"_meta":{"pad":"`, id)
		const tail = `"}}}`
		return head + strings.Repeat("x", n-len(head)-len(tail)) + tail
	}
	for _, tc := range []struct {
		name     string
		max, len int
		ok       bool
	}{
		{"small limit, over", 256, 300, false},
		{"small limit, one over", 256, 257, false},
		{"small limit, at", 256, 256, true},
		{"small limit, under", 256, 100, true},
		{"limit beyond the read buffer, over", 100 << 10, 150 << 10, false},
		{"limit beyond the read buffer, one over", 100 << 10, 100<<10 + 1, false},
		{"limit beyond the read buffer, at", 100 << 10, 100 << 10, true},
		{"limit beyond the read buffer, long line under", 100 << 10, 90 << 10, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := rttest.NewServer(rt.WithMaxMessageSize(tc.max))
			srv.AddTool(rttest.EchoTool)
			c := start(t, srv)
			line := pingOfSize(1, tc.len)
			if len(line) != tc.len {
				t.Fatalf("built a line of %d bytes, want %d", len(line), tc.len)
			}
			c.send(line)
			if tc.ok {
				jsonEqual(t, "ping", c.recvResponse("1").Result, `{}`)
			} else {
				wantError(t, c.recvResponse("null"), rt.CodeInvalidRequest, fmt.Sprintf("Invalid Request: message larger than %d bytes", tc.max), "")
			}
			// The next line is served.
			jsonEqual(t, "ping", c.result(2, "ping", nil), `{}`)
			// Also when the large line ends the input without a newline.
			c.tr.Client([]byte(pingOfSize(3, tc.len)))
			c.sendRaw([]byte(pingOfSize(3, tc.len)))
			rest := c.finish()
			if len(rest) != 1 {
				t.Fatalf("after the last line: %d messages, want 1:\n%s", len(rest), lines(rest))
			}
			r := c.decode(rest[0])
			if tc.ok {
				if string(r.ID) != "3" || r.Error != nil {
					t.Errorf("last line: got %s, want the ping's result", rest[0])
				}
			} else {
				wantError(t, r, rt.CodeInvalidRequest, fmt.Sprintf("Invalid Request: message larger than %d bytes", tc.max), "")
			}
		})
	}
}

func TestErrorValue(t *testing.T) {
	for _, tc := range []struct {
		err      *rt.Error
		text     string
		dataJSON string
	}{
		{rt.NewError(-32001, "quota", map[string]int{"retryAfter": 5}), "jsonrpc error -32001: quota", `{"retryAfter":5}`},
		{rt.NewError(rt.CodeInvalidParams, "bad", nil), "jsonrpc error -32602: bad", ``},
		{rt.NewError(1, "unencodable", func() {}), "jsonrpc error 1: unencodable", ``},
	} {
		if got := tc.err.Error(); got != tc.text {
			t.Errorf("Error() = %q, want %q", got, tc.text)
		}
		if string(tc.err.Data) != tc.dataJSON {
			t.Errorf("%s: Data = %s, want %s", tc.text, tc.err.Data, tc.dataJSON)
		}
		var target *rt.Error
		if !errors.As(fmt.Errorf("wrapped: %w", tc.err), &target) || target != tc.err {
			t.Errorf("%s: errors.As failed", tc.text)
		}
	}
}
