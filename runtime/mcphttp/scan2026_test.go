package mcphttp

import (
	"bytes"
	"testing"
)

// TestScan2026 checks that what scan2026 reads of a 2026-07-28 POST is
// what parseMessage and decodeFields2026 read with encoding/json, and
// that what it does not take is left to them.
func TestScan2026(t *testing.T) {
	const (
		v    = `"io.modelcontextprotocol/protocolVersion":"2026-07-28"`
		meta = `"_meta":{` + v + `,"io.modelcontextprotocol/clientCapabilities":{}}`
	)
	for _, tc := range []struct {
		name, body string
		scanned    bool
	}{
		{"call", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + meta + `,"name":"search","arguments":{"name":"x"}}}`, true},
		{"read", `{"jsonrpc":"2.0","id":"r","method":"resources/read","params":{"uri":"file:///a b",` + meta + `}}`, true},
		{"spaced", " {\n\"id\" : 2 , \"method\":\"prompts/get\", \"params\" : { \"name\" : \"p\" } , \"jsonrpc\" : \"2.0\" } ", true},
		{"notification", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`, true},
		{"other members", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"c"},"extra":[1]}`, true},
		{"repeated name", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","name":"b"}}`, true},
		{"repeated _meta", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{` + v + `},"_meta":{}}}`, true},
		{"version elsewhere", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{` + v + `}}}`, true},

		{"method in capitals", `{"jsonrpc":"2.0","id":1,"Method":"tools/call","params":{}}`, false},
		{"name in capitals", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"NAME":"a"}}`, false},
		{"version key in capitals", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"IO.modelcontextprotocol/protocolVersion":"x"}}}`, false},
		{"escaped name", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a\u0062"}}`, false},
		{"escaped method", `{"jsonrpc":"2.0","id":1,"method":"tools\/call","params":{}}`, false},
		{"name not UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"a\xff\"}}", false},
		{"name null", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":null}}`, false},
		{"name a number", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":1}}`, false},
		{"_meta null", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":null}}`, false},
		{"version a number", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":1}}}`, false},
		{"params an array", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[1]}`, false},
		{"params null", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":null}`, false},
		{"id null", `{"jsonrpc":"2.0","id":null,"method":"tools/call"}`, false},
		{"id an object", `{"jsonrpc":"2.0","id":{},"method":"tools/call"}`, false},
		{"empty method", `{"jsonrpc":"2.0","id":1,"method":""}`, false},
		{"old jsonrpc", `{"jsonrpc":"1.0","id":1,"method":"tools/call"}`, false},
		{"no jsonrpc", `{"id":1,"method":"tools/call"}`, false},
		{"not an object", `[{"jsonrpc":"2.0"}]`, false},
		{"malformed", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":}}`, false},
		{"trailing", `{"jsonrpc":"2.0","id":1,"method":"tools/call"} {}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var m message
			var f fields2026
			if ok := scan2026([]byte(tc.body), "tools/call", &m, &f); ok != tc.scanned {
				t.Fatalf("scanned %v, want %v", ok, tc.scanned)
			} else if !ok {
				return
			}
			var want message
			if err := parseMessage([]byte(tc.body), &want); err != nil {
				t.Fatalf("encoding/json fails where the scan did not: %v", err.Message)
			}
			wf := decodeFields2026(want.params)
			if !bytes.Equal(m.id, want.id) || m.method != want.method || !bytes.Equal(m.params, want.params) {
				t.Errorf("envelope %s %q %s, want %s %q %s", m.id, m.method, m.params, want.id, want.method, want.params)
			}
			if f.ok != wf.ok || f.hasName != wf.hasName || f.hasURI != wf.hasURI || f.hasVersion != wf.hasVersion ||
				!bytes.Equal(f.name, wf.name) || !bytes.Equal(f.uri, wf.uri) || !bytes.Equal(f.version, wf.version) {
				t.Errorf("fields %+v, want %+v", f, wf)
			}
		})
	}
}

// FuzzScan2026 checks on any body that what scan2026 reads, when it reads
// it, is what encoding/json reads.
func FuzzScan2026(f *testing.F) {
	f.Add(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"name":"search"}}`)
	f.Add(`{"jsonrpc":"2.0","id":"x","method":"resources/read","params":{"uri":"file:///a","_meta":{},"_meta":{"x":1}}}`)
	f.Add("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"prompts/get\",\"params\":{\"name\":\"\xe2\x82\"}}")
	f.Fuzz(func(t *testing.T, body string) {
		var m message
		var fs fields2026
		if !scan2026([]byte(body), "tools/call", &m, &fs) {
			return
		}
		var want message
		if err := parseMessage([]byte(body), &want); err != nil {
			t.Fatalf("encoding/json fails where the scan did not: %v", err.Message)
		}
		wf := decodeFields2026(want.params)
		if !bytes.Equal(m.id, want.id) || m.method != want.method || !bytes.Equal(m.params, want.params) {
			t.Errorf("envelope %s %q %s, want %s %q %s", m.id, m.method, m.params, want.id, want.method, want.params)
		}
		if fs.ok != wf.ok || fs.hasName != wf.hasName || fs.hasURI != wf.hasURI || fs.hasVersion != wf.hasVersion ||
			!bytes.Equal(fs.name, wf.name) || !bytes.Equal(fs.uri, wf.uri) || !bytes.Equal(fs.version, wf.version) {
			t.Errorf("fields %+v, want %+v", fs, wf)
		}
	})
}
