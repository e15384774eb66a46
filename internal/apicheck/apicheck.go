// Package apicheck lists the exported API of a Go package from its
// source, for the tests that hold the project's packages to reviewed lists
// of names, so that a name exported by accident fails a test.
package apicheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Exported returns the exported top-level names of the package in dir,
// test files aside, sorted: "const X", "var X", "func F", "type T", and
// "method T.M" for the methods of exported types. leaks are the exported
// declarations that show a type of one of the packages named in hidden
// (by the name the package's files import them under), in a signature, a
// type, an exported field or a value.
func Exported(dir string, hidden ...string) (names, leaks []string, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	mentions := func(n ast.Node) bool {
		found := false
		ast.Inspect(n, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && slices.Contains(hidden, id.Name) {
					found = true
				}
			}
			return !found
		})
		return found
	}
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, nil, err
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				entry := "func " + d.Name.Name
				if d.Recv != nil {
					recv := recvName(d.Recv.List[0].Type)
					if !ast.IsExported(recv) {
						continue
					}
					entry = "method " + recv + "." + d.Name.Name
				}
				names = append(names, entry)
				if mentions(d.Type) {
					leaks = append(leaks, entry)
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						entry := "type " + s.Name.Name
						names = append(names, entry)
						if st, ok := s.Type.(*ast.StructType); ok {
							for _, fl := range st.Fields.List {
								exported := len(fl.Names) == 0 // embedded
								for _, n := range fl.Names {
									exported = exported || n.IsExported()
								}
								if exported && mentions(fl.Type) {
									leaks = append(leaks, entry+" (a field)")
								}
							}
						} else if mentions(s.Type) {
							leaks = append(leaks, entry)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if !n.IsExported() {
								continue
							}
							entry := d.Tok.String() + " " + n.Name
							names = append(names, entry)
							if (s.Type != nil && mentions(s.Type)) || slices.ContainsFunc(s.Values, func(v ast.Expr) bool { return mentions(v) }) {
								leaks = append(leaks, entry)
							}
						}
					}
				}
			}
		}
	}
	slices.Sort(names)
	return names, leaks, nil
}

// recvName returns the name of a method's receiver type.
func recvName(x ast.Expr) string {
	for {
		switch r := x.(type) {
		case *ast.StarExpr:
			x = r.X
		case *ast.IndexExpr:
			x = r.X
		case *ast.IndexListExpr:
			x = r.X
		case *ast.Ident:
			return r.Name
		default:
			return ""
		}
	}
}

// Compare holds got, names from Exported, to list, a reviewed list of
// names one a line: extra are exported but not listed, missing listed but
// not exported.
func Compare(got []string, list string) (extra, missing []string) {
	var want []string
	for _, line := range strings.Split(list, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			want = append(want, line)
		}
	}
	slices.Sort(want)
	for _, n := range got {
		if _, found := slices.BinarySearch(want, n); !found {
			extra = append(extra, n)
		}
	}
	for _, n := range want {
		if _, found := slices.BinarySearch(got, n); !found {
			missing = append(missing, n)
		}
	}
	return extra, missing
}

// Check holds the package in dir to list, the reviewed list of its
// exported names, which the failures call listName: a name exported but
// not listed fails with the advice unlisted, one listed but no longer
// exported with the advice to remove it; and any exported declaration that
// shows a type of one of the hidden packages fails too.
func Check(t testing.TB, dir, list, listName, unlisted string, hidden ...string) {
	t.Helper()
	got, leaks, err := Exported(dir, hidden...)
	if err != nil {
		t.Fatal(err)
	}
	extra, missing := Compare(got, list)
	for _, n := range extra {
		t.Errorf("%s is exported but not in the reviewed list %s: %s", n, listName, unlisted)
	}
	for _, n := range missing {
		t.Errorf("%s is in %s but no longer exported: remove it from the list", n, listName)
	}
	for _, l := range leaks {
		t.Errorf("%s shows a type of package %s to users; keep the plumbing unexported", l, strings.Join(hidden, " or "))
	}
}
