package generator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/token"
	"go/types"
	"math/big"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/invopop/jsonschema"
)

// Emit renders the generated file of one package. An error means a bug in
// the generator (the rendered code did not format), not in the user's code.
func Emit(p *Package) ([]byte, error) {
	e := &emitter{
		pkg:      p,
		f:        jen.NewFilePathName(p.PkgPath, p.Name),
		decoders: map[string]string{},
		patterns: map[string]string{},
		used:     map[string]bool{},
	}
	e.f.HeaderComment(generatedHeader)
	e.f.ImportName(RuntimePath, "runtime")
	for _, t := range p.Tools {
		e.collectDefs(t.Input)
	}
	e.registerFunc()
	e.optionsFunc()
	for len(e.queue) > 0 {
		s := e.queue[0]
		e.queue = e.queue[1:]
		e.decoderFunc(s)
	}
	e.patternVars()
	if len(e.schemas) > 0 {
		e.schemaConsts()
	}
	var buf bytes.Buffer
	if err := e.f.Render(&buf); err != nil {
		return nil, fmt.Errorf("mcpgen bug: generated code for %s does not format: %w", p.PkgPath, err)
	}
	return buf.Bytes(), nil
}

type emitter struct {
	pkg *Package
	f   *jen.File

	decoders map[string]string // type key → decoder function name
	defs     map[string]*Shape // type key → shape with fields, for Ref sites
	queue    []*Shape          // struct shapes whose decoder is still to be written

	patterns    map[string]string // regexp source → variable name
	patternList []string

	schemas []schemaConst
	used    map[string]bool // package-level names taken
}

type schemaConst struct {
	name   string
	schema *jsonschema.Schema
}

// name returns a fresh package-level identifier starting with base.
func (e *emitter) name(base string) string {
	n := base
	for i := 2; e.used[n]; i++ {
		n = base + strconv.Itoa(i)
	}
	e.used[n] = true
	return n
}

func rt(name string) *jen.Statement { return jen.Qual(RuntimePath, name) }

// registerFunc writes RegisterMCP.
func (e *emitter) registerFunc() {
	e.f.Comment(e.registerDoc())
	params := []jen.Code{jen.Id("s").Op("*").Add(rt("Server"))}
	for _, r := range e.pkg.Receivers {
		params = append(params, jen.Id(r.Param).Add(e.typeCode(r.Type)))
	}
	e.f.Func().Id("RegisterMCP").Params(params...).BlockFunc(func(g *jen.Group) {
		for _, t := range e.pkg.Tools {
			g.Id("s").Dot("AddTool").Call(e.toolValue(t))
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
	field("InputSchema", jen.Index().Byte().Parens(jen.Id(in)))
	if t.OutputSchema != nil {
		out := e.name("mcpOutputSchema" + base)
		e.schemas = append(e.schemas, schemaConst{out, t.OutputSchema})
		field("OutputSchema", jen.Index().Byte().Parens(jen.Id(out)))
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
	field("Handler", e.handler(t))
	fields = append(fields, jen.Line())
	return rt("Tool").Values(fields...)
}

// handler renders the ToolHandler of t: decode, validate, call, wrap.
func (e *emitter) handler(t *Tool) jen.Code {
	return jen.Func().Params(
		jen.Id("ctx").Qual("context", "Context"),
		jen.Id("req").Op("*").Add(rt("ToolRequest")),
	).Params(jen.Op("*").Add(rt("CallToolResult")), jen.Error()).BlockFunc(func(g *jen.Group) {
		var args []jen.Code
		if t.Context {
			args = append(args, jen.Id("ctx"))
		}
		if t.Input != nil {
			g.Var().Id("in").Add(e.typeCode(t.Input.Type))
			g.Id("d").Op(":=").Id("req").Dot("Decoder").Call()
			g.Id(e.decoderFor(t.Input)).Call(jen.Id("d"), jen.Op("&").Id("in"))
			if t.InputPointer {
				args = append(args, jen.Op("&").Id("in"))
			} else {
				args = append(args, jen.Id("in"))
			}
		} else {
			g.Id("d").Op(":=").Id("req").Dot("Decoder").Call()
			g.Add(rt("DecodeNoArguments")).Call(jen.Id("d"))
		}
		g.If(jen.Err().Op(":=").Id("d").Dot("Err").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err()))
		call := jen.Id(t.Func).Call(args...)
		if t.Recv != nil {
			call = jen.Id(t.Recv.Param).Dot(t.Func).Call(args...)
		}
		if t.Output == OutputNone {
			g.If(jen.Err().Op(":=").Add(call), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err()))
			g.Return(jen.Op("&").Add(rt("CallToolResult")).Values(), jen.Nil())
			return
		}
		g.List(jen.Id("out"), jen.Err()).Op(":=").Add(call)
		g.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err()))
		switch t.Output {
		case OutputText:
			out := jen.Id("out")
			if b, ok := t.OutputType.(*types.Basic); !ok || b.Kind() != types.String {
				out = jen.String().Parens(jen.Id("out"))
			}
			g.Return(rt("TextResult").Call(out), jen.Nil())
		case OutputStructured:
			g.Return(rt("Structured").Call(jen.Id("out"), jen.Lit(t.OutputWrap)))
		case OutputResult:
			g.Return(jen.Id("out"), jen.Nil())
		case OutputContent:
			g.Return(rt("ContentResult").Call(jen.Id("out")), jen.Nil())
		}
	})
}

// typeKey identifies a type across shapes.
func typeKey(t types.Type) string { return types.TypeString(t, nil) }

// decoderFor returns the name of the decoder function of a struct shape,
// queueing it on first use.
func (e *emitter) decoderFor(s *Shape) string {
	key := typeKey(s.Type)
	if name, ok := e.decoders[key]; ok {
		return name
	}
	base := "mcpDecodeStruct"
	if n, ok := types.Unalias(s.Type).(*types.Named); ok {
		base = "mcpDecode" + n.Obj().Name()
	}
	name := e.name(base)
	e.decoders[key] = name
	if s.Ref != "" {
		if def := e.defs[key]; def != nil {
			s = def
		} else if def := e.pkg.Defs[s.Ref]; def != nil {
			s = def
			e.collectDefs(def)
		}
	}
	e.queue = append(e.queue, s)
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
	e.f.Func().Id(name).Params(jen.Id("d").Op("*").Add(rt("Decoder")), jen.Id("v").Op("*").Add(e.typeCode(s.Type))).BlockFunc(func(g *jen.Group) {
		g.If(jen.Op("!").Id("d").Dot("Object").Call()).Block(jen.Return())
		var tracked []int // fields whose presence is checked after the loop
		for i, f := range s.Fields {
			if f.Required || scalarDefault(f) != nil {
				tracked = append(tracked, i)
			}
		}
		if len(tracked) > 0 {
			g.Var().Id("seen").Index(jen.Lit(len(tracked))).Bool()
		}
		allowed := make([]string, len(s.Fields))
		for i, f := range s.Fields {
			allowed[i] = f.Name
		}
		keyVar := jen.Id("key")
		if len(s.Fields) == 0 {
			keyVar = jen.Id("_")
		}
		g.For().BlockFunc(func(g *jen.Group) {
			g.List(keyVar, jen.Id("ok")).Op(":=").Id("d").Dot("Field").Call()
			g.If(jen.Op("!").Id("ok")).Block(jen.Break())
			if len(s.Fields) == 0 {
				g.Id("d").Dot("Unknown").Call(jen.Lit(""))
				return
			}
			g.Switch(jen.String().Parens(jen.Id("key"))).BlockFunc(func(g *jen.Group) {
				for i, f := range s.Fields {
					g.Case(jen.Lit(f.Name)).BlockFunc(func(g *jen.Group) {
						if !f.Required && f.Shape.Kind != KindPointer {
							// null stands for "not given" on an optional field.
							g.If(jen.Id("d").Dot("Null").Call()).Block(jen.Break())
						}
						for ti, fi := range tracked {
							if fi == i {
								g.Id("seen").Index(jen.Lit(ti)).Op("=").True()
							}
						}
						e.allocPath(g, f)
						e.value(g, f.Shape, func() *jen.Statement { return e.fieldRef(s, f) }, 0)
					})
				}
				g.Default().Block(jen.Id("d").Dot("Unknown").Call(jen.Lit(strings.Join(allowed, ", "))))
			})
		})
		for ti, fi := range tracked {
			f := s.Fields[fi]
			if f.Required {
				g.If(jen.Op("!").Id("seen").Index(jen.Lit(ti))).Block(jen.Id("d").Dot("Missing").Call(jen.Lit(f.Name)))
				continue
			}
			g.If(jen.Op("!").Id("seen").Index(jen.Lit(ti))).BlockFunc(func(g *jen.Group) {
				e.allocPath(g, f)
				g.Add(e.fieldRef(s, f)).Op("=").Add(scalarDefault(f))
			})
		}
	})
}

// fieldRef renders v.A.B for a field's Go path in the struct s. An
// unexported embedded struct of another package cannot be named here, so
// its fields are reached by promotion, as encoding/json reaches them.
func (e *emitter) fieldRef(s *Shape, f *Field) *jen.Statement {
	foreign := false
	if n, ok := types.Unalias(s.Type).(*types.Named); ok && n.Obj().Pkg() != nil {
		foreign = n.Obj().Pkg().Path() != e.pkg.PkgPath
	}
	st := jen.Id("v")
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
	st := jen.Id("v")
	for _, step := range f.Path[:len(f.Path)-1] {
		st = jen.Add(st).Dot(step.Name)
		if step.Ptr {
			elem := types.Unalias(step.Type).(*types.Pointer).Elem()
			g.If(jen.Add(st).Op("==").Nil()).Block(jen.Add(st).Op("=").New(e.typeCode(elem)))
		}
	}
}

// scalarDefault returns the literal of a field's schema default, when it
// has one that can be assigned.
func scalarDefault(f *Field) jen.Code {
	if f.Required || f.Shape.Schema == nil || f.Shape.Schema.Default == nil {
		return nil
	}
	d := f.Shape.Schema.Default
	switch f.Shape.Kind {
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
			if f.Shape.Kind == KindFloat || r != nil && r.IsInt() {
				return jen.Op(lit)
			}
		}
	}
	return nil
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

// value writes code that reads one JSON value of shape s into target.
func (e *emitter) value(g *jen.Group, s *Shape, target func() *jen.Statement, depth int) {
	x := jen.Id("x" + strconv.Itoa(depth))
	xs := func() *jen.Statement { return jen.Id("x" + strconv.Itoa(depth)) }
	scalar := func(read *jen.Statement, conv func(*jen.Statement) *jen.Statement) {
		g.If(jen.List(x, jen.Id("ok")).Op(":=").Add(read), jen.Id("ok")).BlockFunc(func(g *jen.Group) {
			e.checks(g, s, xs)
			g.Add(target()).Op("=").Add(conv(xs()))
		})
	}
	convert := func(basic string) func(*jen.Statement) *jen.Statement {
		return func(v *jen.Statement) *jen.Statement {
			if b, ok := s.Type.(*types.Basic); ok && b.Name() == basic {
				return v
			}
			return e.typeCode(s.Type).Parens(v)
		}
	}
	switch s.Kind {
	case KindBool:
		scalar(jen.Id("d").Dot("Bool").Call(), convert("bool"))
	case KindString:
		scalar(jen.Id("d").Dot("String").Call(), convert("string"))
	case KindInt:
		scalar(jen.Id("d").Dot("Int").Call(jen.Lit(s.Bits)), convert("int64"))
	case KindUint:
		scalar(jen.Id("d").Dot("Uint").Call(jen.Lit(s.Bits)), convert("uint64"))
	case KindFloat:
		scalar(jen.Id("d").Dot("Float").Call(jen.Lit(s.Bits)), convert("float64"))
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
		g.If(jen.List(x, jen.Id("ok")).Op(":=").Id("d").Dot("Raw").Call(), jen.Id("ok")).BlockFunc(func(g *jen.Group) {
			g.If(
				jen.Err().Op(":=").Qual("encoding/json", "Unmarshal").Call(xs(), jen.Op("&").Add(target())),
				jen.Err().Op("!=").Nil(),
			).Block(jen.Id("d").Dot("Violation").Call(jen.Lit("invalid value: ").Op("+").Err().Dot("Error").Call()))
		})
	case KindStruct:
		g.Id(e.decoderFor(s)).Call(jen.Id("d"), jen.Op("&").Add(target()))
	case KindPointer:
		p := "p" + strconv.Itoa(depth)
		g.If(jen.Id("d").Dot("Null").Call()).Block(
			jen.Add(target()).Op("=").Nil(),
		).Else().BlockFunc(func(g *jen.Group) {
			g.Id(p).Op(":=").New(e.typeCode(s.Elem.Type))
			if s.Elem.Kind == KindStruct {
				g.Id(e.decoderFor(s.Elem)).Call(jen.Id("d"), jen.Id(p))
			} else {
				e.value(g, s.Elem, func() *jen.Statement { return jen.Op("*").Id(p) }, depth+1)
			}
			g.Add(target()).Op("=").Id(p)
		})
	case KindSlice:
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
			g.For().BlockFunc(func(g *jen.Group) {
				g.List(jen.Id("key"), jen.Id("ok")).Op(":=").Id("d").Dot("Field").Call()
				g.If(jen.Op("!").Id("ok")).Block(jen.Break())
				keyType := types.Unalias(s.Type).Underlying().(*types.Map).Key()
				key := jen.String().Parens(jen.Id("key"))
				if b, ok := keyType.(*types.Basic); !ok || b.Kind() != types.String {
					key = e.typeCode(keyType).Parens(key)
				}
				g.Id(k).Op(":=").Add(key)
				ev := "e" + strconv.Itoa(depth)
				g.Var().Id(ev).Add(e.typeCode(s.Elem.Type))
				e.value(g, s.Elem, func() *jen.Statement { return jen.Id(ev) }, depth+1)
				g.Id(m).Index(jen.Id(k)).Op("=").Id(ev)
			})
			g.Add(target()).Op("=").Id(m)
		})
	}
}
