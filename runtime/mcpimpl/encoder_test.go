package mcpimpl_test

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	rt "github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// TestEncoderMatchesEncodingJSON holds each scalar writer to what
// encoding/json writes for the same value.
func TestEncoderMatchesEncodingJSON(t *testing.T) {
	floats := []float64{0, 1, -1, 0.1, 1.5, 1e-6, 1e-7, 123456789, 1e20, 1e21, 1.234e-9, -5e-324, math.MaxFloat64, 3.4e38, 1.0 / 3}
	for _, f := range floats {
		want, _ := json.Marshal(f)
		var e rt.Encoder
		e.Float(f, 64)
		if got := encoded(t, &e); got != string(want) {
			t.Errorf("Float(%v, 64) = %s, want %s", f, got, want)
		}
		f32 := float32(f)
		if math.IsInf(float64(f32), 0) {
			continue
		}
		want, _ = json.Marshal(f32)
		e = rt.Encoder{}
		e.Float(float64(f32), 32)
		if got := encoded(t, &e); got != string(want) {
			t.Errorf("Float(%v, 32) = %s, want %s", f32, got, want)
		}
	}
	for _, s := range []string{"", "plain", "quote\" back\\ nl\n tab\t", "\x00\x1f", "bad \xff utf8", "é ✓ \u2028 \u2029"} {
		var e rt.Encoder
		e.String(s)
		var back string
		if err := json.Unmarshal([]byte(encoded(t, &e)), &back); err != nil {
			t.Errorf("String(%q) wrote invalid JSON: %v", s, err)
		}
		want := strings.ToValidUTF8(s, "\uFFFD")
		if back != want {
			t.Errorf("String(%q) reads back as %q, want %q", s, back, want)
		}
	}
	for _, tm := range []time.Time{time.Date(2026, 1, 2, 3, 4, 5, 600, time.UTC), time.Date(1, 1, 1, 0, 0, 0, 0, time.FixedZone("x", 3600)), {}} {
		want, _ := json.Marshal(tm)
		var e rt.Encoder
		e.Time(tm)
		if got := encoded(t, &e); got != string(want) {
			t.Errorf("Time(%v) = %s, want %s", tm, got, want)
		}
	}
	for _, b := range [][]byte{{}, {0, 1, 2, 250}, []byte("hello")} {
		want, _ := json.Marshal(b)
		var e rt.Encoder
		e.Bytes(b)
		if got := encoded(t, &e); got != string(want) {
			t.Errorf("Bytes(%v) = %s, want %s", b, got, want)
		}
	}
}

// encoded returns what e wrote, through JSON.
func encoded(t *testing.T, e *rt.Encoder) string {
	t.Helper()
	raw, err := e.JSON()
	if err != nil {
		t.Fatalf("JSON: %v", err)
	}
	return string(raw)
}

func TestEncoderStructure(t *testing.T) {
	for _, tc := range []struct {
		name  string
		write func(e *rt.Encoder)
		want  string
		err   string
	}{
		{name: "empty object", write: func(e *rt.Encoder) { e.Open(); e.Close() }, want: `{}`},
		{name: "commas", write: func(e *rt.Encoder) {
			e.Open()
			e.Key(`"a":`)
			e.OpenArray()
			e.CloseArray()
			e.Key(`"b":`)
			e.OpenArray()
			for i := range 3 {
				e.Elem()
				e.Int(int64(i))
			}
			e.CloseArray()
			e.MapKey("c\"")
			e.Open()
			e.MapKey("")
			e.Null()
			e.Close()
			e.Key(`"d":`)
			e.Uint(math.MaxUint64)
			e.Close()
		}, want: `{"a":[],"b":[0,1,2],"c\"":{"":null},"d":18446744073709551615}`},
		{name: "first key after an optional one left out", write: func(e *rt.Encoder) { e.Open(); e.Key(`"x":`); e.Bool(true); e.Close() }, want: `{"x":true}`},
		{name: "nil bytes", write: func(e *rt.Encoder) { e.Open(); e.Key(`"b":`); e.Bytes(nil); e.Close() }, want: `{"b":""}`},
		{name: "raw compacted", write: func(e *rt.Encoder) { e.Open(); e.Key(`"r":`); e.Raw([]byte("{\n \"a\": [1, 2]\n}")); e.Close() }, want: `{"r":{"a":[1,2]}}`},
		{name: "nil raw", write: func(e *rt.Encoder) { e.Open(); e.Key(`"r":`); e.Raw(nil); e.Close() }, want: `{"r":null}`},
		{name: "marshal", write: func(e *rt.Encoder) { e.Open(); e.Key(`"m":`); e.Marshal(map[string]int{"b": 2, "a": 1}); e.Close() }, want: `{"m":{"a":1,"b":2}}`},
		{name: "NaN", write: func(e *rt.Encoder) { e.Open(); e.Float(math.NaN(), 64); e.Close() }, err: "internal error: the tool's result does not encode as JSON: the result holds NaN, which is not a JSON number"},
		{name: "infinity", write: func(e *rt.Encoder) { e.Open(); e.Float(math.Inf(-1), 32); e.Close() }, err: "the result holds -Inf"},
		{name: "year", write: func(e *rt.Encoder) { e.Open(); e.Time(time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)); e.Close() }, err: "year 10000 is outside 0…9999"},
		{name: "zone", write: func(e *rt.Encoder) {
			e.Open()
			e.Time(time.Date(2000, 1, 1, 0, 0, 0, 0, time.FixedZone("far", 24*3600)))
			e.Close()
		}, err: "zone offset"},
		{name: "invalid raw", write: func(e *rt.Encoder) { e.Open(); e.Raw([]byte("{")); e.Close() }, err: "json.RawMessage that is not valid JSON"},
		{name: "unmarshalable", write: func(e *rt.Encoder) { e.Open(); e.Marshal(make(chan int)); e.Close() }, err: "unsupported type: chan int"},
		{name: "first error kept", write: func(e *rt.Encoder) { e.Open(); e.Float(math.NaN(), 64); e.Float(math.Inf(1), 64); e.Close() }, err: "NaN"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var e rt.Encoder
			tc.write(&e)
			raw, err := e.JSON()
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(raw) != tc.want {
				t.Errorf("got %s, want %s", raw, tc.want)
			}
			if !json.Valid(raw) {
				t.Errorf("invalid JSON %s", raw)
			}
		})
	}
}

func TestSortedKeysAndZero(t *testing.T) {
	type key string
	got := rt.SortedKeys(map[key]int{"b": 1, "a": 2, "é": 3, "B": 4})
	if want := []key{"B", "a", "b", "é"}; len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] || got[3] != want[3] {
		t.Errorf("SortedKeys = %v, want %v", got, want)
	}
	if len(rt.SortedKeys(map[string]int(nil))) != 0 {
		t.Error("SortedKeys(nil) not empty")
	}
	type pair struct {
		A int
		B string
	}
	if !rt.IsZero(pair{}) || rt.IsZero(pair{B: "x"}) || !rt.IsZero(0.0) || rt.IsZero("x") {
		t.Error("IsZero wrong")
	}
	type withSlice struct{ S []int }
	if !rt.IsZeroValue(&withSlice{}) || rt.IsZeroValue(&withSlice{S: []int{}}) {
		t.Error("IsZeroValue wrong")
	}
}
