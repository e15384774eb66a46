package generator

import (
	"go/types"

	"github.com/dave/jennifer/jen"
)

// stringOf converts a value of a string-kinded type to string, when it is
// not a string already.
func stringOf(t types.Type, v *jen.Statement) *jen.Statement {
	if b, ok := t.(*types.Basic); ok && b.Kind() == types.String {
		return v
	}
	return jen.String().Parens(v)
}

// promptValue renders the runtime.Prompt literal of pr.
func (e *emitter) promptValue(pr *Prompt) jen.Code {
	var f fields
	f.add("Name", jen.Lit(pr.Name))
	f.str("Title", pr.Title)
	f.str("Description", pr.Description)
	if len(pr.Args) > 0 {
		var args []jen.Code
		for _, a := range pr.Args {
			var af []jen.Code
			af = append(af, jen.Id("Name").Op(":").Lit(a.Name))
			if a.Title != "" {
				af = append(af, jen.Id("Title").Op(":").Lit(a.Title))
			}
			if a.Description != "" {
				af = append(af, jen.Id("Description").Op(":").Lit(a.Description))
			}
			if a.Required {
				af = append(af, jen.Id("Required").Op(":").True())
			}
			if fn := e.completeFunc(a); fn != nil {
				af = append(af, jen.Id("Complete").Op(":").Add(fn))
			}
			args = append(args, jen.Line().Values(af...))
		}
		f.add("Arguments", jen.Index().Add(rt("PromptArgument")).Values(append(args, jen.Line())...))
	}
	f.add("Handler", e.promptHandler(pr))
	if pr.Timeout > 0 {
		f.add("Timeout", durationCode(pr.Timeout))
	}
	return rt("Prompt").Values(f.done()...)
}

// promptHandler renders the PromptHandler of pr: read the arguments, call,
// wrap the result.
func (e *emitter) promptHandler(pr *Prompt) jen.Code {
	return jen.Func().Params(
		e.local("ctx").Qual("context", "Context"),
		e.local("req").Op("*").Add(rt("PromptRequest")),
	).Params(jen.Op("*").Add(rt("GetPromptResult")), jen.Error()).BlockFunc(func(g *jen.Group) {
		var args []jen.Code
		if pr.Context {
			args = append(args, e.local("ctx"))
		}
		if pr.ArgStruct != nil {
			args = append(args, e.decodeVars(g, pr.Args, pr.ArgStruct, pr.ArgPointer, 1, impl("StringsDecoder").Call(jen.Lit("arguments"), e.local("req").Dot("Arguments"), varNames(pr.Args)))...)
		}
		g.List(e.local("out"), e.local("err")).Op(":=").Add(call(pr.Recv, pr.Func, args))
		g.If(e.local("err").Op("!=").Nil()).Block(jen.Return(jen.Nil(), e.local("err")))
		switch pr.Output {
		case PromptText:
			g.Return(jen.Op("&").Add(rt("GetPromptResult")).Values(jen.Id("Messages").Op(":").Index().Add(rt("PromptMessage")).Values(
				rt("UserMessage").Call(stringOf(pr.OutputType, e.local("out"))))), jen.Nil())
		case PromptMessages:
			g.Return(jen.Op("&").Add(rt("GetPromptResult")).Values(jen.Id("Messages").Op(":").Id("out")), jen.Nil())
		case PromptResult:
			g.Return(e.local("out"), jen.Nil())
		}
	})
}
