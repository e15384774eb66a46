package generator

import (
	"go/types"
	"strconv"

	"github.com/dave/jennifer/jen"
)

// quotedValue writes the read of a field with the ",string" option: a
// string, checked against the string keywords of its schema, whose content
// is then parsed as the field's scalar type. A quoted "null" leaves the
// field as it is. s is the scalar's shape or a pointer to it.
func (e *emitter) quotedValue(g *jen.Group, s *Shape, target func() *jen.Statement, depth int) {
	base, ptr := s, false
	if s.Kind == KindPointer {
		base, ptr = s.Elem, true
	}
	x := "x" + strconv.Itoa(depth)
	y := "y" + strconv.Itoa(depth)
	g.If(jen.List(jen.Id(x), e.local("ok")).Op(":=").Id("d").Dot("String").Call(), e.local("ok")).BlockFunc(func(g *jen.Group) {
		// The pattern of the quoted form is checked by the parse below,
		// with a message about the value rather than the pattern.
		view := *s.Schema
		if view.Pattern == quotedPattern(base) {
			view.Pattern = ""
		}
		e.checks(g, &Shape{Kind: KindString, Type: types.Typ[types.String], Schema: &view}, func() *jen.Statement { return jen.Id(x) })
		var read *jen.Statement
		var got string // the Go type the read returns
		switch base.Kind {
		case KindInt:
			read, got = jen.Id("d").Dot("QuotedInt").Call(jen.Id(x), jen.Lit(base.Bits)), "int64"
		case KindUint:
			read, got = jen.Id("d").Dot("QuotedUint").Call(jen.Id(x), jen.Lit(base.Bits)), "uint64"
		case KindFloat:
			read, got = jen.Id("d").Dot("QuotedFloat").Call(jen.Id(x), jen.Lit(base.Bits)), "float64"
		case KindBool:
			read, got = jen.Id("d").Dot("QuotedBool").Call(jen.Id(x)), "bool"
		case KindString:
			read, got = jen.Id("d").Dot("QuotedString").Call(jen.Id(x)), "string"
		default:
			panic("mcpgen bug: quoted shape of kind " + base.Kind.String())
		}
		val := jen.Id(y)
		if b, ok := base.Type.(*types.Basic); !ok || b.Name() != got {
			val = e.typeCode(base.Type).Parens(jen.Id(y))
		}
		g.If(jen.List(jen.Id(y), e.local("ok")).Op(":=").Add(read), e.local("ok")).BlockFunc(func(g *jen.Group) {
			if !ptr {
				g.Add(target()).Op("=").Add(val)
				return
			}
			p := "p" + strconv.Itoa(depth)
			g.Id(p).Op(":=").Add(val)
			g.Add(target()).Op("=").Op("&").Id(p)
		})
	})
}

// mapKey writes the conversion of the property name key into k, the Go
// key of the map shape s, as encoding/json converts it; a name that does
// not convert is reported and its value skipped.
func (e *emitter) mapKey(g *jen.Group, s *Shape, k string) {
	keyType := types.Unalias(s.Type).Underlying().(*types.Map).Key()
	fail := jen.Block(jen.Id("d").Dot("Skip").Call(), jen.Continue())
	switch s.Key {
	case KeyInt, KeyUint:
		method, bits := "IntKey", 64
		if s.Key == KeyUint {
			method = "UintKey"
		}
		if b, ok := types.Unalias(keyType).Underlying().(*types.Basic); ok {
			bits = basicBits(b)
		}
		x := k + "x"
		g.List(jen.Id(x), e.local("ok")).Op(":=").Id("d").Dot(method).Call(e.local("key"), jen.Lit(bits))
		g.If(jen.Op("!").Id("ok")).Add(fail)
		g.Id(k).Op(":=").Add(e.typeCode(keyType)).Parens(jen.Id(x))
	case KeyText:
		if p, ok := types.Unalias(keyType).(*types.Pointer); ok {
			g.Id(k).Op(":=").New(e.typeCode(p.Elem()))
		} else {
			g.Var().Id(k).Add(e.typeCode(keyType))
		}
		g.If(
			jen.Err().Op(":=").Id(k).Dot("UnmarshalText").Call(e.local("key")),
			jen.Err().Op("!=").Nil(),
		).Block(
			jen.Id("d").Dot("Violation").Call(jen.Lit("invalid property name: ").Op("+").Err().Dot("Error").Call()),
			jen.Id("d").Dot("Skip").Call(),
			jen.Continue(),
		)
	default:
		key := jen.String().Parens(e.local("key"))
		if b, ok := keyType.(*types.Basic); !ok || b.Kind() != types.String {
			key = e.typeCode(keyType).Parens(key)
		}
		g.Id(k).Op(":=").Add(key)
	}
}

// basicBits returns the size of an integer kind; int, uint and uintptr
// count as 64.
func basicBits(b *types.Basic) int {
	switch b.Kind() {
	case types.Int8, types.Uint8:
		return 8
	case types.Int16, types.Uint16:
		return 16
	case types.Int32, types.Uint32:
		return 32
	}
	return 64
}
