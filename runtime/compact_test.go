package runtime

import (
	"errors"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
	"testing"
)

// TestCompactJSON holds schema registration to its contract: a compact
// schema is returned as it is (the same bytes), an indented one compacted,
// anything that is not exactly one JSON value rejected.
func TestCompactJSON(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		same           bool // the input's own bytes are returned
		bad            bool
	}{
		{name: "compact", in: `{"type":"object","properties":{"a":{"type":"string"}}}`, want: `{"type":"object","properties":{"a":{"type":"string"}}}`, same: true},
		{name: "one line with spaces", in: `{"type": "object"}`, want: `{"type": "object"}`, same: true},
		{name: "indented", in: "{\n  \"type\": \"object\",\n  \"required\": [\n    \"a\"\n  ]\n}", want: `{"type":"object","required":["a"]}`},
		{name: "escapes kept", in: `{"pattern":"^\\d+\u00e9$"}`, want: `{"pattern":"^\\d+\u00e9$"}`, same: true},
		{name: "surrounding space", in: ` {"type":"object"} `, want: ` {"type":"object"} `, same: true},
		{name: "trailing value", in: `{"type":"object"}{}`, bad: true},
		{name: "trailing garbage", in: `{"type":"object"} x`, bad: true},
		{name: "unclosed", in: `{"type":"object"`, bad: true},
		{name: "bad literal", in: `{"a":tru}`, bad: true},
		{name: "bad escape", in: `{"a":"\q"}`, bad: true},
		{name: "empty", in: ``, bad: true},
		{name: "indented and broken", in: "{\n\"a\": }", bad: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := []byte(tc.in)
			got, err := compactJSON(in)
			if tc.bad {
				if err == nil {
					t.Fatalf("compactJSON(%q) = %q, want an error", tc.in, got)
				}
				var se *mcpimpl.SyntaxError
				if len(tc.in) > 0 && !containsNewline(tc.in) && !errors.As(err, &se) {
					t.Errorf("error %v is not a *SyntaxError", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
			if tc.same && len(in) > 0 && &got[0] != &in[0] {
				t.Errorf("a compact schema was copied")
			}
		})
	}
}

func containsNewline(s string) bool {
	for i := range len(s) {
		if s[i] == '\n' || s[i] == '\r' {
			return true
		}
	}
	return false
}
