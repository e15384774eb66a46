package generator

import (
	"encoding/json"
	"go/types"
	"strconv"

	"github.com/dave/jennifer/jen"
)

// The generated encoders are the mirror of the generated decoders: one
// function per struct type, writing through an mcpimpl.Encoder without
// reflection. They follow encoding/json (field names, omitempty, omitzero,
// embedded structs, sorted map keys of every kind, number formats, the
// ",string" option) except for nil values,
// where they follow the nil rule that the output schemas publish (see
// nilRule): a nil slice is [], a nil map is {}, a nil []byte is "", a
// property holding a nil pointer or promoted through a nil embedded pointer
// is left out, and a nil pointer element is null.

// encodeResult writes the handler's statements that encode out, the tool's
// structured result, and return it.
func (e *emitter) encodeResult(g *jen.Group, t *Tool) {
	out := e.local("out")
	if _, ok := types.Unalias(t.OutputType).(*types.Pointer); ok {
		g.If(jen.Add(out).Op("==").Nil()).Block(jen.Return(jen.Nil(), impl("ErrNilResult")))
		out = e.deref(e.local("out"))
	}
	enc := e.local("enc")
	g.Add(enc).Op(":=").New(impl("Encoder"))
	if t.OutputWrap != "" {
		g.Add(enc).Dot("Open").Call()
		g.Add(enc).Dot("Key").Call(rawLit(jsonKey(t.OutputWrap)))
		e.encodeValue(g, t.OutputShape, out, true, 0)
		g.Add(enc).Dot("Close").Call()
	} else {
		e.encodeValue(g, t.OutputShape, out, true, 0)
	}
	g.Return(rt("EncodedResult").Call(jen.Add(enc).Dot("JSON").Call()))
}

// deref renders *p and remembers p, so that addr can give p back for it.
func (e *emitter) deref(p *jen.Statement) *jen.Statement {
	x := jen.Parens(jen.Op("*").Add(p))
	if e.derefs == nil {
		e.derefs = map[*jen.Statement]*jen.Statement{}
	}
	e.derefs[x] = p
	return x
}

// addr renders &x, or p when x is *p.
func (e *emitter) addr(x *jen.Statement) *jen.Statement {
	if p, ok := e.derefs[x]; ok {
		return p
	}
	return jen.Op("&").Add(x)
}

// jsonKey renders a property name as the JSON string and colon that start
// the property.
func jsonKey(name string) string {
	b, _ := json.Marshal(name)
	return string(b) + ":"
}

// encoderFor returns the name of the encoder function of a struct shape,
// queueing it on first use.
func (e *emitter) encoderFor(s *Shape) string {
	return e.structFunc(s, "mcpEncode", e.encoders, &e.encodeQueue)
}

// encoderFunc writes the encoder of one struct shape.
func (e *emitter) encoderFunc(s *Shape) {
	if s.Ref != "" {
		panic("mcpgen bug: no definition for recursive type " + s.Ref)
	}
	name := e.encoders[typeKey(s.Type)]
	e.f.Commentf("%s writes %s as JSON.", name, types.TypeString(s.Type, e.qualifier))
	enc := e.local("enc")
	e.f.Func().Id(name).Params(jen.Add(enc).Op("*").Add(impl("Encoder")), e.local("v").Op("*").Add(e.typeCode(s.Type))).BlockFunc(func(g *jen.Group) {
		g.Add(enc).Dot("Open").Call()
		for _, f := range s.Fields {
			e.encodeField(g, s, f, 0)
		}
		g.Add(enc).Dot("Close").Call()
	})
}

// encodeField writes one property of a struct, inside the checks that
// leave it out: nil embedded pointers on its path, a nil pointer value,
// omitempty and omitzero.
func (e *emitter) encodeField(g *jen.Group, s *Shape, f *Field, depth int) {
	var conds []jen.Code
	for i := range f.Path[:len(f.Path)-1] {
		if f.Path[i].Ptr {
			conds = append(conds, e.pathRef(s, f.Path[:i+1]).Op("!=").Nil())
		}
	}
	x := e.fieldRef(s, f)
	sh := f.Shape
	val := x
	for sh.Kind == KindPointer {
		conds = append(conds, jen.Add(val).Op("!=").Nil())
		val = e.deref(val)
		sh = sh.Elem
	}
	if f.Shape.Kind == KindPointer {
		// Nil is left out already; omitzero may also ask the value.
		if f.OmitZero && hasMethod(f.Shape.Type, "IsZero", nil, []types.Type{types.Typ[types.Bool]}) {
			conds = append(conds, jen.Op("!").Add(x).Dot("IsZero").Call())
		}
	} else if c := e.omitCond(f, f.Shape.Type, x); c != nil {
		conds = append(conds, c)
	}
	write := func(g *jen.Group) {
		g.Add(e.local("enc")).Dot("Key").Call(rawLit(jsonKey(f.Name)))
		if f.Shape.Quoted {
			// encoding/json's ",string": the value inside a JSON string.
			g.Add(e.local("enc")).Dot("BeginQuote").Call()
			e.encodeValue(g, sh, val, true, depth)
			g.Add(e.local("enc")).Dot("EndQuote").Call()
			return
		}
		e.encodeValue(g, sh, val, true, depth)
	}
	if len(conds) == 0 {
		write(g)
		return
	}
	cond := jen.Add(conds[0])
	for _, c := range conds[1:] {
		cond = cond.Op("&&").Add(c)
	}
	g.If(cond).BlockFunc(write)
}

// pathRef renders v.A.B for a prefix of a field's path, skipping the
// unexported embedded structs of other packages as fieldRef does.
func (e *emitter) pathRef(s *Shape, path []FieldStep) *jen.Statement {
	return e.fieldRef(s, &Field{Path: path})
}

// omitCond returns the condition under which a field with omitempty or
// omitzero is written, or nil when it is always written.
func (e *emitter) omitCond(f *Field, t types.Type, x *jen.Statement) jen.Code {
	switch {
	case f.OmitEmpty:
		switch u := t.Underlying().(type) {
		case *types.Basic:
			switch {
			case u.Info()&types.IsBoolean != 0:
				return jen.Add(x)
			case u.Info()&types.IsString != 0:
				return jen.Add(x).Op("!=").Lit("")
			case u.Info()&types.IsNumeric != 0:
				return jen.Add(x).Op("!=").Lit(0)
			}
		case *types.Slice, *types.Map, *types.Array:
			return jen.Len(x).Op("!=").Lit(0)
		case *types.Pointer, *types.Interface:
			return jen.Add(x).Op("!=").Nil()
		}
		if f.OmitZero {
			return e.zeroCond(t, x)
		}
	case f.OmitZero:
		return e.zeroCond(t, x)
	}
	return nil
}

// zeroCond returns "x is not zero" as encoding/json's omitzero decides it:
// by an IsZero() bool method when the type has one, else by comparison with
// the zero value.
func (e *emitter) zeroCond(t types.Type, x *jen.Statement) jen.Code {
	boolT := types.Typ[types.Bool]
	if hasMethod(types.NewPointer(t), "IsZero", nil, []types.Type{boolT}) {
		return jen.Op("!").Add(x).Dot("IsZero").Call()
	}
	if strictlyComparable(t, nil) {
		return jen.Op("!").Add(impl("IsZero")).Call(x)
	}
	return jen.Op("!").Add(impl("IsZeroValue")).Call(jen.Op("&").Add(x))
}

// strictlyComparable reports whether == on values of t never panics.
func strictlyComparable(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return true
	}
	if seen == nil {
		seen = map[types.Type]bool{}
	}
	seen[t] = true
	switch u := t.Underlying().(type) {
	case *types.Basic, *types.Pointer, *types.Chan:
		return true
	case *types.Array:
		return strictlyComparable(u.Elem(), seen)
	case *types.Struct:
		for i := range u.NumFields() {
			if !strictlyComparable(u.Field(i).Type(), seen) {
				return false
			}
		}
		return true
	}
	return false
}

// encodeValue writes code that encodes x, a value of shape s. addressable
// says whether &x is allowed.
func (e *emitter) encodeValue(g *jen.Group, s *Shape, x *jen.Statement, addressable bool, depth int) {
	enc := func() *jen.Statement { return e.local("enc") }
	conv := func(basic string) *jen.Statement {
		if b, ok := types.Unalias(s.Type).(*types.Basic); ok && b.Name() == basic {
			return jen.Add(x)
		}
		return jen.Id(basic).Parens(x)
	}
	d := strconv.Itoa(depth)
	switch s.Kind {
	case KindBool:
		g.Add(enc()).Dot("Bool").Call(conv("bool"))
	case KindString:
		g.Add(enc()).Dot("String").Call(conv("string"))
	case KindInt:
		g.Add(enc()).Dot("Int").Call(conv("int64"))
	case KindUint:
		g.Add(enc()).Dot("Uint").Call(conv("uint64"))
	case KindFloat:
		g.Add(enc()).Dot("Float").Call(conv("float64"), jen.Lit(s.Bits))
	case KindTime:
		g.Add(enc()).Dot("Time").Call(x)
	case KindBytes:
		if _, ok := types.Unalias(s.Type).(*types.Slice); ok {
			g.Add(enc()).Dot("Bytes").Call(x)
		} else {
			g.Add(enc()).Dot("Bytes").Call(jen.Index().Byte().Parens(x))
		}
	case KindRawMessage:
		g.Add(enc()).Dot("Raw").Call(x)
	case KindAny:
		g.Add(enc()).Dot("Marshal").Call(x)
	case KindUnmarshaler:
		if addressable {
			g.Add(enc()).Dot("Marshal").Call(e.addr(x))
		} else {
			g.Add(enc()).Dot("Marshal").Call(x)
		}
	case KindStruct:
		if addressable {
			g.Id(e.encoderFor(s)).Call(enc(), e.addr(x))
		} else {
			g.Block(
				jen.Id("x"+d).Op(":=").Add(x),
				jen.Id(e.encoderFor(s)).Call(enc(), jen.Op("&").Id("x"+d)),
			)
		}
	case KindPointer:
		p := jen.Id("p" + d)
		g.If(jen.Add(p).Op(":=").Add(x), jen.Add(p).Op("!=").Nil()).BlockFunc(func(g *jen.Group) {
			e.encodeValue(g, s.Elem, e.deref(p), true, depth+1)
		}).Else().Block(jen.Add(enc()).Dot("Null").Call())
	case KindSlice, KindArray:
		if s.Kind == KindArray && !addressable {
			g.BlockFunc(func(g *jen.Group) {
				g.Id("a" + d).Op(":=").Add(x)
				e.encodeValue(g, s, jen.Id("a"+d), true, depth)
			})
			return
		}
		if s.Kind == KindSlice && s.Elem.Kind == KindString && types.Identical(s.Elem.Type, types.Typ[types.String]) {
			g.Add(enc()).Dot("Strings").Call(x)
			return
		}
		i := jen.Id("i" + d)
		g.Add(enc()).Dot("OpenArray").Call()
		g.For(jen.Add(i).Op(":=").Range().Add(x)).BlockFunc(func(g *jen.Group) {
			g.Add(enc()).Dot("Elem").Call()
			e.encodeValue(g, s.Elem, jen.Add(x).Index(i), true, depth+1)
		})
		g.Add(enc()).Dot("CloseArray").Call()
	case KindMap:
		k := jen.Id("k" + d)
		name, key, keys := jen.String().Parens(k), k, impl("SortedKeys").Call(x)
		kt, _ := encodeKey(types.Unalias(s.Type).Underlying().(*types.Map).Key())
		switch kt {
		case KeyInt:
			keys = impl("IntKeys").Call(x)
		case KeyUint:
			keys = impl("UintKeys").Call(x)
		case KeyText:
			keys = impl("TextKeys").Call(enc(), x)
		}
		if kt != KeyString {
			name, key = jen.Add(k).Dot("Name"), jen.Add(k).Dot("Key")
		}
		g.Add(enc()).Dot("Open").Call()
		g.For(jen.List(jen.Id("_"), k).Op(":=").Range().Add(keys)).BlockFunc(func(g *jen.Group) {
			g.Add(enc()).Dot("MapKey").Call(name)
			g.Id("x" + d).Op(":=").Add(x).Index(key)
			e.encodeValue(g, s.Elem, jen.Id("x"+d), true, depth+1)
		})
		g.Add(enc()).Dot("Close").Call()
	}
}
