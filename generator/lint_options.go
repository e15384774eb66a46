package generator

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/packages"
)

// lintOptions warns when a package with a resource annotated subscribe
// creates its server with runtime.NewServer but never uses the generated
// MCPOptions, which enable resources/subscribe: without them the server
// does not offer subscriptions, and nothing else says so.
func lintOptions(fset *token.FileSet, pkg *packages.Package, p *Package, output string) Diagnostics {
	if !p.Subscribe || pkg.TypesInfo == nil {
		return nil
	}
	var calls []token.Position
	uses := false
	for _, f := range pkg.Syntax {
		if isOurs(fset, f, output) {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				uses = uses || n.Name == "MCPOptions"
			case *ast.CallExpr:
				if isNewServer(pkg.TypesInfo, n) {
					calls = append(calls, fset.Position(n.Pos()))
				}
			}
			return true
		})
	}
	if uses {
		return nil
	}
	var ws Diagnostics
	for _, pos := range calls {
		ws = append(ws, diagf(pos, "runtime.NewServer is not given MCPOptions(), and a resource annotated subscribe needs them: without them clients cannot subscribe; pass them, as in runtime.NewServer(name, version, MCPOptions()...)"))
	}
	return ws
}

// isNewServer tells whether call calls runtime.NewServer.
func isNewServer(info *types.Info, call *ast.CallExpr) bool {
	var id *ast.Ident
	switch fun := call.Fun.(type) {
	case *ast.SelectorExpr:
		id = fun.Sel
	case *ast.Ident:
		id = fun
	default:
		return false
	}
	fn, ok := info.Uses[id].(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == RuntimePath && fn.Name() == "NewServer"
}
