package runtime

import (
	"bytes"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// TestMeta26 checks that the _meta of a request read by the message's
// parse is what encoding/json reads, and that what the parse does not take
// is left to encoding/json.
func TestMeta26(t *testing.T) {
	const (
		v    = `"io.modelcontextprotocol/protocolVersion":"2026-07-28"`
		caps = `"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}}`
		info = `"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1.0","title":"C \"one\"","icons":[]}`
		lvl  = `"io.modelcontextprotocol/logLevel":"warning"`
	)
	for _, tc := range []struct {
		name, params string
		state        int // metaRead, metaOdd (left to encoding/json) or metaNone
	}{
		{"all", `{"name":"t","_meta":{` + v + `,` + caps + `,` + info + `,` + lvl + `},"arguments":{"_meta":1}}`, metaRead},
		{"spaced", " {\n \"_meta\" : { " + v + " , " + caps + " } } ", metaRead},
		{"version only", `{"_meta":{` + v + `}}`, metaRead},
		{"other version", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"1999-01-01"}}`, metaRead},
		{"no _meta", `{"name":"t"}`, metaNone},
		{"version in arguments", `{"name":"t","arguments":{"_meta":{` + v + `}}}`, metaNone},
		{"null caps", `{"_meta":{` + v + `,"io.modelcontextprotocol/clientCapabilities":null}}`, metaRead},
		{"repeated version", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"x",` + v + `}}`, metaRead},
		{"escaped key", `{"_meta":{"io.modelcontextprotocol/protocol\u0056ersion":"2026-07-28"}}`, metaRead},
		{"escaped _meta", `{"\u005fmeta":{` + v + `}}`, metaRead},
		{"info in capitals", `{"_meta":{"io.modelcontextprotocol/clientInfo":{"Name":"c"}}}`, metaRead},
		{"info name a number", `{"_meta":{"io.modelcontextprotocol/clientInfo":{"name":1}}}`, metaRead},
		{"info null", `{"_meta":{"io.modelcontextprotocol/clientInfo":null}}`, metaRead},

		{"not an object", `[1]`, metaNone},
		{"_meta in capitals", `{"_META":{` + v + `}}`, metaOdd},
		{"_meta twice", `{"_meta":{},"_meta":{` + v + `}}`, metaOdd},
		{"_meta null", `{"_meta":null}`, metaOdd},
		{"version a number", `{"_meta":{"io.modelcontextprotocol/protocolVersion":2026}}`, metaOdd},
		{"version null", `{"_meta":{"io.modelcontextprotocol/protocolVersion":null}}`, metaOdd},
		{"level a number", `{"_meta":{` + v + `,"io.modelcontextprotocol/logLevel":3}}`, metaOdd},
		{"unknown level", `{"_meta":{` + v + `,"io.modelcontextprotocol/logLevel":"loud"}}`, metaOdd},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":` + tc.params + `}`)
			var d mcpimpl.Decoder
			var m message
			if err := parseMessage(&d, msg, &m); err != nil {
				t.Fatalf("parse: %v", err.Message)
			}
			if int(m.meta.state) != tc.state {
				t.Fatalf("state %d, want %d", m.meta.state, tc.state)
			}
			got, gotErr := meta26Of(&m)
			if tc.params[0] == '[' {
				if got.hasVersion || gotErr != nil {
					t.Errorf("params that are not an object read as %+v, %v", got, gotErr)
				}
				return
			}
			want, err := decodeMeta26(m.params)
			if tc.state == metaOdd {
				if gotErr == nil && err != nil || gotErr != nil && (err == nil || gotErr.Message != err.Message) {
					t.Errorf("error %v, want %v", gotErr, err)
				}
			} else if err != nil {
				t.Fatalf("encoding/json fails where the parse did not: %v", err)
			}
			if got.version != want.version || got.hasVersion != want.hasVersion || !bytes.Equal(got.info, want.info) || got.level != want.level || !bytes.Equal(got.caps, want.caps) {
				t.Errorf("read %+v\nwant %+v", got, want)
			}
		})
	}
}

// TestMeta26Malformed checks that params that are not JSON fail the
// message's parse, _meta or not.
func TestMeta26Malformed(t *testing.T) {
	for _, params := range []string{
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"name":}`,
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}} {}`,
		`{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"roots":}}}`,
	} {
		var d mcpimpl.Decoder
		var m message
		if err := parseMessage(&d, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":`+params+`}`), &m); err == nil || err.Code != CodeParseError {
			t.Errorf("params %s: error %v, want a parse error", params, err)
		}
	}
}

// FuzzMeta26 checks on any params that the _meta the parse of a message
// reads is what encoding/json reads, and that the capabilities it reads
// in passing are those parseClientCapabilities reads.
func FuzzMeta26(f *testing.F) {
	f.Add(`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true}},"io.modelcontextprotocol/clientInfo":{"name":"c"},"io.modelcontextprotocol/logLevel":"info"},"name":"t"}`)
	f.Add(`{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"sampling":{"tools":{}},"Sampling":null}},"requestState":"x"}`)
	f.Fuzz(func(t *testing.T, params string) {
		msg := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":` + params + `}`)
		var d mcpimpl.Decoder
		var m message
		if parseMessage(&d, msg, &m) != nil || m.meta.state != metaRead {
			return
		}
		got := m.meta
		want, err := decodeMeta26(m.params)
		if err != nil {
			t.Fatalf("encoding/json fails where the parse did not: %v", err.Message)
		}
		if got.version != want.version || got.hasVersion != want.hasVersion || !bytes.Equal(got.info, want.info) || got.level != want.level || !bytes.Equal(got.caps, want.caps) {
			t.Errorf("read %+v\nwant %+v", got, want)
		}
		if got.capsRead {
			if q := capsDeclared(got.caps); got.declared != q {
				t.Errorf("capabilities %s: read %+v, want %+v", got.caps, got.declared, q)
			}
		}
	})
}
