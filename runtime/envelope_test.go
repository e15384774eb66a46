package runtime

import (
	"bytes"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// envelopeCases are messages; common says whether parseCommon reads them.
var envelopeCases = []struct {
	msg    string
	common bool
}{
	{`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search_files","arguments":{"pattern":"*.go","limit":10,"recursive":true}}}`, true},
	{` { "method" : "tools/call" , "params" : { "name" : "a" } , "id" : "req-1" , "jsonrpc" : "2.0" } `, true},
	{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, true},
	{`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3,"reason":"x"}}`, true},
	{`{"jsonrpc":"2.0","id":-12,"method":"ping"}`, true},
	{`{"jsonrpc":"2.0","id":0,"method":"custom/method","params":{}}`, true},
	{`{"jsonrpc":"2.0","id":"","method":"ping"}`, true},
	{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a\u0062","arguments":{"s":"\"q\" \\ \u00e9"}}}`, true},
	// Left to the decoder.
	{`{"jsonrpc":"2.0","id":1,"result":{}}`, false},
	{`{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m"}}`, false},
	{`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, false},
	{`{"jsonrpc":"2.0","id":1e3,"method":"ping"}`, false},
	{`{"jsonrpc":"2.0","id":01,"method":"ping"}`, false},
	{`{"jsonrpc":"2.0","id":-,"method":"ping"}`, false},
	{`{"jsonrpc":"2.0","id":null,"method":"ping"}`, false},
	{`{"jsonrpc":"2.0","id":"a\"b","method":"ping"}`, false},
	{`{"jsonrpc":"2.0","id":"é","method":"ping"}`, false},
	{`{"jsonrpc":"2.0","id":1,"method":"ping","id":2}`, false},
	{`{"jsonrpc":"2.0","id":1,"method":""}`, false},
	{`{"jsonrpc":"2.0","id":1,"method":"p\u0069ng"}`, false},
	{`{"jsonrpc":"2.0","id":1,"method":5}`, false},
	{`{"jsonrpc":"1.0","id":1,"method":"ping"}`, false},
	{`{"jsonrpc":"2.0 ","id":1,"method":"ping"}`, false},
	{`{"id":1,"method":"ping"}`, false},
	{`{"jsonrpc":"2.0","id":1}`, false},
	{`{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}`, false},
	{`{"jsonrpc":"2.0","id":1,"method":"ping","params":null}`, false},
	{`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":tru}}`, false},
	{`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":1}`, false},
	{`{"jsonrpc":"2.0","id":1,"method":"ping","extra":1}`, false},
	{`{"jsonrpc":"2.0","id":1,"method":"ping",}`, false},
	{`{"jsonrpc":"2.0","id":1,"method":"ping"} x`, false},
	{`{"jsonrpc":"2.0","id":1,"method":"ping"}}`, false},
	{`{"jsonrpc":"2.0","id":12x,"method":"ping"}`, false},
	{`{"jsonrpc":"2.0","id":1 "method":"ping"}`, false},
	{`{"jsonrpc":"2.0","i\u0064":1,"method":"ping"}`, false},
	{`{"jsonrpc":"2.0","id":1,"method":"pi` + "\t" + `ng"}`, false},
	{`{}`, false},
	{`[]`, false},
	{``, false},
	{`{"jsonrpc":"2.0","id":1,"method":"ping"`, false},
}

// TestParseCommon checks that the scan of the common envelope reads the
// messages it is meant for, gives up on the others, and reads what it
// accepts as the decoder reads it.
func TestParseCommon(t *testing.T) {
	for _, tc := range envelopeCases {
		var m message
		got := parseCommon(new(mcpimpl.Decoder), []byte(tc.msg), &m)
		if got != tc.common {
			t.Errorf("%s: read by the scan: %v, want %v", tc.msg, got, tc.common)
		}
		if got {
			checkAsDecoded(t, []byte(tc.msg), &m)
		}
	}
}

// checkAsDecoded fails t unless the decoder reads data without error as m.
func checkAsDecoded(t *testing.T, data []byte, m *message) {
	t.Helper()
	var want message
	if err := parseDecoded(new(mcpimpl.Decoder), data, &want); err != nil {
		t.Errorf("%s: read by the scan, where the decoder reports %v", data, err)
		return
	}
	same := func(a, b []byte) bool { return bytes.Equal(a, b) && (a == nil) == (b == nil) }
	if !same(m.id, want.id) || m.method != want.method || !same(m.params, want.params) || m.tool != want.tool || m.result != nil || m.err != nil {
		t.Errorf("%s: scanned id %s, method %q, params %s, tool %+v; decoded id %s, method %q, params %s, tool %+v",
			data, m.id, m.method, m.params, m.tool, want.id, want.method, want.params, want.tool)
	}
	a, b := m.meta, want.meta
	if a.state != b.state || a.version != b.version || a.hasVersion != b.hasVersion || !same(a.caps, b.caps) || !same(a.info, b.info) ||
		a.level != b.level || a.declared != b.declared || a.capsRead != b.capsRead || a.retry != b.retry {
		t.Errorf("%s: scanned _meta %+v; decoded %+v", data, a, b)
	}
}

// FuzzParseCommon checks on any input that what the scan of the common
// envelope accepts, the decoder reads alike.
func FuzzParseCommon(f *testing.F) {
	for _, tc := range envelopeCases {
		f.Add([]byte(tc.msg))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var m message
		if parseCommon(new(mcpimpl.Decoder), data, &m) {
			checkAsDecoded(t, data, &m)
		}
	})
}
