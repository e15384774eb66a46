package generator

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/invopop/jsonschema"
	orderedmap "github.com/pb33f/ordered-map/v2"
	"golang.org/x/tools/go/packages"
)

// buildPackage reads the directives of one package and builds its model.
// outputPath is the path of the file generated in pkg's directory.
func outputPath(pkg *packages.Package, output string) string {
	dir := ""
	if len(pkg.GoFiles) > 0 {
		dir = filepath.Dir(pkg.GoFiles[0])
	} else if len(pkg.CompiledGoFiles) > 0 {
		dir = filepath.Dir(pkg.CompiledGoFiles[0])
	}
	return filepath.Join(dir, output)
}

func buildPackage(fset *token.FileSet, pkg *packages.Package, b *schemaBuilder, output string) (*Package, []Diagnostic) {
	p := &Package{Name: pkg.Name, PkgPath: pkg.PkgPath, Output: outputPath(pkg, output)}
	if len(pkg.GoFiles)+len(pkg.CompiledGoFiles) > 0 {
		p.Dir = filepath.Dir(p.Output)
	}
	p.Types, p.Scope = pkg.Types, packageScope(fset, pkg.Types, output)

	var diags []Diagnostic
	byName := map[string]*Tool{}
	recvs := map[*types.TypeName]*Receiver{}
	prims := newPrimBuilder(fset, pkg, b, recvs, p)
	var formDecls []formUse // types declared with //mcp:form
	for _, file := range pkg.Syntax {
		if isOurs(fset, file, output) {
			continue
		}
		attached := map[*ast.Comment]bool{}
		for _, decl := range file.Decls {
			if gd, ok := decl.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
				decls, ds := formDirectives(fset, pkg, gd, attached)
				formDecls = append(formDecls, decls...)
				diags = append(diags, ds...)
				continue
			}
			fd, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			dirs := findDirectives(fd.Doc)
			var tool *ast.Comment
			var primLines []*ast.Comment
			for _, c := range dirs {
				attached[c] = true
				switch kind := directiveKind(c.Text); kind {
				case "tool":
					if tool != nil {
						diags = append(diags, diagf(fset.Position(c.Slash), "%s has more than one //mcp:tool line", fd.Name.Name))
						continue
					}
					tool = c
				case "resource", "prompt", "complete":
					primLines = append(primLines, c)
				case "form":
					diags = append(diags, diagf(fset.Position(c.Slash), "//mcp:form belongs in the doc comment of a struct type declaration, not of %s", fd.Name.Name))
				default:
					diags = append(diags, diagf(fset.Position(c.Slash), "%s", unknownDirective(c.Text)))
				}
			}
			if len(primLines) > 0 {
				diags = append(diags, prims.add(fd, tool, primLines)...)
				continue
			}
			if tool == nil {
				continue
			}
			t, ds := buildTool(fset, pkg, b, fd, tool, recvs, p)
			diags = append(diags, ds...)
			if t == nil {
				continue
			}
			if prev := byName[t.Name]; prev != nil {
				where := fmt.Sprintf("line %d", prev.Pos.Line)
				if prev.Pos.Filename != t.Pos.Filename {
					where = fmt.Sprintf("%s:%d", filepath.Base(prev.Pos.Filename), prev.Pos.Line)
				}
				diags = append(diags, diagf(t.Pos, "duplicate tool name %q (also used by %s at %s)", t.Name, prev.Func, where))
				continue
			}
			byName[t.Name] = t
			p.Tools = append(p.Tools, t)
		}
		for _, cg := range file.Comments {
			for _, c := range cg.List {
				if strings.HasPrefix(c.Text, directivePrefix) && !attached[c] {
					diags = append(diags, diagf(fset.Position(c.Slash), "%s", detachedDirective(fset, file, c)))
				}
			}
		}
	}
	diags = append(diags, prims.finish()...)
	diags = append(diags, buildForms(fset, pkg, b, p, output, formDecls)...)
	p.Defs = b.defs
	return p, diags
}

// buildTool checks one annotated function and builds its model.
func buildTool(fset *token.FileSet, pkg *packages.Package, b *schemaBuilder, fd *ast.FuncDecl, c *ast.Comment, recvs map[*types.TypeName]*Receiver, p *Package) (*Tool, []Diagnostic) {
	dir, diags := parseToolDirective(fset, c)
	pos := fset.Position(fd.Name.Pos())
	fn, _ := pkg.TypesInfo.Defs[fd.Name].(*types.Func)
	if fn == nil {
		return nil, append(diags, diagf(pos, "%s: no type information", fd.Name.Name))
	}
	sig := fn.Signature()
	t := &Tool{
		Pos:         pos,
		Name:        dir.Name,
		Title:       dir.Title,
		Description: dir.Description,
		Annotations: dir.Annotations,
		Timeout:     dir.Timeout,
		Func:        fd.Name.Name,
	}
	if t.Name == "" {
		t.Name = snakeCase(fd.Name.Name)
	}
	if msg := checkToolName(t.Name); msg != "" {
		diags = append(diags, diagf(dir.Pos, "%s", msg))
	}
	if t.Description == "" {
		t.Description = toolDescription(fd.Name.Name, fd.Doc.Text())
	}
	const shape = "a tool must look like func [(r *T)] F([ctx context.Context][, in In]) ([Out, ]error)"
	if sig.TypeParams().Len() > 0 || sig.RecvTypeParams().Len() > 0 {
		return nil, append(diags, diagf(pos, "%s", genericMessage(fd.Name.Name, sig, "tools")))
	}
	if sig.Variadic() {
		return nil, append(diags, diagf(pos, "%s: variadic functions cannot be tools; %s", fd.Name.Name, shape))
	}

	// Receiver.
	if recv := sig.Recv(); recv != nil {
		rt := recv.Type()
		ptr, isPtr := rt.(*types.Pointer)
		base := rt
		if isPtr {
			base = ptr.Elem()
		}
		named, ok := types.Unalias(base).(*types.Named)
		if !ok {
			return nil, append(diags, diagf(pos, "%s: unsupported receiver type %s", fd.Name.Name, rt))
		}
		r := recvs[named.Obj()]
		if r == nil {
			r = &Receiver{Type: rt, Param: paramName(named.Obj().Name())}
			recvs[named.Obj()] = r
			for _, other := range p.Receivers {
				if other.Param == r.Param {
					r.Param += strconv.Itoa(len(p.Receivers) + 1)
				}
			}
			p.Receivers = append(p.Receivers, r)
		} else if isPtr {
			r.Type = rt // a pointer parameter serves value and pointer methods alike
		}
		t.Recv = r
	}

	// Parameters.
	params := sig.Params()
	i := 0
	if params.Len() > 0 && isContext(params.At(0).Type()) {
		t.Context = true
		i = 1
	}
	switch params.Len() - i {
	case 0:
	case 1:
		in := params.At(i).Type()
		if ptr, ok := types.Unalias(in).(*types.Pointer); ok {
			t.InputPointer = true
			in = ptr.Elem()
		}
		if _, ok := in.Underlying().(*types.Struct); !ok {
			return nil, append(diags, diagf(fset.Position(params.At(i).Pos()), "%s", argumentProblem(fd.Name.Name, params.At(i))))
		}
		s, schema, ds := b.buildInput(in, params.At(i).Pos())
		diags = append(diags, ds...)
		if len(ds) == 0 && s.Kind != KindStruct {
			return nil, append(diags, diagf(fset.Position(params.At(i).Pos()), "%s: %s has its own JSON methods; the arguments must be a plain struct whose fields mcpgen can decode and validate", fd.Name.Name, params.At(i).Type()))
		}
		t.Input, t.InputSchema = s, schema
	default:
		return nil, append(diags, diagf(pos, "%s", paramsProblem(fd.Name.Name, params, i)))
	}
	if t.InputSchema == nil {
		t.InputSchema = emptyObjectSchema()
	}

	// Results.
	results := sig.Results()
	if msg := resultsProblem(fd.Name.Name, results); msg != "" {
		return nil, append(diags, diagf(pos, "%s", msg))
	}
	if results.Len() == 2 {
		out := results.At(0).Type()
		t.OutputType = out
		switch {
		case isRuntimeType(out, "CallToolResult", true):
			t.Output = OutputResult
		case isContentSlice(out):
			t.Output = OutputContent
		case isString(out):
			t.Output = OutputText
		default:
			shape, schema, wrap, msg := b.outputSchema(out, results.At(0).Pos())
			if msg != "" {
				return nil, append(diags, diagf(pos, "%s: %s; a result must be a string, a struct, a map, a slice, *runtime.CallToolResult or []runtime.Content%s", fd.Name.Name, msg, resultHint(out, pkg.Types)))
			}
			t.Output, t.OutputShape, t.OutputSchema, t.OutputWrap = OutputStructured, shape, schema, wrap
		}
	}
	return t, diags
}

func emptyObjectSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", Properties: orderedmap.New[string, *jsonschema.Schema](), AdditionalProperties: jsonschema.FalseSchema}
}

func isContext(t types.Type) bool { return isNamed(t, "context", "Context") }

func isError(t types.Type) bool { return types.Identical(t, types.Universe.Lookup("error").Type()) }

func isNamed(t types.Type, pkg, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name
}

func isRuntimeType(t types.Type, name string, ptr bool) bool {
	if ptr {
		p, ok := types.Unalias(t).(*types.Pointer)
		if !ok {
			return false
		}
		t = p.Elem()
	}
	return isNamed(t, RuntimePath, name)
}

func isContentSlice(t types.Type) bool {
	s, ok := types.Unalias(t).(*types.Slice)
	return ok && isRuntimeType(s.Elem(), "Content", false)
}

func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.String
}

// checkToolName checks the MCP tool name rules.
func checkToolName(name string) string {
	if name == "" || len(name) > 128 {
		return "tool name " + strconv.Quote(name) + " must have 1 to 128 characters"
	}
	for _, r := range name {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_' || r == '-' || r == '.') {
			return "tool name " + strconv.Quote(name) + " has " + strconv.QuoteRune(r) + "; allowed are A-Z a-z 0-9 _ - ."
		}
	}
	return ""
}
