package mcpimpl_test

import (
	"testing"

	rt "github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

func TestEncoderStrings(t *testing.T) {
	tests := []struct {
		in   []string
		want string
	}{
		{nil, `{"a":[],"b":1}`},
		{[]string{}, `{"a":[],"b":1}`},
		{[]string{"x"}, `{"a":["x"],"b":1}`},
		{[]string{"x", "", "q\"\n"}, `{"a":["x","","q\"\n"],"b":1}`},
	}
	for _, tc := range tests {
		var e rt.Encoder
		e.Open()
		e.Key(`"a":`)
		e.Strings(tc.in)
		e.Key(`"b":`)
		e.Int(1)
		e.Close()
		if got := encoded(t, &e); got != tc.want {
			t.Errorf("Strings(%q) in an object = %s, want %s", tc.in, got, tc.want)
		}
	}
	// Inside an array, the array of strings is an element like any other.
	var e rt.Encoder
	e.OpenArray()
	e.Elem()
	e.Strings([]string{"a", "b"})
	e.Elem()
	e.Strings(nil)
	e.CloseArray()
	if got, want := encoded(t, &e), `[["a","b"],[]]`; got != want {
		t.Errorf("Strings as elements = %s, want %s", got, want)
	}
}
