package mcpimpl_test

import (
	"testing"

	rt "github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// TestDecoderQuoted checks the reads of ",string" fields and integer map
// keys: values, "null" as "leave as is", and the messages.
func TestDecoderQuoted(t *testing.T) {
	tests := []struct {
		name string
		read func(d *rt.Decoder, text string) (any, bool)
		text string
		want any
		ok   bool
		err  string // "" when no violation is recorded
	}{
		{"int", func(d *rt.Decoder, s string) (any, bool) { return d.QuotedInt(s, 64) }, "-42", int64(-42), true, ""},
		{"int null", func(d *rt.Decoder, s string) (any, bool) { return d.QuotedInt(s, 64) }, "null", nil, false, ""},
		{"int plus", func(d *rt.Decoder, s string) (any, bool) { return d.QuotedInt(s, 64) }, "+1", nil, false, `v: must be a string holding an integer, got "x"`},
		{"int8 over", func(d *rt.Decoder, s string) (any, bool) { return d.QuotedInt(s, 8) }, "128", nil, false, `v: must be a string holding an integer ≤ 127, got "x"`},
		{"int8 under", func(d *rt.Decoder, s string) (any, bool) { return d.QuotedInt(s, 8) }, "-129", nil, false, `v: must be a string holding an integer ≥ -128, got "x"`},
		{"uint", func(d *rt.Decoder, s string) (any, bool) { return d.QuotedUint(s, 64) }, "18446744073709551615", uint64(18446744073709551615), true, ""},
		{"uint negative", func(d *rt.Decoder, s string) (any, bool) { return d.QuotedUint(s, 64) }, "-1", nil, false, `v: must be a string holding a non-negative integer, got "x"`},
		{"float32", func(d *rt.Decoder, s string) (any, bool) { return d.QuotedFloat(s, 32) }, "0.8", 0.8, true, ""},
		{"float32 over", func(d *rt.Decoder, s string) (any, bool) { return d.QuotedFloat(s, 32) }, "1e39", nil, false, `v: must be a string holding a number in the range of float32, got "x"`},
		{"float Inf", func(d *rt.Decoder, s string) (any, bool) { return d.QuotedFloat(s, 64) }, "-Inf", nil, false, `v: must be a string holding a number, got "x"`},
		{"bool", func(d *rt.Decoder, s string) (any, bool) { return d.QuotedBool(s) }, "true", true, true, ""},
		{"bool yes", func(d *rt.Decoder, s string) (any, bool) { return d.QuotedBool(s) }, "yes", nil, false, `v: must be a string holding true or false, got "x"`},
		{"string", func(d *rt.Decoder, s string) (any, bool) { return d.QuotedString(s) }, `"a\"b"`, `a"b`, true, ""},
		{"string bare", func(d *rt.Decoder, s string) (any, bool) { return d.QuotedString(s) }, `ab`, nil, false, `v: must be a string holding a JSON string, got "x"`},
		{"string trailing", func(d *rt.Decoder, s string) (any, bool) { return d.QuotedString(s) }, `"a" "b"`, nil, false, `v: must be a string holding a JSON string, got "x"`},
		{"int key", func(d *rt.Decoder, s string) (any, bool) { return d.IntKey([]byte(s), 16) }, "-300", int64(-300), true, ""},
		{"int key over", func(d *rt.Decoder, s string) (any, bool) { return d.IntKey([]byte(s), 8) }, "300", nil, false, "v: property name must be an integer from -128 to 127"},
		{"uint key", func(d *rt.Decoder, s string) (any, bool) { return d.UintKey([]byte(s), 8) }, "255", uint64(255), true, ""},
		{"uint key sign", func(d *rt.Decoder, s string) (any, bool) { return d.UintKey([]byte(s), 8) }, "-0", nil, false, "v: property name must be an integer from 0 to 255"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := rt.NewDecoder([]byte(`"x"`), "v")
			if _, ok := d.String(); !ok {
				t.Fatal("String failed")
			}
			got, ok := tc.read(d, tc.text)
			if ok != tc.ok || (ok && got != tc.want) {
				t.Errorf("got %#v, %v; want %#v, %v", got, ok, tc.want, tc.ok)
			}
			err := d.Err()
			switch {
			case tc.err == "" && err != nil:
				t.Errorf("unexpected error %v", err)
			case tc.err != "" && (err == nil || err.Error() != "invalid arguments: "+tc.err):
				t.Errorf("error %v, want %s", err, tc.err)
			}
		})
	}
}
