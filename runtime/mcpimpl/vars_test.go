package mcpimpl_test

import (
	"fmt"
	"testing"

	rt "github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

func TestVarReaders(t *testing.T) {
	for _, tc := range []struct {
		read  func(d *rt.Decoder) (any, bool)
		value string // raw JSON
		want  any    // the value, or
		err   string // the violation
	}{
		{intVar(64), `"42"`, int64(42), ""},
		{intVar(64), `"-9223372036854775808"`, int64(-9223372036854775808), ""},
		{intVar(8), `"127"`, int64(127), ""},
		{intVar(8), `"128"`, nil, `v: must be an integer ≤ 127, got "128"`},
		{intVar(8), `"-129"`, nil, `v: must be an integer ≥ -128, got "-129"`},
		{intVar(64), `"4.5"`, nil, `v: must be an integer, got "4.5"`},
		{intVar(64), `"abc"`, nil, `v: must be an integer, got "abc"`},
		{intVar(64), `""`, nil, `v: must be an integer, got ""`},
		{intVar(64), `12`, nil, `v: must be a string, got 12`},
		{uintVar(16), `"65535"`, uint64(65535), ""},
		{uintVar(16), `"65536"`, nil, `v: must be an integer ≤ 65535, got "65536"`},
		{uintVar(64), `"-1"`, nil, `v: must be an integer ≥ 0, got "-1"`},
		{uintVar(64), `"-x"`, nil, `v: must be an integer, got "-x"`},
		{floatVar(64), `"2.5e3"`, 2500.0, ""},
		{floatVar(64), `"1e-400"`, 0.0, ""},
		{floatVar(32), `"1e39"`, nil, `v: must be a number ≤ 3.4028234663852886e+38, got "1e39"`},
		{floatVar(64), `"-1e309"`, nil, `v: must be a number ≥ -1.7976931348623157e+308, got "-1e309"`},
		{floatVar(64), `"NaN"`, nil, `v: must be a number, got "NaN"`},
		{floatVar(64), `"0x10"`, nil, `v: must be a number, got "0x10"`},
		{floatVar(64), `"1_000"`, nil, `v: must be a number, got "1_000"`},
		{boolVar, `"true"`, true, ""},
		{boolVar, `"false"`, false, ""},
		{boolVar, `"yes"`, nil, `v: must be "true" or "false", got "yes"`},
	} {
		d := rt.NewDecoder([]byte(`{"v":`+tc.value+`}`), "uri")
		var got any
		var ok bool
		if d.Object() {
			for {
				if _, more := d.Field(); !more {
					break
				}
				got, ok = tc.read(d)
			}
		}
		err := d.Err()
		if tc.err != "" {
			v, _ := err.(*rt.ValidationError)
			if v == nil || ok || len(v.Violations) != 1 || v.Violations[0] != tc.err {
				t.Errorf("%s: got %v, %v, err %v; want the violation %q", tc.value, got, ok, err, tc.err)
			}
			continue
		}
		if err != nil || !ok || fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: got %v, %v, err %v; want %v", tc.value, got, ok, err, tc.want)
		}
	}
}

func intVar(bits int) func(d *rt.Decoder) (any, bool) {
	return func(d *rt.Decoder) (any, bool) { return rt.VarInt(d, bits) }
}

func uintVar(bits int) func(d *rt.Decoder) (any, bool) {
	return func(d *rt.Decoder) (any, bool) { return rt.VarUint(d, bits) }
}

func floatVar(bits int) func(d *rt.Decoder) (any, bool) {
	return func(d *rt.Decoder) (any, bool) { return rt.VarFloat(d, bits) }
}

func boolVar(d *rt.Decoder) (any, bool) { return rt.VarBool(d) }
