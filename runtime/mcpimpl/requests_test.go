package mcpimpl_test

import (
	"errors"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// readStrings reads an object of strings with d, checking each value
// against bad (a value that gets a violation), and returns the members in
// the order read, with the outcome of Done.
func readStrings(d *mcpimpl.Decoder, bad string) ([]string, error) {
	var got []string
	if d.Object() {
		for {
			key, ok := d.Field()
			if !ok {
				break
			}
			k := string(key)
			if v, ok := d.String(); ok {
				if v == bad {
					d.Invalid("must not be " + bad)
				}
				got = append(got, k+"="+v)
			}
		}
	}
	return got, d.Done()
}

func TestArgumentsDecoder(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []byte
		want []string
		err  string
	}{
		{name: "absent reads as {}", args: nil, want: nil},
		{name: "object", args: []byte(`{"a":"x","b":"y"}`), want: []string{"a=x", "b=y"}},
		{name: "violations name the property", args: []byte(`{"a":"no"}`), want: []string{"a=no"}, err: `invalid arguments: a: must not be no, got "no"`},
		{name: "not an object names the root", args: []byte(`[1]`), err: "invalid arguments: arguments: must be an object, got an array"},
		{name: "syntax", args: []byte(`{"a":`), err: "invalid JSON at offset 5: unexpected end of input; expected a value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readStrings(mcpimpl.ArgumentsDecoder(tc.args), "no")
			if !equal(got, tc.want) {
				t.Errorf("read %q, want %q", got, tc.want)
			}
			if msg := errText(err); msg != tc.err {
				t.Errorf("error %q, want %q", msg, tc.err)
			}
		})
	}
}

func TestStringsDecoder(t *testing.T) {
	m := map[string]string{"id": "7", "q": `a "quoted"` + "\n", "x": "no"}
	for _, tc := range []struct {
		name  string
		root  string
		names []string
		want  []string
		err   string
	}{
		{name: "in the order of names", root: "uri", names: []string{"q", "id"}, want: []string{"q=a \"quoted\"\n", "id=7"}},
		{name: "absent names left out", root: "uri", names: []string{"id", "missing"}, want: []string{"id=7"}},
		{name: "no names", root: "uri", names: nil, want: nil},
		{name: "violation names the variable", root: "arguments", names: []string{"x", "id"}, want: []string{"x=no", "id=7"}, err: `invalid arguments: x: must not be no, got "no"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readStrings(mcpimpl.StringsDecoder(tc.root, m, tc.names), "no")
			if !equal(got, tc.want) {
				t.Errorf("read %q, want %q", got, tc.want)
			}
			if msg := errText(err); msg != tc.err {
				t.Errorf("error %q, want %q", msg, tc.err)
			}
		})
	}
}

// TestDoneErrorOutlivesReuse checks that the error Done returns stays as it
// was while the Decoder, handed back, reads other requests.
func TestDoneErrorOutlivesReuse(t *testing.T) {
	_, err := readStrings(mcpimpl.StringsDecoder("uri", map[string]string{"a": "no"}, []string{"a"}), "no")
	want := errText(err)
	if want == "" {
		t.Fatal("no error for a bad value")
	}
	for range 20 {
		if _, err := readStrings(mcpimpl.StringsDecoder("uri", map[string]string{"b": "no", "c": "no"}, []string{"b", "c"}), "no"); err == nil {
			t.Fatal("no error for bad values")
		}
		if _, err := readStrings(mcpimpl.ArgumentsDecoder([]byte(`{"z":"no"}`)), "no"); err == nil {
			t.Fatal("no error for a bad value")
		}
	}
	if got := errText(err); got != want {
		t.Errorf("the first error now reads %q, was %q", got, want)
	}
	var ve *mcpimpl.ValidationError
	if !errors.As(err, &ve) || len(ve.Violations) != 1 {
		t.Errorf("error %#v, want one violation", err)
	}
}

func TestMemberViolation(t *testing.T) {
	d := mcpimpl.NewDecoder([]byte(`{"a":{}}`), "arguments")
	d.Object()
	d.Field()
	d.Object()
	for {
		if _, ok := d.Field(); !ok {
			break
		}
	}
	d.MemberViolation("b", "required argument is missing")
	if got, want := errText(d.Err()), "invalid arguments: a.b: required argument is missing"; got != want {
		t.Errorf("error %q, want %q", got, want)
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
