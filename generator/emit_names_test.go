package generator

import "testing"

func TestImportAlias(t *testing.T) {
	for _, tc := range []struct {
		name  string
		taken []string // besides the numbered locals, always taken
		want  string
	}{
		{"http", nil, "http"},
		{"json", []string{"json"}, "json2"},
		{"json", []string{"json", "json2"}, "json3"},
		{"x509", nil, "x509pkg"}, // crypto/x509: x509 and every x509N are numbered locals
		{"x509", []string{"x509pkg"}, "x509pkg2"},
		{"x", nil, "x"},
		{"x", []string{"x"}, "xpkg"},
		{"p2", nil, "p2pkg"},
	} {
		taken := func(n string) bool {
			for _, s := range tc.taken {
				if s == n {
					return true
				}
			}
			return isNumberedLocal(n)
		}
		if got := importAlias(tc.name, taken); got != tc.want {
			t.Errorf("importAlias(%q) with %v taken = %q, want %q", tc.name, tc.taken, got, tc.want)
		}
	}
}

// TestEmitterName checks that fresh names on one base are numbered from 2
// on, skipping names already taken, in the order asked for.
func TestEmitterName(t *testing.T) {
	e := &emitter{
		used:     map[string]bool{"mcpDecodeStruct3": true, "mcpDecodeArgs": true},
		numbered: map[string]int{},
	}
	var got []string
	for _, base := range []string{"mcpDecodeStruct", "mcpDecodeStruct", "mcpDecodeArgs", "mcpDecodeStruct", "mcpDecodeStruct", "mcpDecodeArgs"} {
		got = append(got, e.name(base))
	}
	want := []string{"mcpDecodeStruct", "mcpDecodeStruct2", "mcpDecodeArgs2", "mcpDecodeStruct4", "mcpDecodeStruct5", "mcpDecodeArgs3"}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("name %d = %q, want %q (all: %v)", i, got[i], want[i], got)
		}
	}
	if !e.used["mcpDecodeStruct5"] {
		t.Error("a name given out is not marked as used")
	}
}
