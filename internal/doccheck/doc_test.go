// Package doccheck holds a test that every exported name of the project's
// packages has a doc comment.
package doccheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dirs are the packages whose exported API users read.
var dirs = []string{"runtime", "runtime/mcpimpl", "runtime/mcphttp", "runtime/websocket", "runtime/internal/rttest", "generator", "cmd/mcpgen", "templates", "mcptest", "internal/manifest"}

func TestExportedNamesHaveDocs(t *testing.T) {
	for _, dir := range dirs {
		path := filepath.Join("..", "..", dir)
		entries, err := os.ReadDir(path)
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		checked := 0
		for _, e := range entries {
			name := e.Name()
			if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, filepath.Join(path, name), nil, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			checked++
			for _, miss := range undocumented(f) {
				t.Errorf("%s: exported %s has no doc comment", fset.Position(miss.Pos()), miss.Name)
			}
		}
		if checked == 0 {
			t.Errorf("%s: no Go files checked", dir)
		}
	}
}

// undocumented returns the exported top-level names of f without a doc
// comment. A name in a documented group (const or var block) counts as
// documented, as godoc shows the group's comment.
func undocumented(f *ast.File) []*ast.Ident {
	var out []*ast.Ident
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Name.IsExported() && d.Doc == nil && exportedRecv(d) {
				out = append(out, d.Name)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() && s.Doc == nil && d.Doc == nil {
						out = append(out, s.Name)
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() && s.Doc == nil && s.Comment == nil && d.Doc == nil {
							out = append(out, n)
						}
					}
				}
			}
		}
	}
	return out
}

// exportedRecv reports whether a method's receiver type is exported (or the
// function is not a method).
func exportedRecv(d *ast.FuncDecl) bool {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return true
	}
	t := d.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if ix, ok := t.(*ast.IndexExpr); ok {
		t = ix.X
	}
	id, ok := t.(*ast.Ident)
	return ok && id.IsExported()
}
