package mcpimpl

import (
	"encoding"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestEncoderQuote checks that a value between BeginQuote and EndQuote is
// written as encoding/json writes a field with the ",string" option.
func TestEncoderQuote(t *testing.T) {
	type quoted struct {
		I int     `json:"i,string"`
		U uint8   `json:"u,string"`
		F float32 `json:"f,string"`
		G float64 `json:"g,string"`
		B bool    `json:"b,string"`
		S string  `json:"s,string"`
	}
	for _, v := range []quoted{
		{},
		{I: -42, U: 255, F: 0.1, G: 1e21, B: true, S: "plain"},
		{I: 1 << 40, F: -1e-7, G: 123456.789, S: `quote" back\ nl` + "\n\t\x01 <&> \u2028 bad \xff"},
	} {
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		e := new(Encoder)
		e.Open()
		e.Key(`"i":`)
		e.BeginQuote()
		e.Int(int64(v.I))
		e.EndQuote()
		e.Key(`"u":`)
		e.BeginQuote()
		e.Uint(uint64(v.U))
		e.EndQuote()
		e.Key(`"f":`)
		e.BeginQuote()
		e.Float(float64(v.F), 32)
		e.EndQuote()
		e.Key(`"g":`)
		e.BeginQuote()
		e.Float(v.G, 64)
		e.EndQuote()
		e.Key(`"b":`)
		e.BeginQuote()
		e.Bool(v.B)
		e.EndQuote()
		e.Key(`"s":`)
		e.BeginQuote()
		e.String(v.S)
		e.EndQuote()
		e.Close()
		if got := string(e.buf); got != string(want) {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	}
}

type textKey struct{ s string }

func (k textKey) MarshalText() ([]byte, error) {
	if k.s == "fail" {
		return nil, errors.New("cannot")
	}
	return []byte(strings.ToUpper(k.s)), nil
}

type ptrKey struct{ s string }

func (k *ptrKey) MarshalText() ([]byte, error) { return []byte(k.s), nil }

// TestMapKeyNames checks the names and the order of map keys that are not
// strings against encoding/json.
func TestMapKeyNames(t *testing.T) {
	names := func(keys any) string {
		var b strings.Builder
		switch keys := keys.(type) {
		case []KeyName[int]:
			for _, k := range keys {
				b.WriteString(k.Name + ",")
			}
		case []KeyName[uint8]:
			for _, k := range keys {
				b.WriteString(k.Name + ",")
			}
		case []KeyName[textKey]:
			for _, k := range keys {
				b.WriteString(k.Name + ",")
			}
		case []KeyName[*ptrKey]:
			for _, k := range keys {
				b.WriteString(k.Name + ",")
			}
		}
		return b.String()
	}
	jsonNames := func(m any) string {
		raw, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		d := json.NewDecoder(strings.NewReader(string(raw)))
		var b strings.Builder
		d.Token() // {
		for d.More() {
			k, _ := d.Token()
			b.WriteString(k.(string) + ",")
			var skip any
			d.Decode(&skip)
		}
		return b.String()
	}
	ints := map[int]bool{9: true, 10: true, -1: true, 0: true, -10: true, 100: true}
	uints := map[uint8]bool{255: true, 3: true, 20: true}
	texts := map[textKey]bool{{"b"}: true, {"a"}: true, {"Ab"}: true, {""}: true}
	ptrs := map[*ptrKey]bool{nil: true, {"z"}: true, {"y"}: true}
	e := new(Encoder)
	for _, c := range []struct {
		got  string
		want any
	}{
		{names(IntKeys(ints)), ints},
		{names(UintKeys(uints)), uints},
		{names(TextKeys(e, texts)), texts},
		{names(TextKeys(e, ptrs)), ptrs},
	} {
		if want := jsonNames(c.want); c.got != want {
			t.Errorf("keys %s, encoding/json writes %s", c.got, want)
		}
	}
	if e.err != nil {
		t.Fatal(e.err)
	}
	e2 := new(Encoder)
	TextKeys(e2, map[encoding.TextMarshaler]int{nil: 1})
	if _, err := e2.JSON(); err == nil || !strings.Contains(err.Error(), "nil interface") {
		t.Errorf("a nil interface key: %v", err)
	}
	TextKeys(e, map[textKey]int{{"fail"}: 1})
	if _, err := e.JSON(); err == nil || !strings.Contains(err.Error(), "MarshalText of a map key: cannot") {
		t.Errorf("a failing MarshalText: %v", err)
	}
}
