package mcpimpl_test

import (
	"reflect"
	"testing"

	rt "github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

func TestDecoderOpt(t *testing.T) {
	type opts struct {
		S  string
		B  bool
		SS []string
	}
	// decode reads the object in into a value that starts as prior.
	decode := func(in string, prior opts) (opts, []string) {
		d := rt.NewDecoder([]byte(in), "arguments")
		v := prior
		if d.Object() {
			for key, ok := d.Field(); ok; key, ok = d.Field() {
				switch string(key) {
				case "s":
					d.OptString(&v.S)
				case "b":
					d.OptBool(&v.B)
				case "ss":
					d.OptStrings(&v.SS)
				default:
					d.Unknown("s, b, ss")
				}
			}
		}
		return v, violations(t, d)
	}
	prior := opts{S: "keep", B: true, SS: []string{"keep"}}
	tests := []struct {
		in       string
		want     opts
		problems []string
	}{
		{`{"s": "x", "b": false, "ss": ["a", "b"]}`, opts{S: "x", B: false, SS: []string{"a", "b"}}, nil},
		{`{"s": null, "b": null, "ss": null}`, prior, nil},
		{`{}`, prior, nil},
		{`{"ss": []}`, opts{S: "keep", B: true, SS: []string{}}, nil},
		{`{"s": 1, "b": "no", "ss": [1]}`, opts{S: "", B: false, SS: []string{""}}, []string{
			"s: must be a string, got 1", `b: must be a boolean, got "no"`, "ss[0]: must be a string, got 1"}},
		{`{"ss": "a"}`, opts{S: "keep", B: true, SS: nil}, []string{`ss: must be an array, got "a"`}},
	}
	for _, tc := range tests {
		got, problems := decode(tc.in, prior)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: decoded %#v, want %#v", tc.in, got, tc.want)
		}
		if !reflect.DeepEqual(problems, tc.problems) {
			t.Errorf("%s: violations %q, want %q", tc.in, problems, tc.problems)
		}
	}
}
