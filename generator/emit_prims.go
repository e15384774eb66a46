package generator

import (
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
)

// registerDoc is the doc comment of RegisterMCP: what it registers.
func (e *emitter) registerDoc() string {
	p := e.pkg
	var parts []string
	list := func(what string, names []string) {
		if len(names) > 0 {
			parts = append(parts, what+" "+strings.Join(names, ", "))
		}
	}
	var tools, res, prompts []string
	for _, t := range p.Tools {
		tools = append(tools, t.Name)
	}
	for _, r := range p.Resources {
		res = append(res, r.URI)
	}
	for _, pr := range p.Prompts {
		prompts = append(prompts, pr.Name)
	}
	if len(res) == 0 && len(prompts) == 0 {
		return "RegisterMCP registers the package's MCP tools with s: " + strings.Join(tools, ", ") + "."
	}
	list("tools", tools)
	list("resources", res)
	list("prompts", prompts)
	return "RegisterMCP registers the package's MCP primitives with s: " + strings.Join(parts, "; ") + "."
}

// registerPrims writes the registration of the resources and prompts.
func (e *emitter) registerPrims(g *jen.Group) {
	for _, r := range e.pkg.Resources {
		if r.Template {
			g.Id("s").Dot("AddResourceTemplate").Call(e.templateValue(r))
		} else {
			g.Id("s").Dot("AddResource").Call(e.resourceValue(r))
		}
	}
	for _, pr := range e.pkg.Prompts {
		g.Id("s").Dot("AddPrompt").Call(e.promptValue(pr))
	}
}

// optionsFunc writes MCPOptions, the server options the package's
// primitives need, when they need any.
func (e *emitter) optionsFunc() {
	if !e.pkg.Subscribe {
		return
	}
	e.f.Comment("MCPOptions returns the server options the package's primitives need:")
	e.f.Comment("pass them to runtime.NewServer. A resource is annotated subscribe, so")
	e.f.Comment("clients may subscribe to resources (see runtime.Server.ResourceUpdated).")
	e.f.Func().Id("MCPOptions").Params().Index().Add(rt("Option")).Block(
		jen.Return(jen.Index().Add(rt("Option")).Values(rt("WithResourceSubscriptions").Call())),
	)
}

// fields collects the fields of a runtime struct literal, one per line.
type fields []jen.Code

func (f *fields) add(name string, value jen.Code) {
	*f = append(*f, jen.Line().Id(name).Op(":").Add(value))
}

func (f *fields) str(name, value string) {
	if value != "" {
		f.add(name, jen.Lit(value))
	}
}

func (f fields) done() []jen.Code { return append(f, jen.Line()) }

// call renders the call of an annotated function or method.
func call(recv *Receiver, name string, args []jen.Code) *jen.Statement {
	if recv != nil {
		return jen.Id(recv.Param).Dot(name).Call(args...)
	}
	return jen.Id(name).Call(args...)
}

// completeFunc renders the CompleteFunc of a variable: its //mcp:complete
// function, or the values of its enum type; nil when it has neither.
func (e *emitter) completeFunc(v *Var) jen.Code {
	if c := v.Complete; c != nil {
		return jen.Func().Params(
			e.local("ctx").Qual("context", "Context"),
			e.local("req").Op("*").Add(rt("CompleteRequest")),
		).Params(jen.Index().String(), jen.Error()).BlockFunc(func(g *jen.Group) {
			var args []jen.Code
			if c.Context {
				args = append(args, e.local("ctx"))
			}
			args = append(args, e.local("req").Dot("Value"))
			if c.WithContext {
				args = append(args, e.local("req").Dot("Context"))
			}
			g.Return(call(c.Recv, c.Func, args))
		})
	}
	if len(v.Enum) > 0 {
		vals := make([]jen.Code, len(v.Enum))
		for i, s := range v.Enum {
			vals[i] = jen.Lit(s)
		}
		return rt("EnumCompletion").Call(vals...)
	}
	return nil
}

// decodeVars writes the reading of template variables or prompt
// arguments, strings on the wire, into the function's parameters (v0, v1,
// …) or into the struct v, with the checks of their schemas. It returns
// the arguments of the call after the context.
func (e *emitter) decodeVars(g *jen.Group, vars []*Var, st *Shape, ptr bool, numParams int, decoder jen.Code) []jen.Code {
	var args []jen.Code
	if st != nil {
		g.Var().Id("in").Add(e.typeCode(st.Type))
		if ptr {
			args = append(args, jen.Op("&").Id("in"))
		} else {
			args = append(args, e.local("in"))
		}
	} else {
		args = make([]jen.Code, numParams)
		for _, v := range vars {
			id := "in" + strconv.Itoa(v.Param)
			g.Var().Id(id).Add(e.typeCode(v.Shape.Type))
			args[v.Param] = jen.Id(id)
		}
	}
	if len(vars) == 0 {
		return args
	}
	g.Id("d").Op(":=").Add(decoder)
	g.If(e.local("d").Dot("Object").Call()).Block(fieldLoop(e.local("key"), e.local("ok")).BlockFunc(func(g *jen.Group) {
		g.Switch(jen.String().Parens(e.local("key"))).BlockFunc(func(g *jen.Group) {
			for _, v := range vars {
				g.Case(jen.Lit(v.Name)).BlockFunc(func(g *jen.Group) {
					target := func() *jen.Statement { return jen.Id("in" + strconv.Itoa(v.Param)) }
					if v.Field != nil {
						target = e.inField(g, st, v.Field)
					}
					e.varValue(g, v, target)
				})
			}
			g.Default().Block(e.local("d").Dot("Skip").Call())
		})
	}))
	g.If(e.local("err").Op(":=").Id("d").Dot("Done").Call(), e.local("err").Op("!=").Nil()).Block(jen.Return(jen.Nil(), e.local("err")))
	return args
}

// inField allocates the embedded pointers on the path of a field of the
// struct "in" and returns the field's selector.
func (e *emitter) inField(g *jen.Group, st *Shape, f *Field) func() *jen.Statement {
	foreign := false
	if n, ok := types.Unalias(st.Type).(*types.Named); ok && n.Obj().Pkg() != nil {
		foreign = n.Obj().Pkg().Path() != e.pkg.PkgPath
	}
	sel := e.local("in")
	for i, step := range f.Path {
		if foreign && i < len(f.Path)-1 && !token.IsExported(step.Name) {
			continue
		}
		sel = jen.Add(sel).Dot(step.Name)
		if step.Ptr && i < len(f.Path)-1 {
			elem := types.Unalias(step.Type).(*types.Pointer).Elem()
			g.If(jen.Add(sel).Op("==").Nil()).Block(jen.Add(sel).Op("=").New(e.typeCode(elem)))
		}
	}
	return func() *jen.Statement { return jen.Add(sel) }
}

// varValue reads one variable's string form as its Go type.
func (e *emitter) varValue(g *jen.Group, v *Var, target func() *jen.Statement) {
	s := v.Elem()
	var read *jen.Statement
	basic := ""
	switch s.Kind {
	case KindString:
		read, basic = e.local("d").Dot("String").Call(), "string"
	case KindInt:
		read, basic = impl("VarInt").Call(e.local("d"), jen.Lit(s.Bits)), "int64"
	case KindUint:
		read, basic = impl("VarUint").Call(e.local("d"), jen.Lit(s.Bits)), "uint64"
	case KindFloat:
		read, basic = impl("VarFloat").Call(e.local("d"), jen.Lit(s.Bits)), "float64"
	case KindBool:
		read, basic = impl("VarBool").Call(e.local("d")), "bool"
	}
	x := func() *jen.Statement { return e.local("x") }
	val := x()
	if b, ok := s.Type.(*types.Basic); !ok || b.Name() != basic {
		val = e.typeCode(s.Type).Parens(x())
	}
	g.If(jen.List(e.local("x"), e.local("ok")).Op(":=").Add(read), e.local("ok")).BlockFunc(func(g *jen.Group) {
		e.checks(g, s, x)
		if v.Shape.Kind == KindPointer {
			g.Id("p").Op(":=").Add(val)
			g.Add(target()).Op("=").Op("&").Id("p")
			return
		}
		g.Add(target()).Op("=").Add(val)
	})
}

// varNames renders the names of vars as a []string literal.
func varNames(vars []*Var) jen.Code {
	names := make([]string, len(vars))
	for i, v := range vars {
		names[i] = v.Name
	}
	return stringsLit(names)
}

// stringsLit renders ss as a []string literal.
func stringsLit(ss []string) jen.Code {
	return jen.Index().String().ValuesFunc(func(g *jen.Group) {
		for _, s := range ss {
			g.Lit(s)
		}
	})
}
