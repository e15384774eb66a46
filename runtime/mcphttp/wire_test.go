package mcphttp

import (
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
)

// TestParseMessage reads the envelopes the handler routes by (initialize
// without a session, revision 2026-07-28) and refuses what the session
// core refuses, with the same codes.
func TestParseMessage(t *testing.T) {
	for _, tc := range []struct {
		msg        string
		code       int // 0: parses
		id, method string
		params     string
	}{
		{msg: `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"a":1}}`, id: `1`, method: "initialize", params: `{"a":1}`},
		{msg: `{"jsonrpc":"2.0","id":"x","method":"ping","params":null}`, id: `"x"`, method: "ping"},
		{msg: `{"jsonrpc":"2.0","method":"notifications/initialized"}`, method: "notifications/initialized"},
		{msg: `{"jsonrpc":"2.0","id":-2,"result":{}}`, id: `-2`},
		{msg: `{"jsonrpc":"2.0","id":1,"method":"x"`, code: runtime.CodeParseError},
		{msg: `not json`, code: runtime.CodeParseError},
		{msg: `"a string"`, code: runtime.CodeInvalidRequest},
		{msg: `{"jsonrpc":"2.0","id":{},"method":"x"}`, code: runtime.CodeInvalidRequest},
		{msg: `{"jsonrpc":"2.0","id":null,"method":"x"}`, code: runtime.CodeInvalidRequest},
		{msg: `{"jsonrpc":"1.0","id":1,"method":"x"}`, code: runtime.CodeInvalidRequest},
		{msg: `{"id":1,"method":"x"}`, code: runtime.CodeInvalidRequest},
		{msg: `{"jsonrpc":"2.0","id":1,"method":7}`, code: runtime.CodeInvalidRequest},
		{msg: `{"jsonrpc":"2.0","id":1,"method":""}`, code: runtime.CodeInvalidRequest},
		{msg: `{"jsonrpc":"2.0","id":1,"method":"x","params":5}`, code: runtime.CodeInvalidRequest},
	} {
		var m message
		err := parseMessage([]byte(tc.msg), &m)
		switch {
		case tc.code != 0 && (err == nil || err.Code != tc.code):
			t.Errorf("%s: error %v, want code %d", tc.msg, err, tc.code)
		case tc.code == 0 && err != nil:
			t.Errorf("%s: %v", tc.msg, err)
		case tc.code == 0 && (string(m.id) != tc.id || m.method != tc.method || string(m.params) != tc.params):
			t.Errorf("%s: id %s method %q params %s", tc.msg, m.id, m.method, m.params)
		}
	}
}
