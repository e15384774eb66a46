package apicheck

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestExported(t *testing.T) {
	dir := t.TempDir()
	src := `package p

import "example.com/impl"

const Max, min = 1, 2
var Err, errSecret error
var Default = impl.New()
type T struct {
	Name string
	Hidden impl.Thing
	inner impl.Thing
}
type u struct{}
type Alias = impl.Thing
func (T) M() {}
func (*T) m() {}
func (u) Exported() {}
func F(x impl.Thing) {}
func G[X any](x X) {}
func g() {}
type L[X any] []X
func (L[X]) Len() int { return 0 }
`
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p_test.go"), []byte("package p\nfunc TestX() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	names, leaks, err := Exported(dir, "impl")
	if err != nil {
		t.Fatal(err)
	}
	wantNames := []string{"const Max", "func F", "func G", "method L.Len", "method T.M", "type Alias", "type L", "type T", "var Default", "var Err"}
	if !slices.Equal(names, wantNames) {
		t.Errorf("names %q, want %q", names, wantNames)
	}
	wantLeaks := []string{"var Default", "type T (a field)", "type Alias", "func F"}
	slices.Sort(leaks)
	slices.Sort(wantLeaks)
	if !slices.Equal(leaks, wantLeaks) {
		t.Errorf("leaks %q, want %q", leaks, wantLeaks)
	}
}

func TestCompare(t *testing.T) {
	extra, missing := Compare([]string{"func A", "func B", "type T"}, "\n\tfunc B\n\ttype T\n\tvar Gone\n")
	if !slices.Equal(extra, []string{"func A"}) || !slices.Equal(missing, []string{"var Gone"}) {
		t.Errorf("extra %q, missing %q; want [func A], [var Gone]", extra, missing)
	}
}
