package runtime

import (
	"bytes"
	"testing"
)

// TestScanToolParams checks that the quick scan of a tools/call's params
// finds what the decoder finds, and that it leaves to the decoder what it
// cannot read: escapes in a member name or the tool name, a name that is
// not a string, params that are not an object.
func TestScanToolParams(t *testing.T) {
	for _, tc := range []struct {
		params string
		quick  bool // the scan applies
	}{
		{`{"name":"search_files","arguments":{"pattern":"*.go","limit":5,"recursive":true}}`, true},
		{` { "name" : "a" , "arguments" : { "x" : [1, {"y": "}]\""}, "z"] } } `, true},
		{`{"arguments":{"s":"a \"quoted\" \\ word"},"name":"echo"}`, true},
		{`{"name":"a","arguments":null}`, true},
		{`{"name":"a","arguments":{"k":1},"arguments":null}`, true},
		{`{"name":"a","arguments":{"k":1},"arguments":{"k":2}}`, true},
		{`{"name":"a","name":"b"}`, true},
		{`{"name":"","arguments":{}}`, true},
		{`{"arguments":{"a":1}}`, true},
		{`{}`, true},
		{`{"name":"a","arguments":"text"}`, true},
		{`{"name":"a","arguments":42}`, true},
		{`{"name":"a","arguments":[1,2]}`, true},
		{`{"name":"a","_meta":{"progressToken":"t\\"},"arguments":{}}`, true},
		{`{"name":"a","other":-1.5e3,"flag":false,"none":null}`, true},
		{`{"name":"a\u0062","arguments":{}}`, false},
		{`{"n\u0061me":"a","arguments":{}}`, false},
		{`{"name":"tab\there"}`, false},
		{`{"name":42}`, false},
		{`{"name":null}`, false},
		{`[]`, false},
		{`"name"`, false},
	} {
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
