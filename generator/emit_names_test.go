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
