package generator

import (
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// TestEnumsOnlyFromOwnConstants holds the enum rule: constants make an enum
// only for types of the main module; time.Duration, time.Month and a
// third-party module's typed constants leave the schema open.
func TestEnumsOnlyFromOwnConstants(t *testing.T) {
	b, lookup := newTestBuilder(t)
	_, s := buildOK(t, b, lookup, "Foreign")
	for _, tc := range []struct {
		prop     string
		wantEnum bool
	}{
		{"timeout", false},
		{"month", false},
		{"weekday", false},
		{"mode", false},
		{"sizes", true}, // ext is in the main module
		{"waits", false},
	} {
		p, ok := s.Properties.Get(tc.prop)
		if !ok {
			t.Fatalf("no property %s", tc.prop)
		}
		switch {
		case p.Items != nil:
			p = p.Items
		case p.AdditionalProperties != nil:
			p = p.AdditionalProperties
		}
		if got := len(p.Enum) > 0; got != tc.wantEnum {
			t.Errorf("%s: enum %v, want an enum: %v", tc.prop, p.Enum, tc.wantEnum)
		}
		if tc.prop == "sizes" && !slices.Equal(p.Enum, []any{"s", "l", "m"}) {
			t.Errorf("sizes: enum %v, want [s l m]", p.Enum)
		}
	}
}

// TestDocsOfDotlessModule checks that a module whose path has no dot
// (module tools) is not taken for the standard library: its types' doc
// comments describe their properties.
func TestDocsOfDotlessModule(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Setenv("GOFLAGS", "-mod=mod")
	files := map[string]string{
		"go.mod": "module tools\n\ngo 1.26\n\nrequire github.com/mcpgen/mcpgen v0.0.0\n\nreplace github.com/mcpgen/mcpgen => " + root + "\n",
		"kinds/kinds.go": `package kinds

// Shade is how dark a color is, from 0 to 9.
type Shade int
`,
		"server/server.go": `package server

import "tools/kinds"

// Point is a spot on the canvas.
type Point struct{ X, Y int }

type Args struct {
	At    Point       ` + "`json:\"at\"`" + `
	Shade kinds.Shade ` + "`json:\"shade\"`" + `
}

// Draw draws.
//
//mcp:tool
func Draw(in Args) (string, error) { return "", nil }
`,
	}
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := Generate(Config{Dir: filepath.Join(dir, "server")})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 1 {
		t.Fatalf("got %d files, want 1", len(out))
	}
	for _, want := range []string{"A spot on the canvas.", "How dark a color is, from 0 to 9."} {
		if !strings.Contains(string(out[0].Content), want) {
			t.Errorf("the generated schema lacks the doc comment %q:\n%s", want, out[0].Content)
		}
	}
}

// TestMapKeys checks the keys of maps that encoding/json decodes besides
// string kinds: integers (their pattern in propertyNames) and types with
// UnmarshalText, which win over a string kind. (Keys is read from
// arguments; TestMapKeysOfResults has the keys of results.)
func TestMapKeys(t *testing.T) {
	b, lookup := newTestBuilder(t)
	sh, s, diags := b.buildInput(lookup(schematypesPath, "Keys"), token.NoPos)
	if len(diags) != 0 {
		t.Fatalf("Keys: %v", diags)
	}
	want := map[string]struct {
		key     MapKey
		pattern string
	}{
		"ints":  {KeyInt, keyPattern(true, 64)},
		"small": {KeyInt, keyPattern(true, 8)},
		"uints": {KeyUint, keyPattern(false, 64)},
		"texts": {KeyText, ""},
		"named": {KeyString, ""},
		"ptrs":  {KeyText, ""},
	}
	for _, f := range sh.Fields {
		w, ok := want[f.Name]
		if !ok {
			t.Fatalf("unexpected field %s", f.Name)
		}
		if f.Shape.Key != w.key {
			t.Errorf("%s: key kind %d, want %d", f.Name, f.Shape.Key, w.key)
		}
		p, _ := s.Properties.Get(f.Name)
		got := ""
		if p.PropertyNames != nil {
			got = p.PropertyNames.Pattern
		}
		if got != w.pattern {
			t.Errorf("%s: propertyNames pattern %q, want %q", f.Name, got, w.pattern)
		}
		if p.AdditionalProperties == nil {
			t.Errorf("%s: no additionalProperties", f.Name)
		}
	}
	if len(sh.Fields) != len(want) {
		t.Errorf("%d fields, want %d", len(sh.Fields), len(want))
	}
}

// TestQuotedPatternsMatchRuntime holds the patterns published for ",string"
// fields and integer map keys to the runtime's parsers: a text matches the
// pattern exactly when the runtime reads it (64-bit kinds, so that no range
// is involved).
func TestQuotedPatternsMatchRuntime(t *testing.T) {
	texts := []string{
		"0", "-0", "7", "-7", "007", "+1", "1.0", "1e2", "1E+2", "-1.5e-3", ".5", "5.", "1e", "0x10", "1_000",
		"", " 1", "1 ", "null", "NULL", "true", "false", "True", "yes", "Inf", "-Inf", "NaN",
		`""`, `"a"`, `"a\"b"`, `"\u00e9"`, `"\x"`, `"a`, `a"`, `"\n"`, "\"\t\"", `"é"`,
	}
	for _, n := range []string{"127", "128", "-128", "-129", "255", "256", "-0", "0000127", "-00128", "32767", "32768", "65535", "65536",
		"2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295", "4294967296", "99", "100", "199", "1000",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
		"18446744073709551615", "18446744073709551616", "99999999999999999999", "100000000000000000000"} {
		texts = append(texts, n)
	}
	type read struct {
		pattern string
		read    func(d *mcpimpl.Decoder, s string) bool
		null    bool // "null" reads as "leave as is"
	}
	reads := []read{
		{quotedNumberPattern, func(d *mcpimpl.Decoder, s string) bool { _, ok := d.QuotedFloat(s, 64); return ok }, true},
		{quotedBoolPattern, func(d *mcpimpl.Decoder, s string) bool { _, ok := d.QuotedBool(s); return ok }, true},
		{quotedStringPattern, func(d *mcpimpl.Decoder, s string) bool { _, ok := d.QuotedString(s); return ok }, true},
	}
	for _, bits := range []int{8, 16, 32, 64} {
		reads = append(reads,
			read{quotedPattern(&Shape{Kind: KindInt, Bits: bits}), func(d *mcpimpl.Decoder, s string) bool { _, ok := d.QuotedInt(s, bits); return ok }, true},
			read{quotedPattern(&Shape{Kind: KindUint, Bits: bits}), func(d *mcpimpl.Decoder, s string) bool { _, ok := d.QuotedUint(s, bits); return ok }, true},
			read{keyPattern(true, bits), func(d *mcpimpl.Decoder, s string) bool { _, ok := d.IntKey([]byte(s), bits); return ok }, false},
			read{keyPattern(false, bits), func(d *mcpimpl.Decoder, s string) bool { _, ok := d.UintKey([]byte(s), bits); return ok }, false},
		)
	}
	for _, r := range reads {
		re := regexp.MustCompile(r.pattern)
		for _, s := range texts {
			d := mcpimpl.NewDecoder([]byte(`"x"`), "v")
			d.String()
			ok := r.read(d, s)
			if r.null && s == "null" {
				ok = !d.Failed()
			}
			if ok != re.MatchString(s) {
				t.Errorf("pattern %s matches %q: %v; the runtime reads it: %v", r.pattern, s, re.MatchString(s), ok)
			}
		}
	}
}

// TestUpTo checks the range patterns: exactly the texts of 0 … n.
func TestUpTo(t *testing.T) {
	for _, n := range []uint64{0, 1, 9, 10, 15, 99, 100, 127, 128, 255, 300, 1000, 1009, 65535} {
		re := regexp.MustCompile("^" + upTo(n) + "$")
		for i := uint64(0); i <= n+200; i++ {
			if got := re.MatchString(strconv.FormatUint(i, 10)); got != (i <= n) {
				t.Errorf("upTo(%d) = %s matches %d: %v", n, upTo(n), i, got)
			}
		}
		if re.MatchString("0"+strconv.FormatUint(n, 10)) && n > 0 {
			t.Errorf("upTo(%d) matches a leading zero", n)
		}
	}
}
