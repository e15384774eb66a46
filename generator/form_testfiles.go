package generator

import (
	"bytes"
	"cmp"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// A form is found by its uses in the package's own files, which the go
// command lists without the test files: mcpgen generates the non-test file
// mcp_gen.go, which must build without them. A use of runtime.AskForm in a
// test file therefore gives its form no methods, and the test does not
// compile ("*T does not satisfy runtime.Form"). testFileForms warns about
// such uses with the fix: //mcp:form on the type, which must be declared
// in a non-test file. The test files that mention AskForm are part of the
// package's input key (see askingTestFiles), so that a change to them is
// seen by a run that would reuse the generated file.

// testFile is a _test.go file of a package that mentions AskForm.
type testFile struct {
	name string // absolute path
	data []byte
}

// askingTestFiles returns the package's test files that mention AskForm and
// that the go command, given buildFlags, would build: a file excluded by
// its //go:build line or its name's GOOS or GOARCH under the tags of
// buildFlags' -tags (none without it) is not read. In name order.
func askingTestFiles(pkg *packages.Package, buildFlags []string) []testFile {
	if len(pkg.GoFiles) == 0 {
		return nil
	}
	dir := filepath.Dir(pkg.GoFiles[0])
	names, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil
	}
	ctxt := build.Default
	ctxt.BuildTags = buildTags(buildFlags)
	var out []testFile
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil || !bytes.Contains(data, []byte(askFormFunc)) {
			continue
		}
		if ok, err := ctxt.MatchFile(dir, filepath.Base(name)); err != nil || !ok {
			continue
		}
		out = append(out, testFile{name, data})
	}
	return out
}

// buildTags returns the tags that the -tags flag among buildFlags (the
// go command's: -tags=a,b, --tags a,b; the last one counts) sets, split at
// commas or, the older form, spaces.
func buildTags(buildFlags []string) []string {
	var tags []string
	for i := 0; i < len(buildFlags); i++ {
		name, value, hasValue := strings.Cut(strings.TrimLeft(buildFlags[i], "-"), "=")
		if name != "tags" || !strings.HasPrefix(buildFlags[i], "-") {
			continue
		}
		if !hasValue {
			if i+1 == len(buildFlags) {
				break
			}
			i++
			value = buildFlags[i]
		}
		tags = strings.FieldsFunc(value, func(r rune) bool { return r == ',' || r == ' ' })
	}
	return tags
}

// testFileForms returns a warning for each type of the package that the
// package's test files ask with (runtime.AskForm[T]) but that is no form
// of p, at its first use: mcpgen does not read test files, so the use gives
// the type no methods.
func testFileForms(pkg *packages.Package, p *Package, buildFlags []string) []Diagnostic {
	files := askingTestFiles(pkg, buildFlags)
	if len(files) == 0 {
		return nil
	}
	forms := map[string]bool{}
	for _, f := range p.Forms {
		forms[f.Type.Obj().Name()] = true
	}
	fset := token.NewFileSet()
	var parsed []*ast.File
	// The types the test files declare, by package name: the package's
	// own (internal tests) and the _test package's (external tests).
	testTypes := map[string]map[string]bool{}
	for _, tf := range files {
		f, err := parser.ParseFile(fset, tf.name, tf.data, parser.SkipObjectResolution)
		if err != nil {
			continue // the go command reports it when the tests run
		}
		parsed = append(parsed, f)
		for _, decl := range f.Decls {
			if gd, ok := decl.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
				for _, spec := range gd.Specs {
					if testTypes[f.Name.Name] == nil {
						testTypes[f.Name.Name] = map[string]bool{}
					}
					testTypes[f.Name.Name][spec.(*ast.TypeSpec).Name.Name] = true
				}
			}
		}
	}
	var diags []Diagnostic
	warned := map[string]bool{}
	for _, f := range parsed {
		external := f.Name.Name != pkg.Name
		runtimeName, ownName := "", ""
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			name := ""
			if imp.Name != nil {
				name = imp.Name.Name
			}
			switch path {
			case RuntimePath:
				runtimeName = cmp.Or(name, "runtime")
			case pkg.PkgPath:
				ownName = cmp.Or(name, pkg.Name)
			}
		}
		if runtimeName == "" || runtimeName == "_" {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			fn, arg := askFormCall(n)
			if fn == nil || !isSelector(fn, runtimeName, askFormFunc) {
				return true
			}
			var typ string
			inTest := false
			switch a := arg.(type) {
			case *ast.Ident:
				typ = a.Name
				inTest = testTypes[f.Name.Name][typ]
				if external && !inTest {
					return true // a type of a dot import, or no type the test could ask with
				}
			case *ast.SelectorExpr:
				if !external || ownName == "" || !isSelector(a, ownName, a.Sel.Name) {
					return true // a form of another package
				}
				typ = a.Sel.Name
			default:
				return true // no type of the package: the test's compiler says what is wrong
			}
			key := pkg.Name + "." + typ // once per type of the package, or of a test package
			if inTest {
				key = f.Name.Name + "." + typ
			}
			if forms[typ] || warned[key] {
				return true
			}
			via := "runtime." + askFormFunc + "[" + typeExprString(arg) + "] in a test file"
			pos := fset.Position(arg.Pos())
			switch {
			case inTest:
				warned[key] = true
				diags = append(diags, Diagnostic{Pos: pos, Msg: fmt.Sprintf("%s: %s is declared in a test file, and mcpgen generates a non-test file, which cannot give it the methods of a form; declare %s in a non-test file of the package and mark it //mcp:form", via, typ, typ)})
			case isPlainStruct(pkg.Types, typ):
				warned[key] = true
				diags = append(diags, Diagnostic{Pos: pos, Msg: fmt.Sprintf("%s: mcpgen reads only the package's non-test files, so this use gives %s no form methods and the test does not compile; mark %s //mcp:form in its doc comment", via, typ, typ)})
			}
			return true
		})
	}
	return diags
}

// askFormCall returns the function and first type argument of an
// instantiation such as runtime.AskForm[T] or runtime.AskForm[T, *T].
func askFormCall(n ast.Node) (fn, arg ast.Expr) {
	switch x := n.(type) {
	case *ast.IndexExpr:
		return x.X, x.Index
	case *ast.IndexListExpr:
		if len(x.Indices) > 0 {
			return x.X, x.Indices[0]
		}
	}
	return nil, nil
}

// isSelector reports whether e is pkg.name.
func isSelector(e ast.Expr, pkg, name string) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == pkg
}

// typeExprString prints an identifier or a qualified one.
func typeExprString(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return typeExprString(x.X) + "." + x.Sel.Name
	}
	return "…"
}

// isPlainStruct reports whether the package declares name as a
// non-generic struct type.
func isPlainStruct(pkg *types.Package, name string) bool {
	if pkg == nil {
		return false
	}
	tn, ok := pkg.Scope().Lookup(name).(*types.TypeName)
	if !ok || tn.IsAlias() {
		return false
	}
	n, ok := tn.Type().(*types.Named)
	return ok && n.TypeParams().Len() == 0 && isStruct(n)
}
