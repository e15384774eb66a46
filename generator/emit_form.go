package generator

import (
	"encoding/json"
	"fmt"

	"github.com/dave/jennifer/jen"
)

// formMethods writes, for every form of the package, the methods of
// runtime.Form on a pointer to its type: the requested schema, derived at
// generation time, and a decoder of the answer, the one tool arguments of
// the same type would get.
// It returns the schema constants to write.
func (e *emitter) formMethods() []schemaConst {
	var consts []schemaConst
	for _, f := range e.pkg.Forms {
		name := f.Type.Obj().Name()
		schema := e.name("mcpFormSchema" + name)
		consts = append(consts, schemaConst{schema, f.Schema})
		e.f.Commentf("%s returns the requested schema of the form %s (runtime.%s).", formSchemaMethod, name, askFormFunc)
		e.f.Func().Params(jen.Op("*").Add(e.typeCode(f.Type))).Id(formSchemaMethod).Params().String().Block(jen.Return(jen.Id(schema)))

		v, d := e.local("v"), e.local("d")
		e.f.Commentf("%s decodes an accepted answer to the form %s and checks it.", formDecodeMethod, name)
		e.f.Func().Params(jen.Add(v).Op("*").Add(e.typeCode(f.Type))).Id(formDecodeMethod).Params(jen.Id("content").Index().Byte()).Error().Block(
			jen.Add(d).Op(":=").Add(impl("NewDecoder")).Call(jen.Id("content"), jen.Lit("content")),
			jen.Id(e.decoderFor(f.Shape)).Call(d, v),
			jen.Return(jen.Add(d).Dot("Err").Call()),
		)
	}
	return consts
}

// formSchemaConsts writes the requested schemas of the forms.
func (e *emitter) formSchemaConsts(consts []schemaConst) {
	if len(consts) == 0 {
		return
	}
	e.f.Comment("Requested schemas of the forms, derived from their Go types.")
	e.f.Const().DefsFunc(func(g *jen.Group) {
		for _, c := range consts {
			b, err := json.Marshal(c.schema)
			if err != nil {
				panic(fmt.Sprintf("mcpgen bug: schema %s does not marshal: %v", c.name, err))
			}
			g.Id(c.name).Op("=").Add(rawLit(string(b)))
		}
	})
}
