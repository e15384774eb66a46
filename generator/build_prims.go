package generator

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"io"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// primBuilder builds the resources, prompts and completions of one
// package; buildPackage hands it each annotated function and calls finish
// once every file has been read (a //mcp:complete may name a prompt or a
// template declared in another file).
type primBuilder struct {
	fset  *token.FileSet
	pkg   *packages.Package
	b     *schemaBuilder
	recvs map[*types.TypeName]*Receiver
	p     *Package

	uris      map[string]*Resource // fixed URIs and templates, as written
	prompts   map[string]*Prompt
	completes []*Completion
}

func newPrimBuilder(fset *token.FileSet, pkg *packages.Package, b *schemaBuilder, recvs map[*types.TypeName]*Receiver, p *Package) *primBuilder {
	return &primBuilder{fset: fset, pkg: pkg, b: b, recvs: recvs, p: p, uris: map[string]*Resource{}, prompts: map[string]*Prompt{}}
}

// add builds the //mcp:resource, //mcp:prompt or //mcp:complete line of a
// function. tool is its //mcp:tool line, if any: a function is one
// primitive only.
func (pb *primBuilder) add(fd *ast.FuncDecl, tool *ast.Comment, lines []*ast.Comment) []Diagnostic {
	if tool != nil || len(lines) > 1 {
		c := lines[0]
		if tool == nil {
			c = lines[1]
		}
		return []Diagnostic{diagf(pb.fset.Position(c.Slash), "%s has more than one //mcp: directive; a function is one tool, resource, prompt or completion", fd.Name.Name)}
	}
	switch c := lines[0]; directiveKind(c.Text) {
	case "resource":
		return pb.resource(fd, c)
	case "prompt":
		return pb.prompt(fd, c)
	default:
		return pb.complete(fd, c)
	}
}

// finish attaches the completions to what they complete and adds the
// primitives to the package.
func (pb *primBuilder) finish() []Diagnostic {
	var diags []Diagnostic
	for _, c := range pb.completes {
		diags = append(diags, pb.attach(c)...)
	}
	for _, r := range pb.p.Resources {
		if r.Subscribe {
			pb.p.Subscribe = true
		}
	}
	return diags
}

// fn is what the primitives share about an annotated function: its
// receiver, whether it takes a context, and its other parameters.
type fn struct {
	Name    string
	Pos     token.Position
	Recv    *Receiver
	Context bool
	Params  []*types.Var // after the context
	Results *types.Tuple
}

// function checks what every primitive function must be (not generic, not
// variadic, a named receiver type) and binds its receiver.
func (pb *primBuilder) function(fd *ast.FuncDecl, what, shape string) (*fn, []Diagnostic) {
	pos := pb.fset.Position(fd.Name.Pos())
	f, _ := pb.pkg.TypesInfo.Defs[fd.Name].(*types.Func)
	if f == nil {
		return nil, []Diagnostic{diagf(pos, "%s: no type information", fd.Name.Name)}
	}
	sig := f.Signature()
	if sig.TypeParams().Len() > 0 || sig.RecvTypeParams().Len() > 0 {
		return nil, []Diagnostic{diagf(pos, "%s", genericMessage(fd.Name.Name, sig, what))}
	}
	if sig.Variadic() {
		return nil, []Diagnostic{diagf(pos, "%s: variadic functions cannot be %s; %s", fd.Name.Name, what, shape)}
	}
	out := &fn{Name: fd.Name.Name, Pos: pos, Results: sig.Results()}
	if recv := sig.Recv(); recv != nil {
		r, msg := pb.receiver(recv.Type())
		if msg != "" {
			return nil, []Diagnostic{diagf(pos, "%s: %s", fd.Name.Name, msg)}
		}
		out.Recv = r
	}
	params := sig.Params()
	for i := 0; i < params.Len(); i++ {
		v := params.At(i)
		if i == 0 && isContext(v.Type()) {
			out.Context = true
			continue
		}
		out.Params = append(out.Params, v)
	}
	return out, nil
}

// receiver returns the RegisterMCP parameter for a method's receiver type,
// shared with the tools of the package.
func (pb *primBuilder) receiver(rt types.Type) (*Receiver, string) {
	ptr, isPtr := rt.(*types.Pointer)
	base := rt
	if isPtr {
		base = ptr.Elem()
	}
	named, ok := types.Unalias(base).(*types.Named)
	if !ok {
		return nil, "unsupported receiver type " + rt.String()
	}
	r := pb.recvs[named.Obj()]
	if r == nil {
		r = &Receiver{Type: rt, Param: paramName(named.Obj().Name())}
		pb.recvs[named.Obj()] = r
		for _, other := range pb.p.Receivers {
			if other.Param == r.Param {
				r.Param += strconv.Itoa(len(pb.p.Receivers) + 1)
			}
		}
		pb.p.Receivers = append(pb.p.Receivers, r)
	} else if isPtr {
		r.Type = rt
	}
	return r, ""
}

// Var is one resource-template variable or prompt argument: a string on
// the wire, read into a parameter or a struct field of the Go type its
// Shape describes.
type Var struct {
	Name  string
	Shape *Shape // a scalar, or a pointer to one (optional)
	// Field is the struct field the value goes to; nil when the value is
	// a parameter of its own.
	Field *Field
	// Param is the position of the parameter among the function's
	// parameters after the context, when Field is nil.
	Param    int
	Required bool
	// Title and Description describe a prompt argument.
	Title, Description string
	// Enum lists the values of a string enum type, completed automatically.
	Enum []string
	// Complete, when not nil, completes the value (//mcp:complete).
	Complete *Completion
}

// Elem returns the shape of the scalar read: the pointed-to shape of an
// optional pointer.
func (v *Var) Elem() *Shape {
	if v.Shape.Kind == KindPointer {
		return v.Shape.Elem
	}
	return v.Shape
}

// isScalarVar reports whether a shape can be read from the string form of
// a variable: a string, a number or a bool, or a pointer to one.
func isScalarVar(s *Shape) bool {
	if s.Kind == KindPointer && s.Elem != nil {
		s = s.Elem
	}
	switch s.Kind {
	case KindString, KindInt, KindUint, KindFloat, KindBool:
		return true
	}
	return false
}

// stringEnum returns the string values of a shape's enum.
func stringEnum(s *Shape) []string {
	if s.Kind != KindString || s.Schema == nil {
		return nil
	}
	var out []string
	for _, v := range s.Schema.Enum {
		if str, ok := v.(string); ok {
			out = append(out, str)
		}
	}
	return out
}

// structParam returns the struct type of a parameter that is a struct or
// a pointer to one.
func structParam(t types.Type) (types.Type, bool, bool) {
	ptr := false
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t, ptr = p.Elem(), true
	}
	_, ok := t.Underlying().(*types.Struct)
	return t, ptr, ok
}

// fieldPos returns the position of the Go field a Field comes from.
func fieldPos(t types.Type, f *Field) token.Pos {
	var pos token.Pos
	for _, step := range f.Path {
		if p, ok := types.Unalias(t).(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			return pos
		}
		found := false
		for i := 0; i < st.NumFields(); i++ {
			if v := st.Field(i); v.Name() == step.Name {
				pos, t, found = v.Pos(), v.Type(), true
				break
			}
		}
		if !found {
			return pos
		}
	}
	return pos
}

// where names a declaration's position relative to another's, for
// "duplicate" messages.
func where(prev, cur token.Position) string {
	if prev.Filename != cur.Filename {
		return filepathBase(prev.Filename) + ":" + strconv.Itoa(prev.Line)
	}
	return "line " + strconv.Itoa(prev.Line)
}

func filepathBase(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}

// empty reports whether the package has nothing to register.
func (p *Package) empty() bool {
	return len(p.Tools) == 0 && len(p.Resources) == 0 && len(p.Prompts) == 0 && len(p.Forms) == 0
}

// dumpPrims writes the resources and prompts of the model, for Dump.
func (p *Package) dumpPrims(w io.Writer) {
	dumpVars := func(vars []*Var) {
		for _, v := range vars {
			extra := ""
			if v.Required {
				extra += " required"
			}
			if v.Complete != nil {
				extra += " complete=" + v.Complete.Func
			} else if len(v.Enum) > 0 {
				extra += " complete=enum"
			}
			fmt.Fprintf(w, "  var %s %s %s%s\n", v.Name, v.Shape.Kind, v.Shape.Type, extra)
		}
	}
	for _, r := range p.Resources {
		kind := "resource"
		if r.Template {
			kind = "template"
		}
		fmt.Fprintf(w, "%s %q name=%q func=%s pos=%s mime=%s\n", kind, r.URI, r.Name, r.Func, r.Pos, r.MIMEType)
		dumpVars(r.Vars)
	}
	for _, pr := range p.Prompts {
		fmt.Fprintf(w, "prompt %q func=%s pos=%s\n", pr.Name, pr.Func, pr.Pos)
		dumpVars(pr.Args)
	}
}
