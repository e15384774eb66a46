package generator

import (
	"fmt"
	"go/types"

	"github.com/dave/jennifer/jen"
)

// resourceValue renders the runtime.Resource literal of a fixed-URI
// resource.
func (e *emitter) resourceValue(r *Resource) jen.Code {
	var f fields
	f.add("URI", jen.Lit(r.URI))
	f.str("Name", r.Name)
	f.str("Title", r.Title)
	f.str("Description", r.Description)
	f.str("MIMEType", r.MIMEType)
	if r.Size > 0 {
		f.add("Size", jen.Lit(r.Size))
	}
	f.add("Handler", e.resourceHandler(r))
	e.cacheHint(&f, r)
	if r.Timeout > 0 {
		f.add("Timeout", durationCode(r.Timeout))
	}
	return rt("Resource").Values(f.done()...)
}

// templateValue renders the runtime.ResourceTemplate literal of a
// templated resource.
func (e *emitter) templateValue(r *Resource) jen.Code {
	var f fields
	f.add("URITemplate", jen.Lit(r.URI))
	f.str("Name", r.Name)
	f.str("Title", r.Title)
	f.str("Description", r.Description)
	f.str("MIMEType", r.MIMEType)
	f.add("Handler", e.resourceHandler(r))
	e.cacheHint(&f, r)
	if r.Timeout > 0 {
		f.add("Timeout", durationCode(r.Timeout))
	}
	var complete []jen.Code
	for _, v := range r.Vars {
		if fn := e.completeFunc(v); fn != nil {
			complete = append(complete, jen.Line().Lit(v.Name).Op(":").Add(fn))
		}
	}
	if len(complete) > 0 {
		f.add("Complete", jen.Map(jen.String()).Add(rt("CompleteFunc")).Values(append(complete, jen.Line())...))
	}
	meta, err := r.TemplateMeta()
	if err != nil {
		panic(fmt.Sprintf("mcpgen bug: the variables of %s do not marshal: %v", r.URI, err))
	}
	if meta != nil {
		f.add("Meta", jen.Index().Byte().Parens(rawLit(string(meta))))
	}
	return rt("ResourceTemplate").Values(f.done()...)
}

// cacheHint adds the CacheHint of r, when its directive gave one.
func (e *emitter) cacheHint(f *fields, r *Resource) {
	if !r.Cache {
		return
	}
	var h fields
	if ms := r.CacheTTL.Milliseconds(); ms > 0 {
		h.add("TTL", jen.Lit(int(ms)).Op("*").Qual("time", "Millisecond"))
	}
	if r.CacheScope == "public" {
		h.add("Scope", rt("CachePublic"))
	}
	f.add("CacheHint", jen.Op("&").Add(rt("CacheHint")).Values(h.done()...))
}

// resourceHandler renders the ResourceHandler of r: read the variables,
// call, wrap the result as contents.
func (e *emitter) resourceHandler(r *Resource) jen.Code {
	return jen.Func().Params(
		e.local("ctx").Qual("context", "Context"),
		e.local("req").Op("*").Add(rt("ResourceRequest")),
	).Params(jen.Index().Add(rt("ResourceContents")), jen.Error()).BlockFunc(func(g *jen.Group) {
		var args []jen.Code
		if r.Context {
			args = append(args, e.local("ctx"))
		}
		args = append(args, e.decodeVars(g, r.Vars, r.VarStruct, r.VarPointer, r.NumParams, impl("StringsDecoder").Call(jen.Lit("uri"), e.local("req").Dot("Vars"), stringsLit(r.TemplateVars)))...)
		g.List(e.local("out"), e.local("err")).Op(":=").Add(call(r.Recv, r.Func, args))
		g.If(e.local("err").Op("!=").Nil()).Block(jen.Return(jen.Nil(), e.local("err")))
		contents := func(c jen.Code) jen.Code { return jen.Index().Add(rt("ResourceContents")).Values(c) }
		switch r.Output {
		case ResourceText:
			out := e.local("out")
			if b, ok := r.OutputType.(*types.Basic); !ok || b.Kind() != types.String {
				out = jen.String().Parens(e.local("out"))
			}
			g.Return(contents(jen.Values(jen.Id("Text").Op(":").Add(out))), jen.Nil())
		case ResourceBlob:
			out := e.local("out")
			if _, ok := r.OutputType.(*types.Slice); !ok {
				out = jen.Index().Byte().Parens(e.local("out"))
			}
			g.Return(contents(rt("BlobContents").Call(jen.Lit(""), out)), jen.Nil())
		case ResourceJSON:
			// The generated encoder, with the nil rule of tool results.
			enc, out := e.local("enc"), e.local("out")
			g.Add(enc).Op(":=").New(impl("Encoder"))
			if _, ok := types.Unalias(r.OutputType).(*types.Pointer); ok {
				g.If(jen.Add(out).Op("==").Nil()).Block(jen.Add(enc).Dot("Null").Call()).Else().BlockFunc(func(g *jen.Group) {
					e.encodeValue(g, r.OutputShape, e.deref(out), true, 0)
				})
			} else {
				e.encodeValue(g, r.OutputShape, out, true, 0)
			}
			g.List(e.local("b"), e.local("err")).Op(":=").Add(enc).Dot("Text").Call()
			g.If(e.local("err").Op("!=").Nil()).Block(jen.Return(jen.Nil(), e.local("err")))
			g.Return(contents(jen.Values(jen.Id("Text").Op(":").Add(e.local("b")))), jen.Nil())
		case ResourceContents:
			g.Return(contents(e.local("out")), jen.Nil())
		case ResourceContentsList:
			g.Return(e.local("out"), jen.Nil())
		}
	})
}
