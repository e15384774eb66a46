package mcpimpl_test

import (
	"errors"
	"math"
	"reflect"
	"strconv"
	"testing"

	rt "github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// violations returns the violations d recorded.
func violations(t *testing.T, d *rt.Decoder) []string {
	t.Helper()
	err := d.Err()
	if err == nil {
		return nil
	}
	var ve *rt.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("Err() = %v, want nil or *ValidationError", err)
	}
	return ve.Violations
}

func TestDecoderIntRange(t *testing.T) {
	tests := []struct {
		in       string
		bits     int
		min, max int64
		want     int64
		ok       bool
		problems []string
	}{
		{"10", 64, 1, 100, 10, true, nil},
		{"1", 64, 1, 100, 1, true, nil},
		{"100", 64, 1, 100, 100, true, nil},
		{"1e2", 64, 1, 100, 100, true, nil},
		{"0", 64, 1, 100, 0, false, []string{"must be an integer ≥ 1, got 0"}},
		{"101", 64, 1, 100, 101, false, []string{"must be an integer ≤ 100, got 101"}},
		{"-1e400", 64, 1, 100, 0, false, []string{"must be an integer ≥ 1, got -1e400"}},
		{"1e400", 64, 1, 100, 0, false, []string{"must be an integer ≤ 100, got 1e400"}},
		{"2.5", 64, 1, 100, 0, false, []string{"must be an integer, got 2.5"}},
		{`"5"`, 64, 1, 100, 0, false, []string{`must be an integer, got "5"`}},
		{"null", 64, 1, 100, 0, false, []string{"must be an integer, got null"}},
		// The type's own limits, for a bound the schema does not set.
		{"-129", 8, -128, 5, 0, false, []string{"must be an integer ≥ -128, got -129"}},
		{"128", 8, 0, 127, 0, false, []string{"must be an integer ≤ 127, got 128"}},
		{"-9223372036854775808", 64, math.MinInt64, 0, math.MinInt64, true, nil},
		{"9223372036854775808", 64, 0, math.MaxInt64, 0, false, []string{"must be an integer ≤ 9223372036854775807, got 9223372036854775808"}},
		// Bounds that exclude every value break both.
		{"7", 64, 10, 5, 7, false, []string{"must be an integer ≥ 10, got 7", "must be an integer ≤ 5, got 7"}},
	}
	for _, tc := range tests {
		name := tc.in + "/" + strconv.Itoa(tc.bits)
		t.Run(name, func(t *testing.T) {
			d := rt.NewDecoder([]byte(tc.in), "")
			got := d.IntRange(tc.bits, tc.min, tc.max)
			if got != tc.want || d.Failed() == tc.ok {
				t.Errorf("IntRange(%d, %d, %d) = %d, failed %v, want %d, failed %v", tc.bits, tc.min, tc.max, got, d.Failed(), tc.want, !tc.ok)
			}
			if p := violations(t, d); !reflect.DeepEqual(p, tc.problems) {
				t.Errorf("violations %q, want %q", p, tc.problems)
			}
		})
	}
}

func TestDecoderUintRange(t *testing.T) {
	tests := []struct {
		in       string
		bits     int
		min, max uint64
		want     uint64
		ok       bool
		problems []string
	}{
		{"10", 64, 1, 100, 10, true, nil},
		{"0", 64, 0, 100, 0, true, nil},
		{"-0", 64, 0, 100, 0, true, nil},
		{"0", 64, 1, 100, 0, false, []string{"must be an integer ≥ 1, got 0"}},
		{"-1", 64, 0, 100, 0, false, []string{"must be an integer ≥ 0, got -1"}},
		{"-1", 64, 3, 100, 0, false, []string{"must be an integer ≥ 3, got -1"}},
		{"101", 64, 1, 100, 101, false, []string{"must be an integer ≤ 100, got 101"}},
		{"256", 8, 1, 255, 0, false, []string{"must be an integer ≤ 255, got 256"}},
		{"1e400", 64, 1, 100, 0, false, []string{"must be an integer ≤ 100, got 1e400"}},
		{"18446744073709551615", 64, 0, math.MaxUint64, math.MaxUint64, true, nil},
		{"0.5", 64, 0, 100, 0, false, []string{"must be an integer, got 0.5"}},
		{"true", 64, 0, 100, 0, false, []string{"must be an integer, got true"}},
		{"7", 64, 10, 5, 7, false, []string{"must be an integer ≥ 10, got 7", "must be an integer ≤ 5, got 7"}},
	}
	for _, tc := range tests {
		t.Run(tc.in+"/"+strconv.Itoa(tc.bits), func(t *testing.T) {
			d := rt.NewDecoder([]byte(tc.in), "")
			got := d.UintRange(tc.bits, tc.min, tc.max)
			if got != tc.want || d.Failed() == tc.ok {
				t.Errorf("UintRange(%d, %d, %d) = %d, failed %v, want %d, failed %v", tc.bits, tc.min, tc.max, got, d.Failed(), tc.want, !tc.ok)
			}
			if p := violations(t, d); !reflect.DeepEqual(p, tc.problems) {
				t.Errorf("violations %q, want %q", p, tc.problems)
			}
		})
	}
}

// TestDecoderRangeAgrees checks IntRange and UintRange against the reads
// and checks they replace: IntWithin or UintWithin with the bounds' words,
// then a comparison with each bound.
func TestDecoderRangeAgrees(t *testing.T) {
	inputs := []string{"0", "1", "-1", "5", "99", "100", "101", "127", "128", "-128", "-129", "255", "256",
		"1e2", "1.5", "-0", "1e400", "-1e400", "9223372036854775807", "-9223372036854775809", `"x"`, "[]", "{}", "null"}
	type bounds struct {
		bits     int
		min, max int64
	}
	for _, b := range []bounds{{64, 1, 100}, {8, -128, 100}, {8, 5, 127}, {16, -5, 5}, {64, 0, 100}, {64, 10, 5}, {32, -100, 2147483647}} {
		word := func(op string, n int64) string { return "must be an integer " + op + " " + strconv.FormatInt(n, 10) }
		lo, hi := -(int64(1) << (b.bits - 1)), int64(1)<<(b.bits-1)-1
		if b.bits == 64 {
			lo, hi = math.MinInt64, math.MaxInt64
		}
		for _, in := range inputs {
			oldD := rt.NewDecoder([]byte(in), "n")
			low, high := "", ""
			if b.min > lo {
				low = word("≥", b.min)
			}
			if b.max < hi {
				high = word("≤", b.max)
			}
			if x, ok := oldD.IntWithin(b.bits, low, high); ok {
				if x < b.min {
					oldD.Invalid(word("≥", b.min))
				}
				if x > b.max {
					oldD.Invalid(word("≤", b.max))
				}
			}
			newD := rt.NewDecoder([]byte(in), "n")
			newD.IntRange(b.bits, b.min, b.max)
			if o, n := violations(t, oldD), violations(t, newD); !reflect.DeepEqual(o, n) {
				t.Errorf("int%d [%d, %d] on %s: IntRange records %q, the checks it replaces %q", b.bits, b.min, b.max, in, n, o)
			}
			if b.min < 0 {
				continue
			}
			umin, umax := uint64(b.min), uint64(b.max)
			uhi := ^uint64(0) >> (64 - b.bits)
			oldU := rt.NewDecoder([]byte(in), "n")
			low, high = "", ""
			if umin > 0 {
				low = word("≥", b.min)
			}
			if umax < uhi {
				high = word("≤", b.max)
			}
			if x, ok := oldU.UintWithin(b.bits, low, high); ok {
				if x < umin {
					oldU.Invalid(word("≥", b.min))
				}
				if x > umax {
					oldU.Invalid(word("≤", b.max))
				}
			}
			newU := rt.NewDecoder([]byte(in), "n")
			newU.UintRange(b.bits, umin, umax)
			if o, n := violations(t, oldU), violations(t, newU); !reflect.DeepEqual(o, n) {
				t.Errorf("uint%d [%d, %d] on %s: UintRange records %q, the checks it replaces %q", b.bits, umin, umax, in, n, o)
			}
		}
	}
}

func TestDecoderStrings(t *testing.T) {
	tests := []struct {
		in       string
		want     []string
		ok       bool
		problems []string
	}{
		{`["a", "b\u00e9"]`, []string{"a", "bé"}, true, nil},
		{`[]`, []string{}, true, nil},
		{`["a", 1, null, "d"]`, []string{"a", "", "", "d"}, true, []string{"tags[1]: must be a string, got 1", "tags[2]: must be a string, got null"}},
		{`"a"`, nil, false, []string{`tags: must be an array, got "a"`}},
		{`null`, nil, false, []string{"tags: must be an array, got null"}},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			d := rt.NewDecoder([]byte(tc.in), "tags")
			got, ok := d.Strings()
			if !reflect.DeepEqual(got, tc.want) || ok != tc.ok || (got == nil) != (tc.want == nil) {
				t.Errorf("Strings() = %#v, %v, want %#v, %v", got, ok, tc.want, tc.ok)
			}
			if p := violations(t, d); !reflect.DeepEqual(p, tc.problems) {
				t.Errorf("violations %q, want %q", p, tc.problems)
			}
		})
	}
	// An element that breaks the syntax stops the read.
	d := rt.NewDecoder([]byte(`["a", "b",]`), "tags")
	d.Strings()
	var se *rt.SyntaxError
	if err := d.Err(); !errors.As(err, &se) {
		t.Errorf("Err() = %v, want a *SyntaxError", err)
	}
}

func TestDecoderRequire(t *testing.T) {
	for _, present := range []bool{true, false} {
		d := rt.NewDecoder([]byte(`{"a": {}}`), "arguments")
		d.Object()
		d.Field()
		d.Object()
		d.Field()
		d.Require(present, "name")
		d.Field()
		var want []string
		if !present {
			want = []string{"a.name: required property is missing"}
		}
		if got := violations(t, d); !reflect.DeepEqual(got, want) {
			t.Errorf("Require(%v, name) records %q, want %q", present, got, want)
		}
	}
}

// TestDecoderRangeAllocs checks that IntRange and UintRange allocate no
// more than the reads and checks they replace, also when they record a
// violation: its message is written once, not built and then copied.
func TestDecoderRangeAllocs(t *testing.T) {
	d := rt.NewDecoder(nil, "")
	for _, in := range []string{"10", "500", "-3", "1e400"} {
		data := []byte(in)
		old := testing.AllocsPerRun(100, func() {
			d.Reset(data, "n")
			if x, ok := d.IntWithin(64, "must be an integer ≥ 1", "must be an integer ≤ 100"); ok {
				if x < 1 {
					d.Invalid("must be an integer ≥ 1")
				}
				if x > 100 {
					d.Invalid("must be an integer ≤ 100")
				}
			}
		})
		for name, read := range map[string]func(){
			"IntRange":  func() { d.IntRange(64, 1, 100) },
			"UintRange": func() { d.UintRange(64, 1, 100) },
		} {
			n := testing.AllocsPerRun(100, func() {
				d.Reset(data, "n")
				read()
			})
			if in == "-3" && name == "UintRange" {
				continue // a different violation: below the type's range
			}
			if n > old {
				t.Errorf("%s on %s: %v allocations, the checks it replaces %v", name, in, n, old)
			}
		}
	}
}
