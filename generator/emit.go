package generator

import (
	"encoding/json"
	"fmt"
	"go/token"
	"go/types"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dave/jennifer/jen"
	"github.com/invopop/jsonschema"
)

// Emit renders the generated file of one package. An error means a bug in
// the generator (the rendered code did not format), not in the user's code.
func Emit(p *Package) ([]byte, error) {
	pf, err := emitParts(p, token.NewFileSet())
	if err != nil {
		return nil, err
	}
	src, err := pf.print()
	if err != nil {
		return nil, formatBug(p, err)
	}
	return src, nil
}

// formatBug reports generated code that does not format.
func formatBug(p *Package, err error) error {
	return fmt.Errorf("mcpgen bug: generated code for %s does not format: %w", p.PkgPath, err)
}

// emitParts writes the generated file of one package, and renders and
// parses it in parts into fset (see render.go).
func emitParts(p *Package, fset *token.FileSet) (*parsedFile, error) {
	pf, err := emitFile(p).parse(fset, p.Output)
	if err != nil {
		return nil, formatBug(p, err)
	}
	return pf, nil
}

// emitFile writes the generated file of one package for jennifer.
func emitFile(p *Package) *genFile {
	e := newEmitter(p)
	e.writeDecls()
	e.importNames()
	return e.f
}

// emitStream writes the generated file of one package for jennifer,
// handing runs of finished declarations to pl while it writes the next
// ones. The runs are rendered with the import names known before any
// declaration is written; same reports whether they are the names of the
// finished file (they are unless a name the file declares takes one).
func emitStream(p *Package, pl *pipeline) (f *genFile, same bool) {
	e := newEmitter(p)
	e.importNames()
	early := e.f.hints
	pl.start(e.f, early)
	defer pl.close(e.f) // also when writing panics, so that the workers end
	e.writeDecls()
	e.f.hints = nil
	e.importNames()
	return e.f, slices.Equal(early, e.f.hints)
}

func newEmitter(p *Package) *emitter {
	e := &emitter{
		pkg:      p,
		f:        newGenFile(p.PkgPath, p.Name),
		decoders: map[string]string{},
		encoders: map[string]string{},
		patterns: map[string]string{},
		used:     map[string]bool{"RegisterMCP": true},
		numbered: map[string]int{},
	}
	for n := range p.Scope {
		e.used[n] = true
	}
	e.chooseLocals()
	e.f.HeaderComment(generatedHeader)
	return e
}

// writeDecls writes the file's declarations.
func (e *emitter) writeDecls() {
	p := e.pkg
	e.nameAnonymous()
	for _, t := range p.Tools {
		e.collectDefs(t.Input)
		e.collectDefs(t.OutputShape)
	}
	for _, r := range p.Resources {
		if r.OutputShape != nil {
			e.collectDefs(r.OutputShape)
		}
	}
	if !p.formsOnly() {
		e.registerFunc()
	}
	e.optionsFunc()
	forms := e.formMethods()
	for len(e.queue) > 0 || len(e.encodeQueue) > 0 {
		if len(e.queue) > 0 {
			s := e.queue[0]
			e.queue = e.queue[1:]
			e.decoderFunc(s)
			continue
		}
		s := e.encodeQueue[0]
		e.encodeQueue = e.encodeQueue[1:]
		e.encoderFunc(s)
	}
	e.patternVars()
	if len(e.schemas) > 0 {
		e.schemaVars()
	}
	e.formSchemaConsts(forms)
}

type emitter struct {
	pkg *Package
	f   *genFile

	decoders map[string]string // type key → decoder function name
	anon     map[string]string // type key of an anonymous struct → what its functions are named after (see nameAnonymous)
	defs     map[string]*Shape // type key → shape with fields, for Ref sites
	queue    []*Shape          // struct shapes whose decoder is still to be written

	encoders    map[string]string // type key → encoder function name
	encodeQueue []*Shape          // struct shapes whose encoder is still to be written
	derefs      map[*jen.Statement]*jen.Statement

	patterns    map[string]string // regexp source → variable name
	patternList []string

	schemas  []schemaConst
	used     map[string]bool // package-level names taken
	numbered map[string]int  // base → the number name tried last for it

	locals map[string]string    // RegisterMCP's and the handlers' locals: usual name → name used
	recvs  map[*Receiver]string // RegisterMCP's receiver parameters
}

type schemaConst struct {
	name   string
	schema *jsonschema.Schema
}

// name returns a fresh package-level identifier starting with base: base
// itself, or base followed by the first number from 2 on that is free.
// The numbers tried for each base are remembered, so that many names on
// one base (mcpDecodeStruct, …) cost no more than one each.
func (e *emitter) name(base string) string {
	n := base
	i := max(e.numbered[base], 2)
	if e.used[n] {
		n = base + strconv.Itoa(i)
	}
	for e.used[n] {
		i++
		n = base + strconv.Itoa(i)
	}
	e.numbered[base] = i
	e.used[n] = true
	return n
}

// rt names an identifier of the runtime's user-facing API.
func rt(name string) *jen.Statement { return jen.Qual(RuntimePath, name) }

// impl names an identifier of the generated-code plumbing, mcpimpl.
func impl(name string) *jen.Statement { return jen.Qual(ImplPath, name) }

// local renders the name of one of RegisterMCP's or the handlers' locals.
func (e *emitter) local(name string) *jen.Statement { return jen.Id(e.locals[name]) }

// registerFunc writes RegisterMCP.
func (e *emitter) registerFunc() {
	e.f.Comment(e.registerDoc())
	params := []jen.Code{e.local("s").Op("*").Add(rt("Server"))}
	for _, r := range e.pkg.Receivers {
		params = append(params, jen.Id(e.recvs[r]).Add(e.typeCode(r.Type)))
	}
	e.f.Func().Id("RegisterMCP").Params(params...).BlockFunc(func(g *jen.Group) {
		for _, t := range e.pkg.Tools {
			g.Add(e.local("s")).Dot("AddTool").Call(e.toolValue(t))
		}
		e.registerPrims(g)
	})
}

// toolValue renders the runtime.Tool literal of t.
func (e *emitter) toolValue(t *Tool) jen.Code {
	base := camelCase(t.Name)
	var fields []jen.Code
	field := func(name string, value jen.Code) {
		fields = append(fields, jen.Line().Id(name).Op(":").Add(value))
	}
	field("Name", jen.Lit(t.Name))
	if t.Title != "" {
		field("Title", jen.Lit(t.Title))
	}
	if t.Description != "" {
		field("Description", jen.Lit(t.Description))
	}
	in := e.name("mcpInputSchema" + base)
	e.schemas = append(e.schemas, schemaConst{in, t.InputSchema})
	field("InputSchema", jen.Id(in))
	if t.OutputSchema != nil {
		out := e.name("mcpOutputSchema" + base)
		e.schemas = append(e.schemas, schemaConst{out, t.OutputSchema})
		field("OutputSchema", jen.Id(out))
	}
	if !t.Annotations.Empty() {
		var hints []jen.Code
		for _, h := range []struct {
			field string
			v     *bool
		}{{"ReadOnlyHint", t.Annotations.ReadOnly}, {"DestructiveHint", t.Annotations.Destructive}, {"IdempotentHint", t.Annotations.Idempotent}, {"OpenWorldHint", t.Annotations.OpenWorld}} {
			if h.v != nil {
				hints = append(hints, jen.Id(h.field).Op(":").Add(rt("Bool").Call(jen.Lit(*h.v))))
			}
		}
		field("Annotations", jen.Op("&").Add(rt("ToolAnnotations")).Values(hints...))
	}
	if t.Timeout > 0 {
		field("Timeout", durationCode(t.Timeout))
	}
	field("Handler", e.handler(t))
	fields = append(fields, jen.Line())
	return rt("Tool").Values(fields...)
}

// handler renders the ToolHandler of t: decode, validate, call, wrap.
func (e *emitter) handler(t *Tool) jen.Code {
	ctx, req, d, in, out, err := e.local("ctx"), e.local("req"), e.local("d"), e.local("in"), e.local("out"), e.local("err")
	return jen.Func().Params(
		jen.Add(ctx).Qual("context", "Context"),
		jen.Add(req).Op("*").Add(rt("ToolRequest")),
	).Params(jen.Op("*").Add(rt("CallToolResult")), jen.Error()).BlockFunc(func(g *jen.Group) {
		var args []jen.Code
		if t.Context {
			args = append(args, ctx)
		}
		if t.Input != nil {
			g.Var().Add(in).Add(e.typeCode(t.Input.Type))
			g.Add(d).Op(":=").Add(impl("ArgumentsDecoder")).Call(jen.Add(req).Dot("Arguments"))
			g.Id(e.decoderFor(t.Input)).Call(d, jen.Op("&").Add(in))
			if t.InputPointer {
				args = append(args, jen.Op("&").Add(in))
			} else {
				args = append(args, in)
			}
		} else {
			g.Add(d).Op(":=").Add(impl("ArgumentsDecoder")).Call(jen.Add(req).Dot("Arguments"))
			g.Add(impl("DecodeNoArguments")).Call(d)
		}
		g.If(jen.Add(err).Op(":=").Add(d).Dot("Done").Call(), jen.Add(err).Op("!=").Nil()).Block(jen.Return(jen.Nil(), err))
		call := jen.Id(t.Func).Call(args...)
		if t.Recv != nil {
			call = jen.Id(e.recvs[t.Recv]).Dot(t.Func).Call(args...)
		}
		if t.Output == OutputNone {
			g.If(jen.Add(err).Op(":=").Add(call), jen.Add(err).Op("!=").Nil()).Block(jen.Return(jen.Nil(), err))
			g.Return(jen.Op("&").Add(rt("CallToolResult")).Values(), jen.Nil())
			return
		}
		g.List(out, err).Op(":=").Add(call)
		g.If(jen.Add(err).Op("!=").Nil()).Block(jen.Return(jen.Nil(), err))
		switch t.Output {
		case OutputText:
			text := jen.Add(out)
			if b, ok := t.OutputType.(*types.Basic); !ok || b.Kind() != types.String {
				text = jen.String().Parens(out)
			}
			g.Return(rt("TextResult").Call(text), jen.Nil())
		case OutputStructured:
			e.encodeResult(g, t)
		case OutputResult:
			g.Return(out, jen.Nil())
		case OutputContent:
			g.Return(rt("ContentResult").Call(out), jen.Nil())
		}
	})
}

// typeKey identifies a type across shapes.
func typeKey(t types.Type) string { return types.TypeString(t, nil) }

// decoderFor returns the name of the decoder function of a struct shape,
// queueing it on first use.
func (e *emitter) decoderFor(s *Shape) string {
	return e.structFunc(s, "mcpDecode", e.decoders, &e.queue)
}

// structFunc returns the name of the function of a struct shape that
// names (keyed by type) holds, prefix and the type's name making a new
// one, which is queued for writing with the shape's full definition.
func (e *emitter) structFunc(s *Shape, prefix string, names map[string]string, queue *[]*Shape) string {
	key := typeKey(s.Type)
	if name, ok := names[key]; ok {
		return name
	}
	base := prefix + "Struct"
	if n, ok := types.Unalias(s.Type).(*types.Named); ok {
		base = prefix + n.Obj().Name()
	} else if hint, ok := e.anon[key]; ok {
		base = prefix + hint
	}
	name := e.name(base)
	names[key] = name
	if s.Ref != "" {
		if def := e.defs[key]; def != nil {
			s = def
		} else if def := e.pkg.Defs[s.Ref]; def != nil {
			s = def
			e.collectDefs(def)
		}
	}
	*queue = append(*queue, s)
	return name
}

// collectDefs records the full shape of every struct type reachable from s,
// so that recursive references can find the shape they refer to.
func (e *emitter) collectDefs(s *Shape) {
	if s == nil {
		return
	}
	if e.defs == nil {
		e.defs = map[string]*Shape{}
	}
	if s.Kind == KindStruct && s.Ref == "" {
		key := typeKey(s.Type)
		if _, ok := e.defs[key]; ok {
			return
		}
		e.defs[key] = s
		for _, f := range s.Fields {
			e.collectDefs(f.Shape)
		}
	}
	e.collectDefs(s.Elem)
}

// decoderFunc writes the decoder of one struct shape.
func (e *emitter) decoderFunc(s *Shape) {
	if s.Ref != "" {
		// A reference whose definition was not seen: every reference has a
		// definition above it in the tree, so this is a generator bug.
		panic("mcpgen bug: no definition for recursive type " + s.Ref)
	}
	name := e.decoders[typeKey(s.Type)]
	e.f.Commentf("%s decodes and validates %s.", name, types.TypeString(s.Type, e.qualifier))
	e.f.Func().Id(name).Params(jen.Id("d").Op("*").Add(impl("Decoder")), e.local("v").Op("*").Add(e.typeCode(s.Type))).BlockFunc(func(g *jen.Group) {
		g.If(jen.Op("!").Id("d").Dot("Object").Call()).Block(jen.Return())
		var tracked []int // fields whose presence is checked after the loop
		for i, f := range s.Fields {
			switch {
			case e.presetDefault(f):
				// The default is written first, for the field's value,
				// if given, to replace.
				e.assignDefault(g, e.fieldRef(s, f), f.Shape)
			case f.Required || e.defaultValue(f.Shape) != nil:
				tracked = append(tracked, i)
			}
		}
		if len(tracked) > 0 {
			g.Var().Add(e.local("seen")).Index(jen.Lit(len(tracked))).Bool()
		}
		allowed := make([]string, len(s.Fields))
		for i, f := range s.Fields {
			allowed[i] = f.Name
		}
		keyVar := e.local("key")
		if len(s.Fields) == 0 {
			keyVar = jen.Id("_")
		}
		g.Add(fieldLoop(keyVar, e.local("ok"))).BlockFunc(func(g *jen.Group) {
			if len(s.Fields) == 0 {
				g.Id("d").Dot("Unknown").Call(jen.Lit(""))
				return
			}
			g.Switch(jen.String().Parens(e.local("key"))).BlockFunc(func(g *jen.Group) {
				for i, f := range s.Fields {
					g.Case(jen.Lit(f.Name)).BlockFunc(func(g *jen.Group) {
						markSeen := func(g *jen.Group) {
							for ti, fi := range tracked {
								if fi == i {
									g.Add(e.local("seen")).Index(jen.Lit(ti)).Op("=").True()
								}
							}
						}
						if m := optRead(f); m != "" && !slices.Contains(tracked, i) {
							// An optional plain value, read in one call that
							// also lets null stand for "not given".
							g.Id("d").Dot(m).Call(jen.Op("&").Add(e.fieldRef(s, f)))
							return
						}
						if f.Nullable {
							markSeen(g) // null is a value the schema allows
						}
						// A pointer with a default reads null as "not given"
						// too, so that the default applies.
						defaultPtr := f.Shape.Kind == KindPointer && !f.Nullable && e.defaultValue(f.Shape) != nil
						body := func(g *jen.Group) {
							if !f.Nullable {
								markSeen(g)
							}
							e.allocPath(g, f)
							target := func() *jen.Statement { return e.fieldRef(s, f) }
							if defaultPtr && !f.Shape.Quoted {
								e.pointee(g, f.Shape, target, 0)
							} else {
								e.value(g, f.Shape, target, 0)
							}
						}
						if (!f.Required || f.Nullable) && (f.Shape.Kind != KindPointer || defaultPtr) {
							// null stands for "not given" on an optional field,
							// and leaves a nullable one as it is.
							g.If(jen.Op("!").Id("d").Dot("Null").Call()).BlockFunc(body)
						} else {
							body(g)
						}
					})
				}
				g.Default().Block(jen.Id("d").Dot("Unknown").Call(jen.Lit(strings.Join(allowed, ", "))))
			})
		})
		for ti, fi := range tracked {
			f := s.Fields[fi]
			if f.Required {
				g.Id("d").Dot("Require").Call(jen.Add(e.local("seen")).Index(jen.Lit(ti)), jen.Lit(f.Name))
				continue
			}
			g.If(jen.Op("!").Add(e.local("seen")).Index(jen.Lit(ti))).BlockFunc(func(g *jen.Group) {
				e.allocPath(g, f)
				e.assignDefault(g, e.fieldRef(s, f), f.Shape)
			})
		}
	})
}

// optRead returns the Decoder method that reads the optional field f
// whole, null included (OptString, OptBool, OptStrings), or "" when f is
// not a plain string, boolean or list of strings without checks, that
// null leaves as it is, reached without pointers.
func optRead(f *Field) string {
	s := f.Shape
	if f.Required || f.Nullable || s.Quoted {
		return ""
	}
	for _, step := range f.Path {
		if step.Ptr {
			return ""
		}
	}
	sc := s.Schema
	switch {
	case types.Identical(s.Type, types.Typ[types.String]) && plainString(s):
		return "OptString"
	case types.Identical(s.Type, types.Typ[types.Bool]) && (sc == nil || len(sc.Enum) == 0):
		return "OptBool"
	case types.Identical(s.Type, types.NewSlice(types.Typ[types.String])) && plainStrings(s) &&
		(sc == nil || sc.MinItems == nil && sc.MaxItems == nil && !sc.UniqueItems):
		return "OptStrings"
	}
	return ""
}

// presetDefault reports whether the default of field f can be assigned
// before the object is read rather than after it, when f turned out to be
// absent: an optional, non-nullable scalar field, not quoted, whose
// default costs nothing to assign, and which a null leaves as it is. Its
// value, when given, replaces the default, as it would not be replaced
// after the loop; a null does not, as the default would be assigned then.
func (e *emitter) presetDefault(f *Field) bool {
	if f.Required || f.Nullable || f.Shape.Quoted || e.defaultValue(f.Shape) == nil {
		return false
	}
	switch f.Shape.Kind {
	case KindString, KindBool, KindInt, KindUint, KindFloat:
	default:
		return false
	}
	for _, step := range f.Path {
		if step.Ptr {
			return false
		}
	}
	return true
}

// fieldLoop renders the header of a loop over the properties of an
// object: for key, ok := d.Field(); ok; key, ok = d.Field().
func fieldLoop(key, ok jen.Code) *jen.Statement {
	return jen.For(jen.List(key, ok).Op(":=").Id("d").Dot("Field").Call(), ok, jen.List(key, ok).Op("=").Id("d").Dot("Field").Call())
}

// fieldRef renders v.A.B for a field's Go path in the struct s. An
// unexported embedded struct of another package cannot be named here, so
// its fields are reached by promotion, as encoding/json reaches them.
func (e *emitter) fieldRef(s *Shape, f *Field) *jen.Statement {
	foreign := false
	if n, ok := types.Unalias(s.Type).(*types.Named); ok && n.Obj().Pkg() != nil {
		foreign = n.Obj().Pkg().Path() != e.pkg.PkgPath
	}
	st := e.local("v")
	for i, step := range f.Path {
		if foreign && i < len(f.Path)-1 && !token.IsExported(step.Name) {
			continue
		}
		st = st.Dot(step.Name)
	}
	return st
}

// allocPath allocates the embedded pointers on a field's path.
func (e *emitter) allocPath(g *jen.Group, f *Field) {
	st := e.local("v")
	for _, step := range f.Path[:len(f.Path)-1] {
		st = jen.Add(st).Dot(step.Name)
		if step.Ptr {
			elem := types.Unalias(step.Type).(*types.Pointer).Elem()
			g.If(jen.Add(st).Op("==").Nil()).Block(jen.Add(st).Op("=").New(e.typeCode(elem)))
		}
	}
}

// assignDefault writes the assignment of a field's schema default to
// target; a pointer field gets a new value holding it.
func (e *emitter) assignDefault(g *jen.Group, target *jen.Statement, sh *Shape) {
	if sh.Kind == KindPointer {
		g.Add(target.Clone()).Op("=").New(e.typeCode(sh.Elem.Type))
		g.Op("*").Add(target).Op("=").Add(e.defaultValue(sh))
		return
	}
	g.Add(target).Op("=").Add(e.defaultValue(sh))
}

// defaultValue returns the literal of the schema default at a site (of a
// pointer's element for a pointer), or nil when it has none. The schema
// builder rejects a default that no literal can hold (see
// defaultProblem), so every default it lets through is applied.
func (e *emitter) defaultValue(sh *Shape) jen.Code {
	s := sh.Schema
	if s != nil && s.Default == nil && len(s.OneOf) == 2 && s.OneOf[1].Type == "null" {
		s = s.OneOf[0] // a nullable field's schema, inside the oneOf that allows null
	}
	if s == nil || s.Default == nil {
		return nil
	}
	d := s.Default
	for sh.Kind == KindPointer && sh.Elem != nil {
		sh = sh.Elem
	}
	switch sh.Kind {
	case KindString:
		if s, ok := d.(string); ok {
			return jen.Lit(s)
		}
	case KindBool:
		if b, ok := d.(bool); ok {
			return jen.Lit(b)
		}
	case KindInt, KindUint, KindFloat:
		if lit, ok := numberLiteral(d); ok {
			r, _ := new(big.Rat).SetString(lit)
			if sh.Kind == KindFloat || r != nil && r.IsInt() {
				return jen.Op(lit)
			}
		}
	case KindTime:
		if s, ok := d.(string); ok {
			if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
				return timeLiteral(t)
			}
		}
	case KindSlice:
		items, ok := d.([]any)
		if !ok || sh.Elem == nil || sh.Elem.Kind != KindString || sh.Elem.Quoted {
			return nil
		}
		return e.typeCode(sh.Type).ValuesFunc(func(g *jen.Group) {
			for _, it := range items {
				g.Lit(it)
			}
		})
	}
	return nil
}

// timeLiteral renders t as a call of time.Date, in UTC or at t's offset
// from it.
func timeLiteral(t time.Time) jen.Code {
	loc := jen.Qual("time", "UTC")
	if _, off := t.Zone(); off != 0 {
		loc = jen.Qual("time", "FixedZone").Call(jen.Lit(""), jen.Lit(off))
	}
	return jen.Qual("time", "Date").Call(jen.Lit(t.Year()), jen.Qual("time", t.Month().String()), jen.Lit(t.Day()),
		jen.Lit(t.Hour()), jen.Lit(t.Minute()), jen.Lit(t.Second()), jen.Lit(t.Nanosecond()), loc)
}

// numberLiteral renders a JSON number held in a schema as Go source.
func numberLiteral(v any) (string, bool) {
	switch n := v.(type) {
	case json.Number:
		return n.String(), n != ""
	case float64:
		return strconv.FormatFloat(n, 'g', -1, 64), true
	case float32:
		return strconv.FormatFloat(float64(n), 'g', -1, 32), true
	case int:
		return strconv.Itoa(n), true
	case int64:
		return strconv.FormatInt(n, 10), true
	case uint64:
		return strconv.FormatUint(n, 10), true
	}
	return "", false
}

// pointee writes code that reads the non-null JSON value of the pointer
// shape s into a new value and points target at it.
func (e *emitter) pointee(g *jen.Group, s *Shape, target func() *jen.Statement, depth int) {
	p := "p" + strconv.Itoa(depth)
	g.Id(p).Op(":=").New(e.typeCode(s.Elem.Type))
	if s.Elem.Kind == KindStruct {
		g.Id(e.decoderFor(s.Elem)).Call(jen.Id("d"), jen.Id(p))
	} else {
		e.value(g, s.Elem, func() *jen.Statement { return jen.Op("*").Id(p) }, depth+1)
	}
	g.Add(target()).Op("=").Id(p)
}

// value writes code that reads one JSON value of shape s into target.
func (e *emitter) value(g *jen.Group, s *Shape, target func() *jen.Statement, depth int) {
	x := jen.Id("x" + strconv.Itoa(depth))
	xs := func() *jen.Statement { return jen.Id("x" + strconv.Itoa(depth)) }
	// read writes a read whose result, converted by conv, goes to target
	// after the checks. Without checks the result is stored whether the
	// read succeeded or not: a failed read has recorded a violation, and
	// the decoded value is not used then.
	read := func(read *jen.Statement, conv func(*jen.Statement) *jen.Statement, checks []jen.Code) {
		if len(checks) > 0 {
			g.If(jen.List(x, e.local("ok")).Op(":=").Add(read), e.local("ok")).BlockFunc(func(g *jen.Group) {
				for _, c := range checks {
					g.Add(c)
				}
				g.Add(target()).Op("=").Add(conv(xs()))
			})
			return
		}
		if v := xs(); conv(v) == v {
			g.List(target(), jen.Id("_")).Op("=").Add(read)
			return
		}
		g.List(x, jen.Id("_")).Op(":=").Add(read)
		g.Add(target()).Op("=").Add(conv(xs()))
	}
	scalar := func(r *jen.Statement, conv func(*jen.Statement) *jen.Statement) {
		read(r, conv, e.checkCode(s, xs))
	}
	convert := func(basic string) func(*jen.Statement) *jen.Statement {
		return func(v *jen.Statement) *jen.Statement {
			if b, ok := s.Type.(*types.Basic); ok && b.Name() == basic {
				return v
			}
			return e.typeCode(s.Type).Parens(v)
		}
	}
	if s.Quoted {
		e.quotedValue(g, s, target, depth)
		return
	}
	switch s.Kind {
	case KindBool:
		scalar(jen.Id("d").Dot("Bool").Call(), convert("bool"))
	case KindString:
		scalar(jen.Id("d").Dot("String").Call(), convert("string"))
	case KindInt:
		if r := rangeRead(s); r != nil {
			g.Add(target()).Op("=").Add(convert("int64")(r))
			return
		}
		scalar(numberRead(s, "Int"), convert("int64"))
	case KindUint:
		if r := rangeRead(s); r != nil {
			g.Add(target()).Op("=").Add(convert("uint64")(r))
			return
		}
		scalar(numberRead(s, "Uint"), convert("uint64"))
	case KindFloat:
		scalar(numberRead(s, "Float"), convert("float64"))
	case KindTime:
		scalar(jen.Id("d").Dot("Time").Call(), func(v *jen.Statement) *jen.Statement {
			if isNamed(s.Type, "time", "Time") {
				return v
			}
			return e.typeCode(s.Type).Parens(v)
		})
	case KindBytes:
		scalar(jen.Id("d").Dot("Base64").Call(), func(v *jen.Statement) *jen.Statement {
			if _, ok := s.Type.(*types.Slice); ok {
				return v
			}
			return e.typeCode(s.Type).Parens(v)
		})
	case KindRawMessage:
		scalar(jen.Id("d").Dot("Raw").Call(), func(v *jen.Statement) *jen.Statement { return e.typeCode(s.Type).Parens(v) })
	case KindAny, KindUnmarshaler:
		g.If(jen.List(x, e.local("ok")).Op(":=").Id("d").Dot("Raw").Call(), e.local("ok")).BlockFunc(func(g *jen.Group) {
			g.If(
				jen.Err().Op(":=").Qual("encoding/json", "Unmarshal").Call(xs(), jen.Op("&").Add(target())),
				jen.Err().Op("!=").Nil(),
			).Block(jen.Id("d").Dot("Violation").Call(jen.Lit("invalid value: ").Op("+").Err().Dot("Error").Call()))
		})
	case KindStruct:
		g.Id(e.decoderFor(s)).Call(jen.Id("d"), jen.Op("&").Add(target()))
	case KindPointer:
		g.If(jen.Id("d").Dot("Null").Call()).Block(
			jen.Add(target()).Op("=").Nil(),
		).Else().BlockFunc(func(g *jen.Group) {
			e.pointee(g, s, target, depth)
		})
	case KindSlice:
		if plainStrings(s) {
			read(jen.Id("d").Dot("Strings").Call(), func(v *jen.Statement) *jen.Statement {
				if _, ok := s.Type.(*types.Slice); ok {
					return v
				}
				return e.typeCode(s.Type).Parens(v)
			}, arrayCheckCode(s, xs(), jen.Len(xs())))
			return
		}
		sl := "s" + strconv.Itoa(depth)
		g.If(jen.Id("d").Dot("Array").Call()).BlockFunc(func(g *jen.Group) {
			g.Id(sl).Op(":=").Make(e.typeCode(s.Type), jen.Lit(0))
			g.For(jen.Id("d").Dot("Elem").Call()).BlockFunc(func(g *jen.Group) {
				ev := "e" + strconv.Itoa(depth)
				g.Var().Id(ev).Add(e.typeCode(s.Elem.Type))
				e.value(g, s.Elem, func() *jen.Statement { return jen.Id(ev) }, depth+1)
				g.Id(sl).Op("=").Append(jen.Id(sl), jen.Id(ev))
			})
			e.arrayChecks(g, s, jen.Id(sl), jen.Len(jen.Id(sl)))
			g.Add(target()).Op("=").Id(sl)
		})
	case KindArray:
		n := "n" + strconv.Itoa(depth)
		g.If(jen.Id("d").Dot("Array").Call()).BlockFunc(func(g *jen.Group) {
			g.Id(n).Op(":=").Lit(0)
			g.For(jen.Id("d").Dot("Elem").Call()).BlockFunc(func(g *jen.Group) {
				g.If(jen.Id(n).Op("<").Lit(int(s.Len))).BlockFunc(func(g *jen.Group) {
					e.value(g, s.Elem, func() *jen.Statement { return jen.Add(target()).Index(jen.Id(n)) }, depth+1)
				}).Else().Block(jen.Id("d").Dot("Skip").Call())
				g.Id(n).Op("++")
			})
			e.arrayChecks(g, s, jen.Add(target()).Index(jen.Op(":")), jen.Id(n))
		})
	case KindMap:
		m := "m" + strconv.Itoa(depth)
		k := "k" + strconv.Itoa(depth)
		g.If(jen.Id("d").Dot("Object").Call()).BlockFunc(func(g *jen.Group) {
			g.Id(m).Op(":=").Make(e.typeCode(s.Type))
			g.Add(fieldLoop(e.local("key"), e.local("ok"))).BlockFunc(func(g *jen.Group) {
				e.mapKey(g, s, k)
				ev := "e" + strconv.Itoa(depth)
				g.Var().Id(ev).Add(e.typeCode(s.Elem.Type))
				e.value(g, s.Elem, func() *jen.Statement { return jen.Id(ev) }, depth+1)
				g.Id(m).Index(jen.Id(k)).Op("=").Id(ev)
			})
			g.Add(target()).Op("=").Id(m)
		})
	}
}

// plainStrings reports whether s is a slice of plain strings whose items
// have nothing to check, which d.Strings reads whole.
func plainStrings(s *Shape) bool {
	el := s.Elem
	return el != nil && el.Kind == KindString && types.Identical(el.Type, types.Typ[types.String]) && plainString(el)
}

// plainString reports whether the string shape s has nothing to check.
func plainString(s *Shape) bool {
	if s.Kind != KindString || s.Quoted {
		return false
	}
	sc := s.Schema
	return sc == nil || len(sc.Enum) == 0 && sc.MinLength == nil && sc.MaxLength == nil && sc.Pattern == ""
}

// durationCode renders d as a multiple of its largest whole unit, such as
// 30 * time.Second.
func durationCode(d time.Duration) jen.Code {
	for _, u := range []struct {
		unit time.Duration
		name string
	}{{time.Hour, "Hour"}, {time.Minute, "Minute"}, {time.Second, "Second"}, {time.Millisecond, "Millisecond"}, {time.Microsecond, "Microsecond"}} {
		if d%u.unit == 0 {
			return jen.Lit(int(d/u.unit)).Op("*").Qual("time", u.name)
		}
	}
	return jen.Qual("time", "Duration").Call(jen.Lit(int64(d)))
}
