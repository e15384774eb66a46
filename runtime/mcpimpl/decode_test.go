package mcpimpl_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"reflect"
	"strings"
	"testing"
	"time"

	rt "github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// decRead reads one top-level value with the method under test.
type decRead func(d *rt.Decoder) (any, bool)

var (
	decString = func(d *rt.Decoder) (any, bool) { return d.String() }
	decBool   = func(d *rt.Decoder) (any, bool) { return d.Bool() }
	decFloat  = func(bits int) decRead {
		return func(d *rt.Decoder) (any, bool) { return d.Float(bits) }
	}
	decInt = func(bits int) decRead {
		return func(d *rt.Decoder) (any, bool) { return d.Int(bits) }
	}
	decUint = func(bits int) decRead {
		return func(d *rt.Decoder) (any, bool) { return d.Uint(bits) }
	}
	decIntWithin = func(bits int, low, high string) decRead {
		return func(d *rt.Decoder) (any, bool) { return d.IntWithin(bits, low, high) }
	}
	decUintWithin = func(bits int, low, high string) decRead {
		return func(d *rt.Decoder) (any, bool) { return d.UintWithin(bits, low, high) }
	}
	decFloatWithin = func(bits int, low, high string) decRead {
		return func(d *rt.Decoder) (any, bool) { return d.FloatWithin(bits, low, high) }
	}
	decBase64 = func(d *rt.Decoder) (any, bool) { return d.Base64() }
	decTime   = func(d *rt.Decoder) (any, bool) { return d.Time() }
	decRaw    = func(d *rt.Decoder) (any, bool) {
		b, ok := d.Raw()
		return string(b), ok
	}
	decNull = func(d *rt.Decoder) (any, bool) { return nil, d.Null() }
)

func decTimeOf(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestDecoderScalars(t *testing.T) {
	long := `"` + strings.Repeat("a", 50) + `"`
	tests := []struct {
		name   string
		in     string
		read   decRead
		want   any // expected value when ok
		ok     bool
		viol   string // expected single violation, "" for none
		syntax bool   // expect a *SyntaxError from Err
	}{
		// String.
		{"string", `"abc"`, decString, "abc", true, "", false},
		{"string empty", `""`, decString, "", true, "", false},
		{"string ws", " \t\r\n\"x\" \n", decString, "x", true, "", false},
		{"string escapes", `"a\"b\\c\/d\b\f\n\r\t"`, decString, "a\"b\\c/d\b\f\n\r\t", true, "", false},
		{"string unicode escapes", `"\u00e9\u4E2D\u0000"`, decString, "é中\x00", true, "", false},
		{"string utf8", `"héllo 中 😀"`, decString, "héllo 中 😀", true, "", false},
		{"string surrogate pair", `"\ud83d\ude00"`, decString, "😀", true, "", false},
		{"string lone high surrogate", `"\ud83d"`, decString, "\ufffd", true, "", false},
		{"string high surrogate then char", `"\ud83dx"`, decString, "\ufffdx", true, "", false},
		{"string reversed pair", `"\ude00\ud83d"`, decString, "\ufffd\ufffd", true, "", false},
		{"string high then non-surrogate", `"\ud83d\u0041"`, decString, "\ufffdA", true, "", false},
		{"string high high low", `"\ud83d\ud83d\ude00"`, decString, "\ufffd😀", true, "", false},
		{"string invalid utf8", "\"a\xffb\"", decString, "a\ufffdb", true, "", false},
		{"string utf8 surrogate bytes", "\"\xed\xa0\x80\"", decString, "\ufffd\ufffd\ufffd", true, "", false},
		{"string truncated utf8", "\"\xe4\xb8\"", decString, "\ufffd\ufffd", true, "", false},
		{"string utf8 and escape", `"é\n😀\u0041"`, decString, "é\n😀A", true, "", false},
		{"string invalid utf8 and escape", "\"\xff\\n\"", decString, "\ufffd\n", true, "", false},
		{"string got number", `5`, decString, nil, false, "arguments: must be a string, got 5", false},
		{"string got null", `null`, decString, nil, false, "arguments: must be a string, got null", false},
		{"string got bool", `true`, decString, nil, false, "arguments: must be a string, got true", false},
		{"string got array", `[1, 2]`, decString, nil, false, "arguments: must be a string, got an array", false},
		{"string got object", `{"a": 1}`, decString, nil, false, "arguments: must be a string, got an object", false},
		{"string got bad array", `[1, }`, decString, nil, false, "", true},

		// Bool.
		{"bool true", `true`, decBool, true, true, "", false},
		{"bool false", `false`, decBool, false, true, "", false},
		{"bool got string", `"true"`, decBool, nil, false, `arguments: must be a boolean, got "true"`, false},
		{"bool got number", `1`, decBool, nil, false, "arguments: must be a boolean, got 1", false},
		{"bool bad literal", `tru`, decBool, nil, false, "", true},
		{"bool bad literal 2", `falsy`, decBool, nil, false, "", true},

		// Null.
		{"null", `null`, decNull, nil, true, "", false},
		{"null bad literal", `nul`, decNull, nil, false, "", true},

		// Int.
		{"int zero", `0`, decInt(64), int64(0), true, "", false},
		{"int minus zero", `-0`, decInt(64), int64(0), true, "", false},
		{"int", `42`, decInt(64), int64(42), true, "", false},
		{"int negative", `-42`, decInt(64), int64(-42), true, "", false},
		{"int fraction zero", `5.0`, decInt(64), int64(5), true, "", false},
		{"int exponent", `1e2`, decInt(64), int64(100), true, "", false},
		{"int exponent upper", `1E+2`, decInt(64), int64(100), true, "", false},
		{"int fraction exponent", `1.5e1`, decInt(64), int64(15), true, "", false},
		{"int negative exponent", `100e-2`, decInt(64), int64(1), true, "", false},
		{"int small fraction", `0.000001e6`, decInt(64), int64(1), true, "", false},
		{"int zeros", `-0.000e5`, decInt(64), int64(0), true, "", false},
		{"int zero huge exponent", `0e999999999999999999999`, decInt(64), int64(0), true, "", false},
		{"int long exact", `123456789012345678.90e1`, decInt(64), int64(1234567890123456789), true, "", false},
		{"int max", `9223372036854775807`, decInt(64), int64(math.MaxInt64), true, "", false},
		{"int min", `-9223372036854775808`, decInt(64), int64(math.MinInt64), true, "", false},
		{"int max exp", `9.223372036854775807e18`, decInt(64), int64(math.MaxInt64), true, "", false},
		{"int over max", `9223372036854775808`, decInt(64), nil, false, "arguments: must be an integer ≤ 9223372036854775807, got 9223372036854775808", false},
		{"int under min", `-9223372036854775809`, decInt(64), nil, false, "arguments: must be an integer ≥ -9223372036854775808, got -9223372036854775809", false},
		{"int 20 digits", `99999999999999999999`, decInt(64), nil, false, "arguments: must be an integer ≤ 9223372036854775807, got 99999999999999999999", false},
		{"int 1e400", `1e400`, decInt(64), nil, false, "arguments: must be an integer ≤ 9223372036854775807, got 1e400", false},
		{"int -1e400", `-1e400`, decInt(64), nil, false, "arguments: must be an integer ≥ -9223372036854775808, got -1e400", false},
		{"int huge exponent", `1e99999999999999999999999`, decInt(64), nil, false, "arguments: must be an integer ≤ 9223372036854775807, got 1e99999999999999999999999", false},
		{"int 1e-400", `1e-400`, decInt(64), nil, false, "arguments: must be an integer, got 1e-400", false},
		{"int fraction", `1.5`, decInt(64), nil, false, "arguments: must be an integer, got 1.5", false},
		{"int tiny fraction", `1.0000000000000000000000001`, decInt(64), nil, false, "arguments: must be an integer, got 1.0000000000000000000000001", false},
		{"int big fraction", `12345678901234567890123.5`, decInt(64), nil, false, "arguments: must be an integer, got 12345678901234567890123.5", false},
		{"int got string", `"5"`, decInt(64), nil, false, `arguments: must be an integer, got "5"`, false},
		{"int got object", `{}`, decInt(64), nil, false, "arguments: must be an integer, got an object", false},
		{"int8 max", `127`, decInt(8), int64(127), true, "", false},
		{"int8 min", `-128`, decInt(8), int64(-128), true, "", false},
		{"int8 over", `300`, decInt(8), nil, false, "arguments: must be an integer ≤ 127, got 300", false},
		{"int8 under", `-300`, decInt(8), nil, false, "arguments: must be an integer ≥ -128, got -300", false},
		{"int16 over", `32768`, decInt(16), nil, false, "arguments: must be an integer ≤ 32767, got 32768", false},
		{"int16 min", `-32768`, decInt(16), int64(-32768), true, "", false},
		{"int32 over", `2147483648`, decInt(32), nil, false, "arguments: must be an integer ≤ 2147483647, got 2147483648", false},
		{"int32 under", `-2147483649`, decInt(32), nil, false, "arguments: must be an integer ≥ -2147483648, got -2147483649", false},
		{"int odd bits", `9223372036854775807`, decInt(0), int64(math.MaxInt64), true, "", false},
		{"int bad number", `-`, decInt(64), nil, false, "", true},
		{"int leading zero", `01`, decInt(64), int64(0), true, "", true},

		// Uint.
		{"uint", `255`, decUint(8), uint64(255), true, "", false},
		{"uint minus zero", `-0`, decUint(8), uint64(0), true, "", false},
		{"uint minus zero fraction", `-0.0`, decUint(8), uint64(0), true, "", false},
		{"uint8 over", `256`, decUint(8), nil, false, "arguments: must be an integer ≤ 255, got 256", false},
		{"uint8 300", `300`, decUint(8), nil, false, "arguments: must be an integer ≤ 255, got 300", false},
		{"uint negative", `-1`, decUint(64), nil, false, "arguments: must be an integer ≥ 0, got -1", false},
		{"uint negative huge", `-1e400`, decUint(64), nil, false, "arguments: must be an integer ≥ 0, got -1e400", false},
		{"uint negative fraction", `-0.5`, decUint(64), nil, false, "arguments: must be an integer, got -0.5", false},
		{"uint64 max", `18446744073709551615`, decUint(64), uint64(math.MaxUint64), true, "", false},
		{"uint64 max exp", `1.8446744073709551615e19`, decUint(64), uint64(math.MaxUint64), true, "", false},
		{"uint64 1e19", `1e19`, decUint(64), uint64(1e19), true, "", false},
		{"uint64 over", `18446744073709551616`, decUint(64), nil, false, "arguments: must be an integer ≤ 18446744073709551615, got 18446744073709551616", false},
		{"uint64 1.9e19", `1.9e19`, decUint(64), nil, false, "arguments: must be an integer ≤ 18446744073709551615, got 1.9e19", false},
		{"uint64 1e20", `1e20`, decUint(64), nil, false, "arguments: must be an integer ≤ 18446744073709551615, got 1e20", false},
		{"uint16 max", `65535`, decUint(16), uint64(65535), true, "", false},
		{"uint32 over", `4294967296`, decUint(32), nil, false, "arguments: must be an integer ≤ 4294967295, got 4294967296", false},
		{"uint got bool", `false`, decUint(64), nil, false, "arguments: must be an integer, got false", false},

		// Float.
		{"float", `1.5`, decFloat(64), 1.5, true, "", false},
		{"float negative", `-0.25`, decFloat(64), -0.25, true, "", false},
		{"float int", `10`, decFloat(64), 10.0, true, "", false},
		{"float exponent", `1E+2`, decFloat(64), 100.0, true, "", false},
		{"float long int", `12345678901234567890`, decFloat(64), 12345678901234567890.0, true, "", false},
		{"float pi", `3.141592653589793238462643383279502884197`, decFloat(64), math.Pi, true, "", false},
		{"float max", `1.7976931348623157e308`, decFloat(64), math.MaxFloat64, true, "", false},
		{"float overflow", `1e400`, decFloat(64), nil, false, "arguments: must be a number ≤ 1.7976931348623157e+308, got 1e400", false},
		{"float negative overflow", `-1e400`, decFloat(64), nil, false, "arguments: must be a number ≥ -1.7976931348623157e+308, got -1e400", false},
		{"float underflow", `1e-400`, decFloat(64), 0.0, true, "", false},
		{"float got string", `"1"`, decFloat(64), nil, false, `arguments: must be a number, got "1"`, false},
		// Float(32) returns the float64 nearest to the number as written, for
		// bounds; its float32 conversion is encoding/json's float32.
		{"float32", `0.1`, decFloat(32), 0.1, true, "", false},
		{"float32 bound as written", `0.8`, decFloat(32), 0.8, true, "", false},
		{"float32 int", `1234567`, decFloat(32), 1234567.0, true, "", false},
		{"float32 rounding", `16777217`, decFloat(32), 16777217.0, true, "", false},
		// Its nearest float64 is halfway between two float32s; the number is
		// above that point, so the float64 returned must convert upwards.
		{"float32 double rounding", `1.00000005960464477539062500001`, decFloat(32), math.Nextafter(1+1.0/(1<<24), 2), true, "", false},
		{"float32 max", `3.4028234663852886e+38`, decFloat(32), float64(math.MaxFloat32), true, "", false},
		{"float32 overflow", `1e39`, decFloat(32), nil, false, "arguments: must be a number ≤ 3.4028234663852886e+38, got 1e39", false},
		{"float32 negative overflow", `-1e39`, decFloat(32), nil, false, "arguments: must be a number ≥ -3.4028234663852886e+38, got -1e39", false},
		{"float bad", `1.`, decFloat(64), nil, false, "", true},

		// The schema's words for a number beyond the type's range.
		{"int within high", `1e400`, decIntWithin(64, "must be an integer ≥ 1", "must be an integer ≤ 100"), nil, false, "arguments: must be an integer ≤ 100, got 1e400", false},
		{"int within low", `-1e400`, decIntWithin(64, "must be an integer ≥ 1", "must be an integer ≤ 100"), nil, false, "arguments: must be an integer ≥ 1, got -1e400", false},
		{"int within type's low", `-1e400`, decIntWithin(64, "", "must be an integer ≤ 100"), nil, false, "arguments: must be an integer ≥ -9223372036854775808, got -1e400", false},
		{"int within in range", `500`, decIntWithin(64, "", "must be an integer ≤ 100"), int64(500), true, "", false},
		{"uint within high", `1e20`, decUintWithin(64, "", "must be an integer < 10"), nil, false, "arguments: must be an integer < 10, got 1e20", false},
		{"uint within negative", `-1`, decUintWithin(64, "must be an integer ≥ 2", ""), nil, false, "arguments: must be an integer ≥ 2, got -1", false},
		{"float within high", `1e39`, decFloatWithin(32, "", "must be a number ≤ 0.8"), nil, false, "arguments: must be a number ≤ 0.8, got 1e39", false},
		{"float within low", `-1e400`, decFloatWithin(64, "must be a number > 0", ""), nil, false, "arguments: must be a number > 0, got -1e400", false},

		// Base64.
		{"base64", `"aGVsbG8="`, decBase64, []byte("hello"), true, "", false},
		{"base64 empty", `""`, decBase64, []byte{}, true, "", false},
		{"base64 escaped", `"aGVs\nbG8\u003d"`, decBase64, []byte("hello"), true, "", false},
		{"base64 escaped slash", `"\/w=="`, decBase64, []byte{0xff}, true, "", false},
		{"base64 bad", `"%%%"`, decBase64, nil, false, `arguments: must be a base64-encoded string, got "%%%"`, false},
		{"base64 unpadded", `"aGVsbG8"`, decBase64, nil, false, `arguments: must be a base64-encoded string, got "aGVsbG8"`, false},
		{"base64 url alphabet", `"_-8="`, decBase64, nil, false, `arguments: must be a base64-encoded string, got "_-8="`, false},
		{"base64 unterminated", `"aGVs`, decBase64, nil, false, "", true},
		{"base64 got number", `5`, decBase64, nil, false, "arguments: must be a base64-encoded string, got 5", false},

		// Time.
		{"time", `"2024-05-01T12:30:00Z"`, decTime, decTimeOf("2024-05-01T12:30:00Z"), true, "", false},
		{"time nano offset", `"2024-05-01T12:30:00.123456789+02:00"`, decTime, decTimeOf("2024-05-01T12:30:00.123456789+02:00"), true, "", false},
		{"time escaped", `"2024-05-01T12:30:00\u002B02:00"`, decTime, decTimeOf("2024-05-01T12:30:00+02:00"), true, "", false},
		{"time bad", `"yesterday"`, decTime, nil, false, `arguments: must be a date-time string (RFC 3339), got "yesterday"`, false},
		{"time date only", `"2024-05-01"`, decTime, nil, false, `arguments: must be a date-time string (RFC 3339), got "2024-05-01"`, false},
		{"time got number", `5`, decTime, nil, false, "arguments: must be a date-time string (RFC 3339), got 5", false},

		// Raw.
		{"raw object", ` {"a": [1, 2]} `, decRaw, `{"a": [1, 2]}`, true, "", false},
		{"raw number", `-1.5e3`, decRaw, `-1.5e3`, true, "", false},
		{"raw string", `"a\"b"`, decRaw, `"a\"b"`, true, "", false},
		{"raw bad", `[1,]`, decRaw, "", false, "", true},

		// Long and non-ASCII values in "got".
		{"got cut", long, decInt(64), nil, false, `arguments: must be an integer, got "` + strings.Repeat("a", 39) + "…", false},
		{"got cut rune", `"` + strings.Repeat("é", 30) + `"`, decInt(64), nil, false, `arguments: must be an integer, got "` + strings.Repeat("é", 19) + "…", false},
		{"got invalid utf8", "\"\xff\"", decInt(64), nil, false, "arguments: must be an integer, got \"\ufffd\"", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := rt.NewDecoder([]byte(tc.in), "arguments")
			got, ok := tc.read(d)
			if ok != tc.ok {
				t.Fatalf("ok = %v, want %v (value %#v)", ok, tc.ok, got)
			}
			if ok && !reflect.DeepEqual(got, tc.want) {
				t.Errorf("value = %#v, want %#v", got, tc.want)
			}
			err := d.Err()
			var se *rt.SyntaxError
			var ve *rt.ValidationError
			switch {
			case tc.syntax:
				if !errors.As(err, &se) {
					t.Fatalf("Err() = %v, want a *SyntaxError", err)
				}
			case tc.viol != "":
				if !errors.As(err, &ve) {
					t.Fatalf("Err() = %v, want a *ValidationError", err)
				}
				if len(ve.Violations) != 1 || ve.Violations[0] != tc.viol {
					t.Errorf("violations = %q, want %q", ve.Violations, tc.viol)
				}
				if !d.Failed() {
					t.Errorf("Failed() = false after a violation")
				}
			default:
				if err != nil {
					t.Fatalf("Err() = %v, want nil", err)
				}
				if d.Failed() {
					t.Errorf("Failed() = true without a violation")
				}
			}
		})
	}
}

// Argument types in the shape generated code decodes into.
type decArgs struct {
	Pattern   string
	Limit     int
	Recursive bool
	Tags      []string
	Color     string
	Filter    *decFilter
	Matrix    [][]int32
}

type decFilter struct {
	Name   string
	ID     uint16
	Labels map[string]string
}

// decDecodeArgs decodes data the way generated code does.
func decDecodeArgs(data []byte) (decArgs, error) {
	var a decArgs
	d := rt.NewDecoder(data, "arguments")
	decArgsInto(d, &a)
	return a, d.Err()
}

func decArgsInto(d *rt.Decoder, a *decArgs) {
	if !d.Object() {
		return
	}
	havePattern := false
	for {
		k, ok := d.Field()
		if !ok {
			break
		}
		switch string(k) {
		case "pattern":
			havePattern = true
			if v, ok := d.String(); ok {
				a.Pattern = v
			}
		case "limit":
			if n, ok := d.Int(64); ok {
				switch {
				case n > 100:
					d.Invalid("must be an integer ≤ 100")
				case n < 1:
					d.Invalid("must be an integer ≥ 1")
				default:
					a.Limit = int(n)
				}
			}
		case "recursive":
			if v, ok := d.Bool(); ok {
				a.Recursive = v
			}
		case "tags":
			if d.Null() {
				a.Tags = nil
			} else if d.Array() {
				a.Tags = []string{}
				for d.Elem() {
					v, _ := d.String()
					a.Tags = append(a.Tags, v)
				}
				if len(a.Tags) > 3 {
					d.Invalid("must have at most 3 items")
				}
			}
		case "color":
			if v, ok := d.String(); ok {
				switch v {
				case "red", "green", "blue":
					a.Color = v
				default:
					d.Invalid(`must be one of "red", "green", "blue"`)
				}
			}
		case "filter":
			a.Filter = new(decFilter)
			decFilterInto(d, a.Filter)
		case "matrix":
			if d.Array() {
				a.Matrix = [][]int32{}
				for d.Elem() {
					var row []int32
					if d.Array() {
						row = []int32{}
						for d.Elem() {
							n, _ := d.Int(32)
							row = append(row, int32(n))
						}
					}
					a.Matrix = append(a.Matrix, row)
				}
			}
		default:
			d.Unknown("pattern, limit, recursive, tags, color, filter, matrix")
		}
	}
	if !havePattern {
		d.Missing("pattern")
	}
}

func decFilterInto(d *rt.Decoder, f *decFilter) {
	if !d.Object() {
		return
	}
	haveID := false
	for {
		k, ok := d.Field()
		if !ok {
			break
		}
		switch string(k) {
		case "name":
			f.Name, _ = d.String()
		case "id":
			haveID = true
			n, _ := d.Uint(16)
			f.ID = uint16(n)
		case "labels":
			if d.Object() {
				f.Labels = map[string]string{}
				for {
					k, ok := d.Field()
					if !ok {
						break
					}
					key := string(k)
					if v, ok := d.String(); ok {
						f.Labels[key] = v
					}
				}
			}
		default:
			d.Unknown("")
		}
	}
	if !haveID {
		d.Missing("id")
	}
}

func TestDecoderGeneratedShape(t *testing.T) {
	t.Run("valid", func(t *testing.T) {
		in := `{
			"pattern": "*.go", "limit": 10, "recursive": true,
			"tags": ["a", "b\u00e9"], "color": "green",
			"filter": {"name": "x", "id": 7, "labels": {"env": "prod", "a b": "c", "caf\u00e9": "d"}},
			"matrix": [[1, 2], [], [3]]
		}`
		got, err := decDecodeArgs([]byte(in))
		if err != nil {
			t.Fatalf("Err() = %v", err)
		}
		want := decArgs{
			Pattern: "*.go", Limit: 10, Recursive: true,
			Tags: []string{"a", "bé"}, Color: "green",
			Filter: &decFilter{Name: "x", ID: 7, Labels: map[string]string{"env": "prod", "a b": "c", "café": "d"}},
			Matrix: [][]int32{{1, 2}, {}, {3}},
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("got %+v\nwant %+v", got, want)
		}
	})
	t.Run("violations", func(t *testing.T) {
		in := `{
			"pattern": 5, "limit": 500, "tags": ["a", null, "c", {"x": 1}],
			"filter": {"name": true, "labels": {"env": 1, "a b": 2, "ok": "x", "a\"b": [], "caf\u00e9": 3, "x-y_1": false}, "zzz": {"deep": [1]}},
			"color": "purple", "extra": {"nested": [1, 2, {"a": null}]}, "recursive": "yes",
			"matrix": [[1, "x"], 7, [1e10, 2.5]],
			"": 0, "a.b": 1
		}`
		_, err := decDecodeArgs([]byte(in))
		var ve *rt.ValidationError
		if !errors.As(err, &ve) {
			t.Fatalf("Err() = %v, want *ValidationError", err)
		}
		const allowed = "(allowed: pattern, limit, recursive, tags, color, filter, matrix)"
		want := []string{
			"pattern: must be a string, got 5",
			"limit: must be an integer ≤ 100, got 500",
			"tags[1]: must be a string, got null",
			"tags[3]: must be a string, got an object",
			"tags: must have at most 3 items, got an array",
			"filter.name: must be a string, got true",
			"filter.labels.env: must be a string, got 1",
			`filter.labels["a b"]: must be a string, got 2`,
			`filter.labels["a\"b"]: must be a string, got an array`,
			`filter.labels["café"]: must be a string, got 3`,
			"filter.labels.x-y_1: must be a string, got false",
			"filter.zzz: unknown property (no properties are allowed)",
			"filter.id: required property is missing",
			`color: must be one of "red", "green", "blue", got "purple"`,
			"extra: unknown property " + allowed,
			`recursive: must be a boolean, got "yes"`,
			`matrix[0][1]: must be an integer, got "x"`,
			"matrix[1]: must be an array, got 7",
			"matrix[2][0]: must be an integer ≤ 2147483647, got 1e10",
			"matrix[2][1]: must be an integer, got 2.5",
			`arguments[""]: unknown property ` + allowed,
			`arguments["a.b"]: unknown property ` + allowed,
		}
		if !reflect.DeepEqual(ve.Violations, want) {
			t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(ve.Violations, "\n"), strings.Join(want, "\n"))
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "invalid arguments (22 problems):\n- pattern: must be a string, got 5\n- limit:") {
			t.Errorf("Error() = %q", msg)
		}
	})
	t.Run("missing", func(t *testing.T) {
		_, err := decDecodeArgs([]byte(`{"filter": {"id": 1}}`))
		if err == nil || err.Error() != "invalid arguments: pattern: required property is missing" {
			t.Errorf("Err() = %v", err)
		}
	})
	t.Run("root not an object", func(t *testing.T) {
		_, err := decDecodeArgs([]byte(`[1]`))
		if err == nil || err.Error() != "invalid arguments: arguments: must be an object, got an array" {
			t.Errorf("Err() = %v", err)
		}
	})
	t.Run("syntax error stops", func(t *testing.T) {
		_, err := decDecodeArgs([]byte(`{"pattern": 5, "tags": ["a", "b",], "limit": 500}`))
		var se *rt.SyntaxError
		if !errors.As(err, &se) {
			t.Fatalf("Err() = %v, want *SyntaxError", err)
		}
		if se.Offset != 33 {
			t.Errorf("Offset = %d, want 33 (%v)", se.Offset, se)
		}
		if got, want := se.Error(), "invalid JSON at offset 33: unexpected character ']'; expected a value"; got != want {
			t.Errorf("Error() = %q, want %q", got, want)
		}
	})
}

func TestDecoderPaths(t *testing.T) {
	// decAt reads in to the first number and records a violation there.
	decAt := func(in, root string) string {
		d := rt.NewDecoder([]byte(in), root)
		var walk func()
		walk = func() {
			switch d.Peek() {
			case rt.ObjectValue:
				d.Object()
				for {
					if _, ok := d.Field(); !ok {
						return
					}
					walk()
				}
			case rt.ArrayValue:
				d.Array()
				for d.Elem() {
					walk()
				}
			case rt.NumberValue:
				d.Int(64)
				d.Violation("here")
			default:
				d.Skip()
			}
		}
		walk()
		var ve *rt.ValidationError
		if err := d.Err(); !errors.As(err, &ve) || len(ve.Violations) != 1 {
			return "error: " + err.Error()
		}
		return ve.Violations[0]
	}
	tests := []struct{ in, root, want string }{
		{`1`, "arguments", "arguments: here"},
		{`1`, "", "here"},
		{`{"limit": 1}`, "arguments", "limit: here"},
		{`{"limit": 1}`, "", "limit: here"},
		{`{"filter": {"name": 1}}`, "arguments", "filter.name: here"},
		{`{"tags": ["a", "b", 1]}`, "arguments", "tags[2]: here"},
		{`{"opts": {"labels": {"env": 1}}}`, "arguments", "opts.labels.env: here"},
		{`{"labels": {"a b": 1}}`, "arguments", `labels["a b"]: here`},
		{`{"labels": {"a.b": 1}}`, "arguments", `labels["a.b"]: here`},
		{`{"labels": {"1a": 1}}`, "arguments", `labels["1a"]: here`},
		{`{"labels": {"_a-1": 1}}`, "arguments", `labels._a-1: here`},
		{`{"labels": {"-a": 1}}`, "arguments", `labels["-a"]: here`},
		{`{"labels": {"": 1}}`, "arguments", `labels[""]: here`},
		{`{"labels": {"a\\b\n": 1}}`, "arguments", `labels["a\\b\n"]: here`},
		{`{"labels": {"\u0001": 1}}`, "arguments", `labels["\u0001"]: here`},
		{`{"labels": {"\r\t\f": 1}}`, "arguments", `labels["\r\t\u000c"]: here`},
		{`{"l\u0061bels": {"k": 1}}`, "arguments", `labels.k: here`},
		{`{"a b": 1}`, "arguments", `arguments["a b"]: here`},
		{`{"a b": 1}`, "", `["a b"]: here`},
		{`[1]`, "arguments", `arguments[0]: here`},
		{`[[], ["s", [1]]]`, "args", `args[1][1][0]: here`},
		{`[{"a": [{"b": 1}]}]`, "x", `x[0].a[0].b: here`},
		{`{"a": "x", "b": {"c": "y"}, "d": 1}`, "arguments", `d: here`},
		{`{"a": [], "b": {}, "c": [[]], "d": [1]}`, "arguments", `d[0]: here`},
	}
	for _, tc := range tests {
		if got := decAt(tc.in, tc.root); got != tc.want {
			t.Errorf("%s (root %q): got %q, want %q", tc.in, tc.root, got, tc.want)
		}
	}
}

func TestDecoderViolationMethods(t *testing.T) {
	violations := func(d *rt.Decoder) []string {
		var ve *rt.ValidationError
		if err := d.Err(); !errors.As(err, &ve) {
			t.Fatalf("Err() = %v, want *ValidationError", err)
		}
		return ve.Violations
	}
	t.Run("root", func(t *testing.T) {
		d := rt.NewDecoder([]byte(`{}`), "arguments")
		d.Invalid("must be something")
		d.Violation("free text")
		d.Object()
		d.Invalid("must have a property")
		d.Missing("name")
		d.Missing("a b")
		if _, ok := d.Field(); ok {
			t.Fatal("Field() = true on {}")
		}
		d.Invalid("must not be empty")
		d.Missing("name")
		d.Missing("a b")
		d.Violation("after")
		want := []string{
			"arguments: must be something",
			"arguments: free text",
			"arguments: must have a property, got an object",
			"name: required property is missing",
			`arguments["a b"]: required property is missing`,
			"arguments: must not be empty, got an object",
			"name: required property is missing",
			`arguments["a b"]: required property is missing`,
			"arguments: after",
		}
		if got := violations(d); !reflect.DeepEqual(got, want) {
			t.Errorf("got %q\nwant %q", got, want)
		}
	})
	t.Run("empty root name", func(t *testing.T) {
		d := rt.NewDecoder([]byte(`5`), "")
		d.Object()
		d.Missing("x")
		want := []string{"must be an object, got 5", "x: required property is missing"}
		if got := violations(d); !reflect.DeepEqual(got, want) {
			t.Errorf("got %q\nwant %q", got, want)
		}
	})
	t.Run("nested", func(t *testing.T) {
		d := rt.NewDecoder([]byte(`{"opts": {"x": 1, "y": [true]}, "z": {}}`), "arguments")
		d.Object()
		d.Field() // opts
		d.Object()
		d.Field() // x
		d.Unknown("a, b")
		d.Field() // y
		d.Unknown("")
		if _, ok := d.Field(); ok {
			t.Fatal("Field() = true at the end of opts")
		}
		d.Missing("a")
		d.Missing("with space")
		k, _ := d.Field()
		if string(k) != "z" {
			t.Fatalf("Field() = %q, want z", k)
		}
		d.Violation("custom")
		d.Skip()
		d.Invalid("must be non-empty")
		want := []string{
			"opts.x: unknown property (allowed: a, b)",
			"opts.y: unknown property (no properties are allowed)",
			"opts.a: required property is missing",
			`opts["with space"]: required property is missing`,
			"z: custom",
			"z: must be non-empty, got an object",
		}
		if got := violations(d); !reflect.DeepEqual(got, want) {
			t.Errorf("got %q\nwant %q", got, want)
		}
	})
	t.Run("invalid after scalar", func(t *testing.T) {
		d := rt.NewDecoder([]byte(`[500, "purple", null, true, -1.5e3, ["x"]]`), "arguments")
		d.Array()
		d.Elem()
		d.Int(64)
		d.Invalid("must be an integer ≤ 100")
		d.Elem()
		d.String()
		d.Invalid(`must be one of "red", "green"`)
		d.Elem()
		d.Null()
		d.Invalid("must not be null")
		d.Elem()
		d.Bool()
		d.Invalid("must be false")
		d.Elem()
		d.Float(64)
		d.Invalid("must be positive")
		d.Elem()
		d.Raw()
		d.Invalid("must be empty")
		want := []string{
			"arguments[0]: must be an integer ≤ 100, got 500",
			`arguments[1]: must be one of "red", "green", got "purple"`,
			"arguments[2]: must not be null, got null",
			"arguments[3]: must be false, got true",
			"arguments[4]: must be positive, got -1.5e3",
			"arguments[5]: must be empty, got an array",
		}
		if got := violations(d); !reflect.DeepEqual(got, want) {
			t.Errorf("got %q\nwant %q", got, want)
		}
	})
	t.Run("unknown skips", func(t *testing.T) {
		d := rt.NewDecoder([]byte(`{"bad": {"deep": [1, {"x": 2}]}, "good": 3}`), "arguments")
		d.Object()
		d.Field()
		d.Unknown("good")
		k, ok := d.Field()
		if !ok || string(k) != "good" {
			t.Fatalf("Field() = %q, %v; want good", k, ok)
		}
		if n, ok := d.Int(64); !ok || n != 3 {
			t.Fatalf("Int() = %d, %v", n, ok)
		}
		if _, ok := d.Field(); ok {
			t.Fatal("Field() = true at the end")
		}
		want := []string{"bad: unknown property (allowed: good)"}
		if got := violations(d); !reflect.DeepEqual(got, want) {
			t.Errorf("got %q\nwant %q", got, want)
		}
	})
	t.Run("no violations after syntax error", func(t *testing.T) {
		d := rt.NewDecoder([]byte(`{"a": 1 "b"}`), "arguments")
		d.Object()
		d.Field()
		d.Invalid("before")
		if _, ok := d.Field(); ok {
			t.Fatal("Field() = true after a syntax error")
		}
		d.Invalid("after")
		d.Violation("after")
		d.Missing("after")
		d.Unknown("after")
		var se *rt.SyntaxError
		if err := d.Err(); !errors.As(err, &se) {
			t.Fatalf("Err() = %v, want *SyntaxError", err)
		}
		if !d.Failed() {
			t.Error("Failed() = false")
		}
	})
}

func TestDecoderErrors(t *testing.T) {
	one := &rt.ValidationError{Violations: []string{"limit: must be an integer ≤ 100, got 500"}}
	if got, want := one.Error(), "invalid arguments: limit: must be an integer ≤ 100, got 500"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if got := (&rt.ValidationError{}).Error(); got != "invalid arguments" {
		t.Errorf("Error() without violations = %q", got)
	}
	two := &rt.ValidationError{Violations: []string{"a: x", "b: y"}}
	if got, want := two.Error(), "invalid arguments (2 problems):\n- a: x\n- b: y"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	se := &rt.SyntaxError{Offset: 12, Msg: "unexpected character '}'"}
	if got, want := se.Error(), "invalid JSON at offset 12: unexpected character '}'"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	kinds := map[rt.ValueKind]string{
		rt.NoValue: "nothing", rt.NullValue: "null", rt.BoolValue: "boolean", rt.NumberValue: "number",
		rt.StringValue: "string", rt.ArrayValue: "array", rt.ObjectValue: "object", rt.ValueKind(99): "nothing",
	}
	for k, want := range kinds {
		if got := k.String(); got != want {
			t.Errorf("ValueKind(%d).String() = %q, want %q", k, got, want)
		}
	}
}

func TestDecoderPeek(t *testing.T) {
	tests := []struct {
		in   string
		want rt.ValueKind
	}{
		{"null", rt.NullValue}, {"true", rt.BoolValue}, {"false", rt.BoolValue},
		{"-1", rt.NumberValue}, {"0", rt.NumberValue}, {`"x"`, rt.StringValue},
		{"[]", rt.ArrayValue}, {"{}", rt.ObjectValue}, {"  {}", rt.ObjectValue},
		{"", rt.NoValue}, {"   ", rt.NoValue}, {"x", rt.NoValue}, {"]", rt.NoValue}, {"+1", rt.NoValue},
	}
	for _, tc := range tests {
		d := rt.NewDecoder([]byte(tc.in), "")
		if got := d.Peek(); got != tc.want {
			t.Errorf("Peek(%q) = %v, want %v", tc.in, got, tc.want)
		}
		if got := d.Peek(); got != tc.want {
			t.Errorf("second Peek(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
	d := rt.NewDecoder([]byte(`[1, {"a": null}]`), "")
	steps := []struct {
		do   func() bool
		peek rt.ValueKind
	}{
		{func() bool { return true }, rt.ArrayValue},
		{d.Array, rt.NoValue}, // before Elem no value is expected
		{d.Elem, rt.NumberValue},
		{func() bool { d.Skip(); return true }, rt.NoValue},
		{d.Elem, rt.ObjectValue},
		{d.Object, rt.NoValue},
		{func() bool { _, ok := d.Field(); return ok }, rt.NullValue},
		{d.Null, rt.NoValue},
		{func() bool { _, ok := d.Field(); return !ok }, rt.NoValue},
		{func() bool { return !d.Elem() }, rt.NoValue},
	}
	for i, s := range steps {
		if !s.do() {
			t.Fatalf("step %d failed", i)
		}
		if got := d.Peek(); got != s.peek {
			t.Errorf("step %d: Peek() = %v, want %v", i, got, s.peek)
		}
	}
	if err := d.Err(); err != nil {
		t.Errorf("Err() = %v", err)
	}
}

// decSyntaxCases are malformed documents.
var decSyntaxCases = []string{
	"", " ", "\n\t\r ", "{", "}", "[", "]", ",", ":", "[1,]", "[,1]", "[1 2]", "[1,,2]", "{,}",
	`{"a"}`, `{"a":}`, `{"a":1,}`, `{"a" 1}`, `{a:1}`, `{"a":1 "b":2}`, `{"a":1,,"b":2}`, `{1:2}`,
	`{"a"::1}`, `{"a":1:2}`, `["a":1]`, `{"a",1}`, "{'a':1}",
	"tru", "truex", "TRUE", "nul", "nulll", "fals", "falsee", "nan", "NaN", "Infinity", "-Infinity", "undefined",
	"01", "-01", "00", "1.", ".5", "-", "--1", "+1", "1e", "1e+", "1E-", "1.e5", "0x10", "1.5.5", "1e5e5", "-.5", "- 1", "1_000",
	`"abc`, `"\x"`, `"\u12"`, `"\u12G4"`, `"\u"`, "\"a\x01b\"", "\"\t\"", "\"\n\"", "\"\x00\"", "\"\x1f\"", `'a'`, `"\`, `"\"`, `"\U0041"`,
	"[1]]", "{}}", "1 2", `{"a":1}x`, "[\"a\"\n", "\xef\xbb\xbf{}", "[1,2", `{"a":[}`, `[{]`, `{"a":{"b":[1,2}}`, "\x00", "[-]", "[1e]", "[\"\\", "// c\n1", "/* c */ 1",
	`{"a":1,"a"}`, `[true false]`, `[null,]`, `{"a":tru}`, `{"a":nul}`, `[0.]`, `{"a":-}`, "[\"\\u00\"]", "[1]\x00", "1\x00", "\u00a01", "1\u2028",
	`{"a":[1,{"b":2]}`, `[[[[[[[[]]]]]]]`, `{"a":{"b":{}}`, `{"\x01":1}`, "{\"a\\q\":1}",
}

func TestDecoderSyntaxErrors(t *testing.T) {
	for _, in := range decSyntaxCases {
		if json.Valid([]byte(in)) {
			t.Errorf("%q: json.Valid accepts a syntax case", in)
			continue
		}
		check := func(how string, d *rt.Decoder) {
			t.Helper()
			err := d.Err()
			var se *rt.SyntaxError
			if !errors.As(err, &se) {
				t.Errorf("%q (%s): Err() = %v, want *SyntaxError", in, how, err)
				return
			}
			if se.Offset < 0 || se.Offset > len(in) {
				t.Errorf("%q (%s): offset %d out of range", in, how, se.Offset)
			}
			if !d.Failed() {
				t.Errorf("%q (%s): Failed() = false", in, how)
			}
			// Everything is inert after a syntax error.
			if d.Peek() != rt.NoValue || d.Null() || d.Object() || d.Array() || d.Elem() {
				t.Errorf("%q (%s): calls succeed after a syntax error", in, how)
			}
			if _, ok := d.Field(); ok {
				t.Errorf("%q (%s): Field succeeds after a syntax error", in, how)
			}
			if _, ok := d.String(); ok {
				t.Errorf("%q (%s): String succeeds after a syntax error", in, how)
			}
			if _, ok := d.Raw(); ok {
				t.Errorf("%q (%s): Raw succeeds after a syntax error", in, how)
			}
			if err2 := d.Err(); err2 != err {
				t.Errorf("%q (%s): Err() changed from %v to %v", in, how, err, err2)
			}
		}
		d := rt.NewDecoder([]byte(in), "arguments")
		decWalk(d)
		check("walk", d)
		d = rt.NewDecoder([]byte(in), "arguments")
		d.Skip()
		check("skip", d)
		d = rt.NewDecoder([]byte(in), "arguments")
		check("unread", d)
		d = rt.NewDecoder([]byte(in), "arguments")
		decArgsInto(d, new(decArgs))
		check("generated", d)
	}
}

func TestDecoderSyntaxMessages(t *testing.T) {
	tests := []struct {
		in     string
		offset int
		msg    string
	}{
		{``, 0, "unexpected end of input; expected a value"},
		{`  }`, 2, "unexpected character '}'; expected a value"},
		{`[1,]`, 3, "unexpected character ']'; expected a value"},
		{`[1 2]`, 3, "unexpected character '2'; expected ',' or ']' after array element"},
		{`{"a" 1}`, 5, "unexpected character '1'; expected ':' after property name"},
		{`{"a":1,}`, 7, "unexpected character '}'; expected a property name"},
		{`{'a':1}`, 1, `unexpected character '\''; expected a property name or '}'`},
		{`{"a":1]`, 6, "unexpected character ']'; expected ',' or '}' after property value"},
		{`{"a":1} x`, 8, "unexpected character 'x' after top-level value"},
		{`tru`, 3, "unexpected end of input in literal true"},
		{`nulx`, 3, "unexpected character 'x' in literal null"},
		{`01`, 1, "unexpected character '1' after top-level value"},
		{`1.x`, 2, "unexpected character 'x' in number (expected a digit after '.')"},
		{`-`, 1, "unexpected end of input in number (expected a digit)"},
		{`1e+`, 3, "unexpected end of input in number (expected a digit in the exponent)"},
		{`"ab`, 3, "unexpected end of input in string"},
		{`"a\q"`, 3, "unexpected character 'q' in string escape"},
		{`"\u12x4"`, 5, "unexpected character 'x' in \\u escape (expected 4 hexadecimal digits)"},
		{"\"a\x01\"", 2, `invalid control character '\x01' in string (it must be escaped)`},
		{"\xff", 0, `unexpected character '\xff'; expected a value`},
	}
	for _, tc := range tests {
		for _, how := range []string{"walk", "skip"} {
			d := rt.NewDecoder([]byte(tc.in), "")
			if how == "walk" {
				decWalk(d)
			} else {
				d.Skip()
			}
			var se *rt.SyntaxError
			if err := d.Err(); !errors.As(err, &se) {
				t.Errorf("%q (%s): Err() = %v, want *SyntaxError", tc.in, how, err)
				continue
			}
			if se.Offset != tc.offset || se.Msg != tc.msg {
				t.Errorf("%q (%s): got offset %d %q, want %d %q", tc.in, how, se.Offset, se.Msg, tc.offset, tc.msg)
			}
		}
	}
}

func TestDecoderDepth(t *testing.T) {
	nest := func(n int, open, close string) []byte {
		return []byte(strings.Repeat(open, n) + "1" + strings.Repeat(close, n))
	}
	for _, tc := range []struct {
		open, close string
	}{{"[", "]"}, {`{"a":`, "}"}, {`[{"a":`, "}]"}} {
		for _, n := range []int{9999, 10000, 10001, 20000} {
			data := nest(n, tc.open, tc.close)
			levels := n * (strings.Count(tc.open, "[") + strings.Count(tc.open, "{"))
			wantOK := levels <= 10000
			if json.Valid(data) != wantOK {
				t.Fatalf("json.Valid disagrees on depth %d", levels)
			}
			for _, how := range []string{"walk", "skip", "unread", "partial"} {
				d := rt.NewDecoder(data, "")
				switch how {
				case "walk":
					decWalk(d)
				case "skip":
					d.Skip()
				case "partial":
					for i := 0; i < 100; i++ {
						switch d.Peek() {
						case rt.ObjectValue:
							d.Object()
							d.Field()
						case rt.ArrayValue:
							d.Array()
							d.Elem()
						}
					}
				}
				err := d.Err()
				var se *rt.SyntaxError
				if wantOK && err != nil {
					t.Errorf("%s depth %d (%s): Err() = %v", tc.open, levels, how, err)
				}
				if !wantOK && !errors.As(err, &se) {
					t.Errorf("%s depth %d (%s): Err() = %v, want *SyntaxError", tc.open, levels, how, err)
				}
			}
		}
	}
}

func TestDecoderReuse(t *testing.T) {
	d := rt.NewDecoder(nil, "")
	deep := []byte(strings.Repeat(`{"k\n":[`, 3000) + strings.Repeat("]}", 3000))
	for round := 0; round < 3; round++ {
		for _, in := range [][]byte{deep, []byte(`{"a": 5}`), []byte(`[1,`), []byte(`"x"`)} {
			want := json.Valid(in)
			d.Reset(in, "")
			decWalk(d)
			if err := d.Err(); (err == nil) != want {
				t.Fatalf("round %d, %.20q: Err() = %v, json.Valid = %v", round, in, err, want)
			}
		}
	}
	d.Reset([]byte(`5`), "")
	d.String()
	err := d.Err()
	d.Reset([]byte(`true`), "")
	d.String()
	if err.Error() != "invalid arguments: must be a string, got 5" {
		t.Errorf("an error returned before Reset changed: %v", err)
	}
}

func TestDecoderMisuse(t *testing.T) {
	t.Run("zero decoder", func(t *testing.T) {
		var d rt.Decoder
		decCallEverything(&d)
		var se *rt.SyntaxError
		if err := d.Err(); !errors.As(err, &se) {
			t.Errorf("Err() = %v, want *SyntaxError for empty input", err)
		}
	})
	t.Run("field without object", func(t *testing.T) {
		d := rt.NewDecoder([]byte(`{"a": 1}`), "")
		if _, ok := d.Field(); ok {
			t.Error("Field() = true before Object()")
		}
		if d.Elem() {
			t.Error("Elem() = true before Array()")
		}
		if !d.Object() {
			t.Fatal("Object() = false")
		}
		if d.Elem() {
			t.Error("Elem() = true inside an object")
		}
		if d.Array() {
			t.Error("Array() = true where a property name is expected")
		}
		if s, ok := d.String(); ok {
			t.Errorf("String() = %q, true where a property name is expected", s)
		}
		if err := d.Err(); err != nil {
			t.Errorf("Err() = %v", err)
		}
	})
	t.Run("values left unread", func(t *testing.T) {
		d := rt.NewDecoder([]byte(`{"a": [1, {"b": 2}], "b": "x", "c": {"d": [3]}}`), "")
		d.Object()
		var keys []string
		for {
			k, ok := d.Field()
			if !ok {
				break
			}
			keys = append(keys, string(k))
		}
		if want := []string{"a", "b", "c"}; !reflect.DeepEqual(keys, want) {
			t.Errorf("keys = %q, want %q", keys, want)
		}
		if err := d.Err(); err != nil {
			t.Errorf("Err() = %v", err)
		}
		d.Reset([]byte(`[[1], "x", {"a": 1}, 4]`), "")
		d.Array()
		n := 0
		for d.Elem() {
			n++
		}
		if n != 4 {
			t.Errorf("Elem() looped %d times, want 4", n)
		}
		if err := d.Err(); err != nil {
			t.Errorf("Err() = %v", err)
		}
	})
	t.Run("double read", func(t *testing.T) {
		d := rt.NewDecoder([]byte(`{"a": "x", "b": 2}`), "")
		d.Object()
		d.Field()
		if s, ok := d.String(); !ok || s != "x" {
			t.Fatalf("String() = %q, %v", s, ok)
		}
		if _, ok := d.String(); ok {
			t.Error("second String() = true")
		}
		d.Skip()
		if k, ok := d.Field(); !ok || string(k) != "b" {
			t.Fatalf("Field() = %q, %v", k, ok)
		}
		if err := d.Err(); err != nil {
			t.Errorf("Err() = %v", err)
		}
	})
	t.Run("stop early", func(t *testing.T) {
		for in, wantSyntax := range map[string]bool{
			`{"a": 1, "b": [1, 2, {"c": 3}]}`:  false,
			`{"a": 1, "b": [1, 2, {"c": 3}}`:   true,
			`{"a": 1, "b": [1, 2, {"c": 3}]}}`: true,
			`{"a": 1, "b": [1, 2`:              true,
		} {
			d := rt.NewDecoder([]byte(in), "")
			d.Object()
			d.Field()
			d.Int(64)
			d.Field()
			d.Array()
			d.Elem()
			err := d.Err()
			var se *rt.SyntaxError
			if errors.As(err, &se) != wantSyntax || (!wantSyntax && err != nil) {
				t.Errorf("%s: Err() = %v, want syntax error %v", in, err, wantSyntax)
			}
		}
	})
	t.Run("read after end", func(t *testing.T) {
		d := rt.NewDecoder([]byte(`1`), "")
		d.Int(64)
		if d.Peek() != rt.NoValue || d.Null() || d.Object() || d.Array() {
			t.Error("reads succeed after the top-level value")
		}
		if _, ok := d.Int(64); ok {
			t.Error("Int() = true after the top-level value")
		}
		if err := d.Err(); err != nil {
			t.Errorf("Err() = %v", err)
		}
	})
	t.Run("arbitrary sequences", func(t *testing.T) {
		docs := []string{`{"a": [1, {"b": null}], "c": "x"}`, `[[], {}, [1, [2]], "s", true]`, `{"a": [1,}`, `5`, ``, `[`}
		for _, doc := range docs {
			for seed := 0; seed < 200; seed++ {
				ops := make([]byte, 64)
				x := uint32(seed*2654435761 + 1)
				for i := range ops {
					x ^= x << 13
					x ^= x >> 17
					x ^= x << 5
					ops[i] = byte(x)
				}
				decRunOps(rt.NewDecoder([]byte(doc), "r"), ops)
			}
		}
	})
}

// decCallEverything calls every method once.
func decCallEverything(d *rt.Decoder) {
	d.Peek()
	d.Null()
	d.String()
	d.Bool()
	d.Int(64)
	d.Uint(64)
	d.Float(64)
	d.Base64()
	d.Time()
	d.Raw()
	d.Skip()
	d.Object()
	d.Field()
	d.Array()
	d.Elem()
	d.Invalid("x")
	d.Violation("x")
	d.Missing("x")
	d.Unknown("x")
	d.Failed()
	d.Err()
}

// decRunOps drives d with one call per op byte, in any order, then checks
// that Err returns one of the documented error types and that loops end.
func decRunOps(d *rt.Decoder, ops []byte) {
	for _, op := range ops {
		switch op % 24 {
		case 0:
			d.Peek()
		case 1:
			d.Null()
		case 2:
			d.String()
		case 3:
			d.Bool()
		case 4:
			d.Int(int(op>>5) * 8)
		case 5:
			d.Uint(int(op>>5) * 8)
		case 6:
			d.Float(32)
		case 7:
			d.Base64()
		case 8:
			d.Time()
		case 9:
			d.Raw()
		case 10:
			d.Skip()
		case 11, 12:
			d.Object()
		case 13, 14:
			d.Field()
		case 15, 16:
			d.Array()
		case 17, 18:
			d.Elem()
		case 19:
			d.Invalid("x")
		case 20:
			d.Missing("m")
		case 21:
			d.Unknown("")
		case 22:
			for d.Elem() {
			}
		case 23:
			for {
				if _, ok := d.Field(); !ok {
					break
				}
			}
		}
	}
	switch d.Err().(type) {
	case nil, *rt.SyntaxError, *rt.ValidationError:
	default:
		panic("unexpected error type")
	}
}

// decWalk reads any value generically.
func decWalk(d *rt.Decoder) any {
	switch d.Peek() {
	case rt.NullValue:
		d.Null()
		return nil
	case rt.BoolValue:
		v, _ := d.Bool()
		return v
	case rt.NumberValue:
		v, _ := d.Float(64)
		return v
	case rt.StringValue:
		v, _ := d.String()
		return v
	case rt.ArrayValue:
		a := []any{}
		if d.Array() {
			for d.Elem() {
				a = append(a, decWalk(d))
			}
		}
		return a
	case rt.ObjectValue:
		m := map[string]any{}
		if d.Object() {
			for {
				k, ok := d.Field()
				if !ok {
					break
				}
				key := string(k)
				m[key] = decWalk(d)
			}
		}
		return m
	}
	d.Skip()
	return nil
}

// decTrimWS trims JSON whitespace.
func decTrimWS(b []byte) []byte {
	return bytes.Trim(b, " \t\r\n")
}

// decDifferential checks the Decoder against encoding/json on data.
func decDifferential(t *testing.T, d *rt.Decoder, data []byte) {
	t.Helper()
	valid := json.Valid(data)
	var se *rt.SyntaxError
	var ve *rt.ValidationError

	d.Reset(data, "arguments")
	got := decWalk(d)
	err := d.Err()
	if isSyntax := errors.As(err, &se); isSyntax == valid {
		t.Fatalf("%q: walk Err() = %v, json.Valid = %v", data, err, valid)
	}
	if valid {
		var want any
		if uerr := json.Unmarshal(data, &want); uerr != nil {
			if !errors.As(err, &ve) {
				t.Fatalf("%q: json.Unmarshal fails (%v) but walk Err() = %v", data, uerr, err)
			}
		} else {
			if err != nil {
				t.Fatalf("%q: walk Err() = %v, json.Unmarshal succeeds", data, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%q: walk = %#v, json.Unmarshal = %#v", data, got, want)
			}
		}
	}

	d.Reset(data, "")
	d.Skip()
	err = d.Err()
	if valid != (err == nil) || (!valid && !errors.As(err, &se)) {
		t.Fatalf("%q: Skip Err() = %v, json.Valid = %v", data, err, valid)
	}

	d.Reset(data, "")
	raw, ok := d.Raw()
	if ok != valid && valid {
		t.Fatalf("%q: Raw() = false on valid JSON", data)
	}
	if valid && !bytes.Equal(raw, decTrimWS(data)) {
		t.Fatalf("%q: Raw() = %q", data, raw)
	}
	if err := d.Err(); valid != (err == nil) {
		t.Fatalf("%q: Raw Err() = %v, json.Valid = %v", data, err, valid)
	}

	d.Reset(data, "")
	if err := d.Err(); valid != (err == nil) {
		t.Fatalf("%q: unread Err() = %v, json.Valid = %v", data, err, valid)
	}

	if !valid {
		return
	}
	switch v := decTrimWS(data); v[0] {
	case '"':
		d.Reset(data, "")
		got, ok := d.Base64()
		var want []byte
		if err := json.Unmarshal(data, &want); (err == nil) != ok || !bytes.Equal(got, want) {
			t.Fatalf("%q: Base64() = %q, %v; json.Unmarshal = %q, %v", data, got, ok, want, err)
		}
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		decNumberOracle(t, d, v)
	}
}

// decNumberOracle checks the numeric reads of the JSON number text against
// exact rational arithmetic and encoding/json.
func decNumberOracle(t *testing.T, d *rt.Decoder, text []byte) {
	t.Helper()
	var f32 float32
	uerr := json.Unmarshal(text, &f32)
	d.Reset(text, "")
	got32, ok := d.Float(32)
	if ok != (uerr == nil) || (ok && float32(got32) != f32) {
		t.Fatalf("%s: Float(32) = %v, %v; json.Unmarshal = %v, %v", text, got32, ok, f32, uerr)
	}

	// Exponents too large for big.Rat are decided by their sign alone.
	var exact *big.Rat
	if e := bytes.IndexAny(text, "eE"); e < 0 || len(text)-e < 6 {
		exact, _ = new(big.Rat).SetString(string(text))
	}
	if exact == nil {
		return
	}
	for _, bits := range []int{8, 16, 32, 64} {
		lo := new(big.Int).Lsh(big.NewInt(-1), uint(bits-1))
		hi := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(bits-1)), big.NewInt(1))
		wantOK := exact.IsInt() && exact.Num().Cmp(lo) >= 0 && exact.Num().Cmp(hi) <= 0
		d.Reset(text, "")
		n, ok := d.Int(bits)
		if ok != wantOK || (ok && n != exact.Num().Int64()) {
			t.Fatalf("%s: Int(%d) = %d, %v; want %v, %v", text, bits, n, ok, exact, wantOK)
		}
		uhi := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(bits)), big.NewInt(1))
		wantOK = exact.IsInt() && exact.Num().Sign() >= 0 && exact.Num().Cmp(uhi) <= 0
		d.Reset(text, "")
		u, ok := d.Uint(bits)
		if ok != wantOK || (ok && u != exact.Num().Uint64()) {
			t.Fatalf("%s: Uint(%d) = %d, %v; want %v, %v", text, bits, u, ok, exact, wantOK)
		}
	}
}

// decValidCases are well-formed documents.
var decValidCases = []string{
	`null`, `true`, `false`, `0`, `-0`, `1`, `-1`, `1.5`, `-1.5e-3`, `1E10`, `1e+10`, `0.0`, `1e400`, `-1e400`, `1e-400`,
	`12345678901234567890`, `3.141592653589793238462643383279502884197`, `""`, `"abc"`, `"\u00e9"`, `"\ud83d\ude00"`,
	`"\ud83d"`, `"\ude00\ud83d"`, "\"\xff\xfe\"", "\"\xed\xa0\x80\"", `"\"\\\/\b\f\n\r\t"`, `[]`, `{}`, ` [ ] `, `[1,2,3]`,
	`{"a":1,"b":[true,false,null],"c":{"d":"e"}}`, `{"a":1,"a":2}`, `[[[[]]]]`, `[{},{"":""}]`, "\t\r\n {\"a\" : [ 1 , 2 ] } \n",
	`{"pattern":"*.go","limit":10,"recursive":true}`, `{"a\u0000b":1}`, "{\"\xff\":1}", `{"\ud800":1,"\ufffd":2}`,
	`[1e999, 2]`, `{"x": -0.0, "y": 0e0, "z": 1E-0}`,
}

func TestDecoderDifferential(t *testing.T) {
	d := rt.NewDecoder(nil, "")
	for _, in := range decValidCases {
		if !json.Valid([]byte(in)) {
			t.Errorf("%q: json.Valid rejects a valid case", in)
		}
		decDifferential(t, d, []byte(in))
	}
	for _, in := range decSyntaxCases {
		decDifferential(t, d, []byte(in))
	}
	decDifferential(t, d, decDoc1K)
	for _, in := range decNumberCases {
		decDifferential(t, d, []byte(in))
	}
}

// decNumberCases are numbers at the edges of the integer and float types.
var decNumberCases = []string{
	"127", "128", "-128", "-129", "255", "256", "32767", "32768", "-32769", "65535", "65536",
	"2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295", "4294967296",
	"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
	"18446744073709551615", "18446744073709551616", "99999999999999999999", "100000000000000000000",
	"1.8446744073709551615e19", "1.8446744073709551616e19", "9.223372036854775807e18", "-9.223372036854775808e18",
	"1e2", "1E+2", "100e-2", "101e-2", "0.5", "-0.5", "-0", "-0.0", "0e5", "0.000e-5", "1.0", "12.500e1", "12.5e0",
	"123456789012345678901234567890e-20", "1e19", "1e20", "10000000000000000000.0", "0.1e1", "0.01e1",
	"3.4028234663852886e38", "3.4028235677973366e38", "3.4028235677973367e38", "1e39", "-1e39", "1e-46", "1.4e-45",
	"1.9e19", "-1.9e19", "16777216", "16777217", "9999999", "99999999", "123456789012345", "1234567890123456", "-7",
}

func FuzzDecoder(f *testing.F) {
	for _, in := range decValidCases {
		f.Add([]byte(in))
	}
	for _, in := range decSyntaxCases {
		f.Add([]byte(in))
	}
	f.Add(decDoc1K)
	for _, in := range decNumberCases {
		f.Add([]byte(in))
	}
	f.Add([]byte(`{"pattern": 5, "limit": 500, "tags": ["a", null], "filter": {"labels": {"a b": 1}}}`))
	d := rt.NewDecoder(nil, "")
	f.Fuzz(func(t *testing.T, data []byte) {
		decDifferential(t, d, data)
		// The generated-code shape and arbitrary call sequences must not
		// panic or loop, whatever the input.
		a := rt.NewDecoder(data, "arguments")
		decArgsInto(a, new(decArgs))
		a.Err()
		decRunOps(rt.NewDecoder(data, "arguments"), data)
	})
}

func TestDecoderAllocs(t *testing.T) {
	args := []byte(`{"pattern":"*.go","limit":10,"recursive":true}`)
	d := rt.NewDecoder(nil, "")
	decode := func() {
		d.Reset(args, "arguments")
		var a decArgs
		decArgsInto(d, &a)
		if d.Err() != nil || a.Pattern != "*.go" {
			t.Fatal("bad decode")
		}
	}
	decode()
	if n := testing.AllocsPerRun(100, decode); n != 1 {
		t.Errorf("decoding typical arguments: %v allocations, want 1 (the pattern string)", n)
	}

	noString := []byte(`{"n": [1, -2, 3.5, 1e3, true, false, null, {"k\u00e9y": {}, "k": []}], "x": -0.125}`)
	walk := func() {
		d.Reset(noString, "")
		decWalkScalars(d)
		if d.Err() != nil {
			t.Fatal("bad walk")
		}
	}
	walk()
	if n := testing.AllocsPerRun(100, walk); n != 0 {
		t.Errorf("walking without strings: %v allocations, want 0", n)
	}
	ints := []byte(`[1, -2, 3.0, 1e3, -9223372036854775808, 9.2e18]`)
	readInts := func() {
		d.Reset(ints, "")
		d.Array()
		for d.Elem() {
			d.Int(64)
		}
		if d.Err() != nil {
			t.Fatal("bad ints")
		}
	}
	if n := testing.AllocsPerRun(100, readInts); n != 0 {
		t.Errorf("reading integers: %v allocations, want 0", n)
	}

	skip := func() {
		d.Reset(decDoc1K, "")
		d.Skip()
		if d.Err() != nil {
			t.Fatal("bad skip")
		}
	}
	skip()
	if n := testing.AllocsPerRun(100, skip); n != 0 {
		t.Errorf("Skip: %v allocations, want 0", n)
	}

	for _, s := range []string{`"plain"`, `"esc\naped \u00e9 \ud83d\ude00"`, "\"bad \xff utf8\"", `"` + strings.Repeat(`\"`, 500) + `"`} {
		data := []byte(s)
		want := ""
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatal(err)
		}
		fresh := func() {
			d := rt.NewDecoder(data, "")
			if v, _ := d.String(); v != want {
				t.Fatalf("String() = %q, want %q", v, want)
			}
		}
		if n := testing.AllocsPerRun(100, fresh); n != 1 {
			t.Errorf("String() on %.20q with a new Decoder: %v allocations, want 1", s, n)
		}
	}
}

// decWalkScalars walks any value, reading all but strings.
func decWalkScalars(d *rt.Decoder) {
	switch d.Peek() {
	case rt.ObjectValue:
		d.Object()
		for {
			if _, ok := d.Field(); !ok {
				return
			}
			decWalkScalars(d)
		}
	case rt.ArrayValue:
		d.Array()
		for d.Elem() {
			decWalkScalars(d)
		}
	case rt.NumberValue:
		d.Float(64)
	case rt.BoolValue:
		d.Bool()
	default:
		if !d.Null() {
			d.Skip()
		}
	}
}

// decDoc1K is a document of about 1 KB.
var decDoc1K = []byte(`{
  "query": "find all \"TODO\" comments in *.go files",
  "paths": ["/src/project/cmd", "/src/project/internal/server", "/src/project/pkg/api", "/src/project/runtime"],
  "limit": 250, "offset": 0, "recursive": true, "caseSensitive": false, "threshold": 0.875,
  "filters": {
    "languages": ["go", "typescript", "python"],
    "exclude": {"dirs": ["vendor", "node_modules", ".git"], "patterns": ["*_test.go", "*.pb.go"]},
    "modifiedAfter": "2024-01-15T09:30:00Z", "maxSizeBytes": 1048576
  },
  "labels": {"team": "platform", "priority": "high", "ticket": "PLAT-1234", "owner": "jane.doe@example.com"},
  "ranges": [[1, 10], [20, 35], [100, 250], [1000, 1e4]],
  "options": {"highlight": {"pre": "<em>", "post": "</em>", "fragmentSize": 150}, "sort": [{"field": "path", "order": "asc"}, {"field": "line", "order": "desc"}]},
  "notes": "Line one\nLine two\tindented\nUnicode: caf\u00e9 \u2713 \ud83d\ude80 done",
  "metadata": {"requestId": "7f3c9a2e-1b4d-4e8f-9a6c-2d5e8f1a3b7c", "client": {"name": "assistant", "version": "1.4.2"}, "retries": 3, "timeoutMs": 30000, "tags": null}
}`)

func BenchmarkDecodeArgs(b *testing.B) {
	args := []byte(`{"pattern":"*.go","limit":10,"recursive":true}`)
	type searchArgs struct {
		Pattern   string `json:"pattern"`
		Limit     int    `json:"limit"`
		Recursive bool   `json:"recursive"`
	}
	b.Run("Decoder", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(args)))
		d := rt.NewDecoder(nil, "")
		for b.Loop() {
			d.Reset(args, "arguments")
			var a searchArgs
			if d.Object() {
				for {
					k, ok := d.Field()
					if !ok {
						break
					}
					switch string(k) {
					case "pattern":
						a.Pattern, _ = d.String()
					case "limit":
						n, _ := d.Int(64)
						a.Limit = int(n)
					case "recursive":
						a.Recursive, _ = d.Bool()
					default:
						d.Unknown("pattern, limit, recursive")
					}
				}
			}
			if d.Err() != nil || a.Limit != 10 {
				b.Fatal("bad decode")
			}
		}
	})
	b.Run("NewDecoder", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(args)))
		for b.Loop() {
			var a decArgs
			decArgsInto(rt.NewDecoder(args, "arguments"), &a)
		}
	})
	b.Run("json.Unmarshal", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(args)))
		for b.Loop() {
			var a searchArgs
			if err := json.Unmarshal(args, &a); err != nil || a.Limit != 10 {
				b.Fatal("bad decode")
			}
		}
	})
}

func BenchmarkSkip1K(b *testing.B) {
	b.Run("Decoder.Skip", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(decDoc1K)))
		d := rt.NewDecoder(nil, "")
		for b.Loop() {
			d.Reset(decDoc1K, "")
			d.Skip()
			if d.Err() != nil {
				b.Fatal("bad skip")
			}
		}
	})
	b.Run("json.Valid", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(decDoc1K)))
		for b.Loop() {
			if !json.Valid(decDoc1K) {
				b.Fatal("invalid")
			}
		}
	})
	b.Run("json.Unmarshal", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(decDoc1K)))
		for b.Loop() {
			var v struct{}
			if err := json.Unmarshal(decDoc1K, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Decoder.walk", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(decDoc1K)))
		d := rt.NewDecoder(nil, "")
		for b.Loop() {
			d.Reset(decDoc1K, "")
			decWalk(d)
			if d.Err() != nil {
				b.Fatal("bad walk")
			}
		}
	})
	b.Run("json.Unmarshal-any", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(decDoc1K)))
		for b.Loop() {
			var v any
			if err := json.Unmarshal(decDoc1K, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
}
