package generator

import (
	"encoding/json"
	"fmt"
	"go/types"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
)

// checks writes the validation of a scalar value x against the keywords of
// its schema. Bounds the reader enforces already (the range of int8, the
// sign of uint) are not checked again.
func (e *emitter) checks(g *jen.Group, s *Shape, x func() *jen.Statement) {
	for _, c := range e.checkCode(s, x) {
		g.Add(c)
	}
}

// checkCode returns the statements of checks, none when the schema asks
// for no check the reader does not make.
func (e *emitter) checkCode(s *Shape, x func() *jen.Statement) []jen.Code {
	sc := s.Schema
	if sc == nil {
		return nil
	}
	var out []jen.Code
	switch s.Kind {
	case KindInt, KindUint, KindFloat:
		out = e.numberChecks(out, s, x)
	case KindString:
		if len(sc.Enum) == 0 {
			if sc.MinLength != nil || sc.MaxLength != nil {
				out = append(out, impl("CheckLength").Call(jen.Id("d"), x(), lenBound(sc.MinLength), lenBound(sc.MaxLength)))
			}
			if sc.Pattern != "" {
				out = append(out, jen.If(jen.Op("!").Id(e.pattern(sc.Pattern)).Dot("MatchString").Call(x())).Block(
					jen.Id("d").Dot("Invalid").Call(jen.Lit("must match the pattern "+sc.Pattern))))
			}
		}
	}
	if len(sc.Enum) > 0 {
		out = e.enumCheck(out, s, x)
	}
	return out
}

func lenBound(p *uint64) jen.Code {
	if p == nil {
		return jen.Lit(-1)
	}
	return jen.Lit(int(*p))
}

// typeWord names a number shape in messages.
func typeWord(s *Shape) string {
	if s.Kind == KindFloat {
		return "a number"
	}
	return "an integer"
}

func (e *emitter) numberChecks(out []jen.Code, s *Shape, x func() *jen.Statement) []jen.Code {
	sc := s.Schema
	for _, b := range []struct {
		bound json.Number
		op    string // violation when x op bound
		word  string
	}{
		{sc.Minimum, "<", "≥"},
		{sc.Maximum, ">", "≤"},
		{sc.ExclusiveMinimum, "<=", ">"},
		{sc.ExclusiveMaximum, ">=", "<"},
	} {
		if b.bound == "" || impliedByType(s, b.bound, b.op) {
			continue
		}
		lhs, rhs := e.comparable(s, x(), b.bound)
		out = append(out, jen.If(jen.Add(lhs).Op(b.op).Add(rhs)).Block(
			jen.Id("d").Dot("Invalid").Call(jen.Lit("must be "+typeWord(s)+" "+b.word+" "+b.bound.String()))))
	}
	if m := sc.MultipleOf; m != "" {
		r, ok := new(big.Rat).SetString(m.String())
		if ok && r.IsInt() && s.Kind != KindFloat && r.Sign() > 0 {
			out = append(out, jen.If(jen.Add(x()).Op("%").Op(m.String()).Op("!=").Lit(0)).Block(
				jen.Id("d").Dot("Invalid").Call(jen.Lit("must be a multiple of "+m.String()))))
		} else {
			out = append(out, jen.If(jen.Op("!").Add(impl("MultipleOf")).Call(jen.Float64().Parens(x()), jen.Op(m.String()))).Block(
				jen.Id("d").Dot("Invalid").Call(jen.Lit("must be a multiple of "+m.String()))))
		}
	}
	return out
}

// comparable returns the two sides of a comparison of x with bound, in a
// type both fit: the integer itself when the bound is an integer it can
// hold, else float64.
func (e *emitter) comparable(s *Shape, x *jen.Statement, bound json.Number) (jen.Code, jen.Code) {
	r, ok := new(big.Rat).SetString(bound.String())
	if ok && r.IsInt() {
		n := r.Num()
		switch s.Kind {
		case KindInt:
			if n.IsInt64() {
				return x, jen.Op(n.String())
			}
		case KindUint:
			if n.Sign() >= 0 && n.IsUint64() {
				return x, jen.Op(n.String())
			}
		}
	}
	if s.Kind == KindFloat {
		return x, jen.Op(bound.String())
	}
	return jen.Float64().Parens(x), jen.Op(bound.String())
}

// numberRead returns the read of a number shape: d.Int(bits), or, when
// the schema bounds the value more tightly than the Go type, d.IntWithin
// with the schema's words, so that a number beyond the type's range (1e400)
// is reported against the bound the client sees in the schema.
func numberRead(s *Shape, method string) *jen.Statement {
	low, high := rangeWords(s)
	if low == "" && high == "" {
		return jen.Id("d").Dot(method).Call(jen.Lit(s.Bits))
	}
	return jen.Id("d").Dot(method+"Within").Call(jen.Lit(s.Bits), jen.Lit(low), jen.Lit(high))
}

// rangeWords returns the messages of the schema's lower and upper bounds
// that lie inside the range of the shape's Go type, "" where there is none.
func rangeWords(s *Shape) (low, high string) {
	sc := s.Schema
	if sc == nil {
		return "", ""
	}
	typeLo, typeHi := typeRange(s)
	inside := func(b json.Number) bool {
		r, ok := new(big.Rat).SetString(b.String())
		return ok && r.Cmp(typeLo) > 0 && r.Cmp(typeHi) < 0
	}
	for _, b := range []struct {
		bound json.Number
		word  string
		low   bool
	}{
		{sc.Minimum, "≥", true},
		{sc.ExclusiveMinimum, ">", true},
		{sc.Maximum, "≤", false},
		{sc.ExclusiveMaximum, "<", false},
	} {
		if b.bound == "" || !inside(b.bound) {
			continue
		}
		msg := "must be " + typeWord(s) + " " + b.word + " " + b.bound.String()
		if b.low && low == "" {
			low = msg
		} else if !b.low && high == "" {
			high = msg
		}
	}
	return low, high
}

// typeRange returns the smallest and largest values of a number shape's Go
// type.
func typeRange(s *Shape) (lo, hi *big.Rat) {
	switch s.Kind {
	case KindInt:
		l := new(big.Int).Lsh(big.NewInt(1), uint(s.Bits-1))
		h := new(big.Int).Sub(l, big.NewInt(1))
		return new(big.Rat).SetInt(l.Neg(l)), new(big.Rat).SetInt(h)
	case KindUint:
		h := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(s.Bits)), big.NewInt(1))
		return new(big.Rat), new(big.Rat).SetInt(h)
	}
	m := math.MaxFloat64
	if s.Bits == 32 {
		m = math.MaxFloat32
	}
	h := new(big.Rat).SetFloat64(m)
	return new(big.Rat).Neg(h), h
}

// impliedByType reports whether a bound only restates the range of the Go
// type, which the reader checks with its own message.
func impliedByType(s *Shape, bound json.Number, op string) bool {
	r, ok := new(big.Rat).SetString(bound.String())
	if !ok || !r.IsInt() {
		return false
	}
	n := r.Num()
	switch s.Kind {
	case KindInt:
		lo := new(big.Int).Lsh(big.NewInt(1), uint(s.Bits-1))
		hi := new(big.Int).Sub(lo, big.NewInt(1))
		lo.Neg(lo)
		return op == "<" && n.Cmp(lo) <= 0 || op == ">" && n.Cmp(hi) >= 0
	case KindUint:
		hi := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(s.Bits)), big.NewInt(1))
		return op == "<" && n.Sign() <= 0 || op == ">" && n.Cmp(hi) >= 0
	}
	return false
}

// enumCheck appends a switch that accepts only the enum's values to out.
func (e *emitter) enumCheck(out []jen.Code, s *Shape, x func() *jen.Statement) []jen.Code {
	var cases []jen.Code
	var shown []string
	for _, v := range s.Schema.Enum {
		switch s.Kind {
		case KindString:
			str, ok := v.(string)
			if !ok {
				continue
			}
			cases = append(cases, jen.Lit(str))
			shown = append(shown, strconv.Quote(str))
		case KindInt, KindUint, KindFloat:
			lit, ok := numberLiteral(v)
			if !ok {
				continue
			}
			r, _ := new(big.Rat).SetString(lit)
			if s.Kind != KindFloat && (r == nil || !r.IsInt() || s.Kind == KindUint && r.Sign() < 0) {
				continue // a value the Go type cannot hold never matches
			}
			cases = append(cases, jen.Op(lit))
			shown = append(shown, lit)
		case KindBool:
			b, ok := v.(bool)
			if !ok {
				continue
			}
			cases = append(cases, jen.Lit(b))
			shown = append(shown, strconv.FormatBool(b))
		default:
			return out // enums on other kinds are documentation only
		}
	}
	msg := "must be one of " + strings.Join(shown, ", ")
	if len(shown) == 1 {
		msg = "must be " + shown[0]
	}
	if len(cases) == 0 {
		return append(out, jen.Id("d").Dot("Invalid").Call(jen.Lit(msg)))
	}
	return append(out, jen.Switch(x()).Block(
		jen.Case(cases...),
		jen.Default().Block(jen.Id("d").Dot("Invalid").Call(jen.Lit(msg))),
	))
}

// arrayChecks writes the item-count and uniqueness checks of an array
// shape; items is the slice, n its length.
func (e *emitter) arrayChecks(g *jen.Group, s *Shape, items, n jen.Code) {
	for _, c := range arrayCheckCode(s, items, n) {
		g.Add(c)
	}
}

// arrayCheckCode returns the statements of arrayChecks.
func arrayCheckCode(s *Shape, items, n jen.Code) []jen.Code {
	sc := s.Schema
	if sc == nil {
		return nil
	}
	var out []jen.Code
	if sc.MinItems != nil || sc.MaxItems != nil {
		out = append(out, impl("CheckItems").Call(jen.Id("d"), n, lenBound(sc.MinItems), lenBound(sc.MaxItems)))
	}
	if sc.UniqueItems && types.Comparable(s.Elem.Type) {
		out = append(out, impl("CheckUnique").Call(jen.Id("d"), items))
	}
	return out
}

// rangeRead returns the read of an integer shape whose only checks are an
// inclusive minimum or maximum tighter than its Go type's range, written as
// plain integers within that range: d.IntRange or d.UintRange, which check
// the bounds with the messages the checks would give. It returns nil for
// any other shape.
func rangeRead(s *Shape) *jen.Statement {
	sc := s.Schema
	if sc == nil || s.Kind != KindInt && s.Kind != KindUint || s.Quoted || len(sc.Enum) > 0 || sc.MultipleOf != "" ||
		sc.ExclusiveMinimum != "" || sc.ExclusiveMaximum != "" || sc.Minimum == "" && sc.Maximum == "" {
		return nil
	}
	typeLo, typeHi := typeRange(s)
	bound := func(b json.Number, dflt *big.Rat) (string, bool) {
		if b == "" {
			return dflt.Num().String(), true
		}
		r, ok := new(big.Rat).SetString(b.String())
		if !ok || !r.IsInt() || r.Num().String() != b.String() || r.Cmp(typeLo) < 0 || r.Cmp(typeHi) > 0 {
			return "", false // the message shows the bound as written
		}
		return b.String(), true
	}
	lo, ok1 := bound(sc.Minimum, typeLo)
	hi, ok2 := bound(sc.Maximum, typeHi)
	if !ok1 || !ok2 || lo == typeLo.Num().String() && hi == typeHi.Num().String() {
		return nil // bounds that only restate the type are the reader's own
	}
	method := "IntRange"
	if s.Kind == KindUint {
		method = "UintRange"
	}
	return jen.Id("d").Dot(method).Call(jen.Lit(s.Bits), jen.Op(lo), jen.Op(hi))
}

// pattern returns the variable holding the compiled regexp of src.
func (e *emitter) pattern(src string) string {
	if v, ok := e.patterns[src]; ok {
		return v
	}
	v := e.name("mcpPattern" + strconv.Itoa(len(e.patternList)))
	e.patterns[src] = v
	e.patternList = append(e.patternList, src)
	return v
}

func (e *emitter) patternVars() {
	if len(e.patternList) == 0 {
		return
	}
	e.f.Comment("Patterns of the schemas, compiled once.")
	e.f.Var().DefsFunc(func(g *jen.Group) {
		for _, src := range e.patternList {
			g.Id(e.patterns[src]).Op("=").Qual("regexp", "MustCompile").Call(rawLit(src))
		}
	})
}

// schemaVars writes the JSON Schemas, compact, one line each, so that
// the runtime registers them without compacting them (`mcpgen inspect`
// shows them indented). Each is a package-level []byte of a string
// literal, which the compiler lays out in the binary's data: registering a
// tool copies nothing, and a schema's bytes are read from the binary only
// when a tools/list needs them, where a []byte conversion of a constant at
// registration would copy every schema onto the heap for the life of the
// process.
func (e *emitter) schemaVars() {
	e.f.Comment("JSON Schemas of the tools, derived from their Go types.")
	e.f.Var().DefsFunc(func(g *jen.Group) {
		for _, c := range e.schemas {
			b, err := json.Marshal(c.schema)
			if err != nil {
				panic(fmt.Sprintf("mcpgen bug: schema %s does not marshal: %v", c.name, err))
			}
			g.Id(c.name).Op("=").Index().Byte().Parens(rawLit(string(b)))
		}
	})
}

// rawLit renders s as a raw string literal when it can be one.
func rawLit(s string) jen.Code {
	if strings.ContainsAny(s, "`\r") {
		return jen.Lit(s)
	}
	return jen.Op("`" + s + "`")
}

// qualifier prints types of the generated package unqualified.
func (e *emitter) qualifier(p *types.Package) string {
	if p.Path() == e.pkg.PkgPath {
		return ""
	}
	return p.Name()
}

// typeCode renders a Go type, importing what it needs.
func (e *emitter) typeCode(t types.Type) *jen.Statement {
	switch t := t.(type) {
	case *types.Named:
		obj := t.Obj()
		var st *jen.Statement
		if obj.Pkg() == nil || obj.Pkg().Path() == e.pkg.PkgPath {
			st = jen.Id(obj.Name())
		} else {
			st = jen.Qual(obj.Pkg().Path(), obj.Name())
		}
		if args := t.TypeArgs(); args.Len() > 0 {
			var codes []jen.Code
			for a := range args.Types() {
				codes = append(codes, e.typeCode(a))
			}
			st = st.Types(codes...)
		}
		return st
	case *types.Alias:
		obj := t.Obj()
		if obj.Pkg() == nil || obj.Pkg().Path() == e.pkg.PkgPath {
			return jen.Id(obj.Name())
		}
		return jen.Qual(obj.Pkg().Path(), obj.Name())
	case *types.Basic:
		return jen.Id(t.Name())
	case *types.Pointer:
		return jen.Op("*").Add(e.typeCode(t.Elem()))
	case *types.Slice:
		return jen.Index().Add(e.typeCode(t.Elem()))
	case *types.Array:
		return jen.Index(jen.Lit(int(t.Len()))).Add(e.typeCode(t.Elem()))
	case *types.Map:
		return jen.Map(e.typeCode(t.Key())).Add(e.typeCode(t.Elem()))
	case *types.Interface:
		if t.Empty() {
			return jen.Any()
		}
	case *types.Struct:
		return jen.StructFunc(func(g *jen.Group) {
			for i := 0; i < t.NumFields(); i++ {
				f := t.Field(i)
				var line *jen.Statement
				if f.Embedded() {
					line = jen.Add(e.typeCode(f.Type()))
				} else {
					line = jen.Id(f.Name()).Add(e.typeCode(f.Type()))
				}
				if tag := t.Tag(i); tag != "" {
					line.Add(rawLit(tag))
				}
				g.Add(line)
			}
		})
	}
	return jen.Id(types.TypeString(t, e.qualifier))
}
