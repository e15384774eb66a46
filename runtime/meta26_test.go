package runtime

import (
	"bytes"
	"testing"
)

// TestScanMeta26 checks that the _meta of a request read with the
// runtime's decoder is what encoding/json reads, and that what the scan
// does not take is left to encoding/json.
func TestScanMeta26(t *testing.T) {
	const (
		v    = `"io.modelcontextprotocol/protocolVersion":"2026-07-28"`
		caps = `"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}}`
		info = `"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1.0","title":"C \"one\"","icons":[]}`
		lvl  = `"io.modelcontextprotocol/logLevel":"warning"`
	)
	for _, tc := range []struct {
		name, params string
		scanned      bool // false: left to encoding/json
	}{
		{"all", `{"name":"t","_meta":{` + v + `,` + caps + `,` + info + `,` + lvl + `},"arguments":{"_meta":1}}`, true},
		{"spaced", " {\n \"_meta\" : { " + v + " , " + caps + " } } ", true},
		{"version only", `{"_meta":{` + v + `}}`, true},
		{"other version", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"1999-01-01"}}`, true},
		{"no _meta", `{"name":"t"}`, true},
		{"null caps", `{"_meta":{` + v + `,"io.modelcontextprotocol/clientCapabilities":null}}`, true},
		{"repeated version", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"x",` + v + `}}`, true},
		{"escaped key", `{"_meta":{"io.modelcontextprotocol/protocol\u0056ersion":"2026-07-28"}}`, true},

		{"not an object", `[1]`, false},
		{"_meta in capitals", `{"_META":{` + v + `}}`, false},
		{"_meta twice", `{"_meta":{},"_meta":{` + v + `}}`, false},
		{"_meta null", `{"_meta":null}`, false},
		{"version a number", `{"_meta":{"io.modelcontextprotocol/protocolVersion":2026}}`, false},
		{"version null", `{"_meta":{"io.modelcontextprotocol/protocolVersion":null}}`, false},
		{"unknown level", `{"_meta":{` + v + `,"io.modelcontextprotocol/logLevel":"loud"}}`, false},
		{"info in capitals", `{"_meta":{"io.modelcontextprotocol/clientInfo":{"Name":"c"}}}`, true},
		{"info name a number", `{"_meta":{"io.modelcontextprotocol/clientInfo":{"name":1}}}`, true},
		{"info null", `{"_meta":{"io.modelcontextprotocol/clientInfo":null}}`, true},
		{"malformed", `{"_meta":{` + v + `},"name":}`, false},
		{"trailing", `{"_meta":{` + v + `}} {}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := scanMeta26([]byte(tc.params))
			if ok != tc.scanned {
				t.Fatalf("scanned %v, want %v", ok, tc.scanned)
			}
			if !ok {
				return
			}
			want, err := decodeMeta26([]byte(tc.params))
			if err != nil {
				t.Fatalf("encoding/json fails where the scan did not: %v", err)
			}
			if got.version != want.version || got.hasVersion != want.hasVersion || !bytes.Equal(got.info, want.info) || got.level != want.level || !bytes.Equal(got.caps, want.caps) {
				t.Errorf("scanned %+v\nwant    %+v", got, want)
			}
		})
	}
}
