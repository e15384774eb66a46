package runtime

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// toolParamsCases are tools/call params: quick says whether
// scanToolParams applies, found whether the message's parse finds the
// name and the arguments (readParams).
var toolParamsCases = []struct {
	params       string
	quick, found bool
}{
	{` { "name" : "a" , "arguments" : { "x" : [1, {"y": "}]\""}, "z"] } } `, true, true},
	{`{"arguments":{"s":"a \"quoted\" \\ word"},"name":"echo"}`, true, true},
	{`{"name":"a","arguments":null}`, true, true},
	{`{"name":"a","arguments":{"k":1},"arguments":null}`, true, true},
	{`{"name":"a","arguments":{"k":1},"arguments":{"k":2}}`, true, true},
	{`{"name":"a","name":"b"}`, true, true},
	{`{"name":"","arguments":{}}`, true, true},
	{`{"arguments":{"a":1}}`, true, true},
	{`{}`, true, true},
	{`{"name":"a","arguments":"text"}`, true, true},
	{`{"name":"a","arguments":42}`, true, true},
	{`{"name":"a","arguments":[1,2]}`, true, true},
	{`{"name":"a","_meta":{"progressToken":"t\\"},"arguments":{}}`, true, true},
	{`{"name":"a","other":-1.5e3,"flag":false,"none":null}`, true, true},
	{`{"name":"a\u0062","arguments":{}}`, false, false},
	{`{"n\u0061me":"a","arguments":{}}`, false, true},
	{`{"name":"tab\there"}`, false, false},
	{`{"name":42}`, false, false},
	{`{"name":null}`, false, false},
	{`[]`, false, false},
	{`"name"`, false, false},
}

// TestScanToolParams checks that the quick scan of a tools/call's params
// finds what the decoder finds, and that it leaves to the decoder what it
// cannot read: escapes in a member name or the tool name, a name that is
// not a string, params that are not an object.
func TestScanToolParams(t *testing.T) {
	for _, tc := range toolParamsCases {
		params := []byte(tc.params)
		req := &ToolRequest{}
		wantName, wantArgs, wantHas, err := decodeToolParams(&req.dec, params)
		name, args, has, ok := scanToolParams(params)
		if ok != tc.quick {
			t.Errorf("%s: the scan applies: %v, want %v", tc.params, ok, tc.quick)
			continue
		}
		if !ok {
			continue
		}
		if err != nil {
			t.Errorf("%s: the scan applies where the decoder reports %v", tc.params, err)
			continue
		}
		if has != wantHas || !bytes.Equal(name, wantName) || !bytes.Equal(args, wantArgs) || (args == nil) != (wantArgs == nil) {
			t.Errorf("%s: scanned name %q (%v), arguments %q; decoded name %q (%v), arguments %q", tc.params, name, has, args, wantName, wantHas, wantArgs)
		}
	}
}

// TestReadParams checks that the parse of a tools/call message finds the
// name and the arguments that the decoder finds in its params, with the
// method before or after the params, also in a copy of the params, and
// leaves to the decoder a name that is not a plain string.
func TestReadParams(t *testing.T) {
	for _, tc := range toolParamsCases {
		for _, msg := range []string{
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":` + tc.params + `}`,
			`{"params":` + tc.params + `,"id":1,"jsonrpc":"2.0","method":"tools/call"}`,
		} {
			var m message
			var d mcpimpl.Decoder
			if err := parseMessage(&d, []byte(msg), &m); err != nil {
				if p := strings.TrimSpace(tc.params); p[0] == '{' || p[0] == '[' {
					t.Errorf("%s: %v", msg, err)
				}
				continue // params that are not an object are an invalid request
			}
			if string(m.params) != strings.TrimSpace(tc.params) {
				t.Errorf("%s: params %s", msg, m.params)
			}
			if m.tool.found != tc.found {
				t.Errorf("%s: found %v, want %v", msg, m.tool.found, tc.found)
				continue
			}
			if !m.tool.found {
				continue
			}
			wantName, wantArgs, wantHas, err := decodeToolParams(new(mcpimpl.Decoder), m.params)
			if err != nil {
				t.Errorf("%s: found where the decoder reports %v", msg, err)
				continue
			}
			for _, params := range [][]byte{m.params, append([]byte(nil), m.params...)} {
				name, args, has := m.tool.in(params)
				if has != wantHas || !bytes.Equal(name, wantName) || !bytes.Equal(args, wantArgs) || (args == nil) != (wantArgs == nil) {
					t.Errorf("%s: found name %q (%v), arguments %q; decoded name %q (%v), arguments %q", msg, name, has, args, wantName, wantHas, wantArgs)
				}
			}
		}
	}
	// Params that are not valid JSON are not found, and the message is a
	// parse error.
	var m message
	if err := parseMessage(new(mcpimpl.Decoder), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":{"x":tru}}}`), &m); err == nil || err.Code != CodeParseError || m.tool.found {
		t.Errorf("invalid params: error %v, found %v; want a parse error, not found", err, m.tool.found)
	}
}
