package generator

import (
	"cmp"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/invopop/jsonschema"
	"golang.org/x/tools/go/packages"
)

// askFormFunc is the runtime's generic function whose instantiations make
// their type argument a form.
const askFormFunc = "AskForm"

// The methods generated on *T for a form T; runtime.Form declares them.
const (
	formSchemaMethod = "MCPFormSchema"
	formDecodeMethod = "MCPDecodeForm"
)

// formsOnly reports whether the package has forms and nothing to register:
// its generated file has no RegisterMCP.
func (p *Package) formsOnly() bool {
	return len(p.Forms) > 0 && len(p.Tools) == 0 && len(p.Resources) == 0 && len(p.Prompts) == 0
}

// isFormMethodError reports whether a type error is about the methods
// generated for a form, which a type used with AskForm lacks until its
// first generation (or, when the methods are called in the package, until
// the file that declares them is generated).
func isFormMethodError(msg string) bool {
	// "missing method M" (AskForm's constraint), "no field or method M" (a
	// call of M).
	return strings.Contains(msg, "method "+formSchemaMethod) || strings.Contains(msg, "method "+formDecodeMethod)
}

// Form is a struct type the package asks the user to fill in with
// runtime.AskForm: *Type gets the methods of runtime.Form, which give the
// requested schema and decode and validate the answer.
type Form struct {
	Pos   token.Position // the first instantiation of AskForm with Type, or its //mcp:form line
	Type  *types.Named
	Shape *Shape // KindStruct; its fields are flat
	// Schema is the requested schema: type, properties and required only,
	// each property with the keywords elicitation allows.
	Schema *jsonschema.Schema
}

// formUse is a use of a type as a form: an instantiation of
// runtime.AskForm, or a //mcp:form line.
type formUse struct {
	pos token.Position
	t   types.Type
	via string // how the use reads in diagnostics
}

// formDirectives reads the //mcp:form lines of a type declaration, which
// make its types forms without a use of runtime.AskForm in the package
// (for forms that other packages ask with).
func formDirectives(fset *token.FileSet, pkg *packages.Package, gd *ast.GenDecl, attached map[*ast.Comment]bool) ([]formUse, []Diagnostic) {
	var uses []formUse
	var diags []Diagnostic
	for _, spec := range gd.Specs {
		ts := spec.(*ast.TypeSpec)
		doc := ts.Doc
		if doc == nil && len(gd.Specs) == 1 {
			doc = gd.Doc
		}
		for _, c := range findDirectives(doc) {
			attached[c] = true
			pos := fset.Position(c.Slash)
			switch kind := directiveKind(c.Text); {
			case kind != "form":
				diags = append(diags, diagf(pos, "//mcp:%s must be in the doc comment of a top-level function or method", kind))
			case strings.TrimSpace(c.Text[len(directivePrefix+"form"):]) != "":
				diags = append(diags, diagf(pos, "//mcp:form takes nothing after it; the form's fields, tags and comments say what it asks"))
			default:
				if obj := pkg.TypesInfo.Defs[ts.Name]; obj != nil {
					uses = append(uses, formUse{pos, obj.Type(), "//mcp:form " + ts.Name.Name})
				}
			}
		}
	}
	return uses, diags
}

// buildForms finds the instantiations of runtime.AskForm in the package's
// own files, adds the types declared with //mcp:form, and builds a form
// for each struct type they name, in the order of their first use.
func buildForms(fset *token.FileSet, pkg *packages.Package, b *schemaBuilder, p *Package, output string, declared []formUse) []Diagnostic {
	uses := declared
	ours := map[string]bool{}
	for _, f := range pkg.Syntax {
		if isOurs(fset, f, output) {
			ours[fset.Position(f.Package).Filename] = true
		}
	}
	for id, inst := range pkg.TypesInfo.Instances {
		fn, ok := pkg.TypesInfo.Uses[id].(*types.Func)
		if !ok || fn.Pkg() == nil || fn.Pkg().Path() != RuntimePath || fn.Name() != askFormFunc || inst.TypeArgs.Len() == 0 {
			continue
		}
		pos := fset.Position(id.Pos())
		if ours[pos.Filename] {
			continue
		}
		arg := inst.TypeArgs.At(0)
		uses = append(uses, formUse{pos, arg, "runtime." + askFormFunc + "[" + typeString(arg) + "]"})
	}
	slices.SortFunc(uses, func(x, y formUse) int {
		return cmp.Or(cmp.Compare(x.pos.Filename, y.pos.Filename), cmp.Compare(x.pos.Line, y.pos.Line), cmp.Compare(x.pos.Column, y.pos.Column))
	})
	var diags []Diagnostic
	seen := map[*types.TypeName]bool{}
	for _, u := range uses {
		t := types.Unalias(u.t)
		named, _ := t.(*types.Named)
		var msg string
		switch {
		case isTypeParam(t):
			msg = fmt.Sprintf("%s: the form must be a struct type of this package, not a type parameter; call %s with the struct type itself", u.via, askFormFunc)
		case named == nil || !isStruct(named):
			msg = fmt.Sprintf("%s: a form must be a named struct type declared in this package; declare one, e.g. type Answer struct{ … }, with a field per question", u.via)
		case named.TypeArgs().Len() > 0 || named.TypeParams().Len() > 0:
			msg = genericFormMessage(u.via, named)
		case named.Obj().Pkg() != pkg.Types:
			if hasFormMethods(named) {
				continue // a form of another package, generated there
			}
			if markedForm(b, named) {
				// Generated in this run: until then, the use does not
				// type-check.
				p.pendingForms = append(p.pendingForms, u.pos)
				continue
			}
			msg = fmt.Sprintf("%s: %s is declared in package %s, which has no generated form methods for it yet: a form gets them in the package that declares it; mark the type //mcp:form there and generate that package too, or declare the form in this package", u.via, named.Obj().Name(), named.Obj().Pkg().Path())
		}
		if msg != "" {
			diags = append(diags, Diagnostic{Pos: u.pos, Msg: msg})
			continue
		}
		if seen[named.Obj()] {
			continue
		}
		seen[named.Obj()] = true
		if m := ownFormMethod(named, fset, ours); m != nil {
			diags = append(diags, diagf(fset.Position(m.Pos()), "form %s: %s is generated for a type used with runtime.%s; remove this declaration (or rename it)", named.Obj().Name(), m.Name(), askFormFunc))
			continue
		}
		f, ds := buildForm(b, named, u.pos)
		diags = append(diags, ds...)
		if f != nil {
			p.Forms = append(p.Forms, f)
		}
	}
	return diags
}

// ownFormMethod returns a method or field of n with the name of a
// generated form method that is declared outside the generated file.
func ownFormMethod(n *types.Named, fset *token.FileSet, ours map[string]bool) types.Object {
	for _, name := range []string{formSchemaMethod, formDecodeMethod} {
		obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(n), true, n.Obj().Pkg(), name)
		if obj != nil && !ours[fset.Position(obj.Pos()).Filename] {
			return obj
		}
	}
	return nil
}

// pendingForm reports whether a type error of the check of the generated
// file is about a form of another package that this run generates.
func pendingForm(p *Package, pos token.Position, msg string) bool {
	if !isFormMethodError(msg) {
		return false
	}
	for _, u := range p.pendingForms {
		if u.Filename == pos.Filename && u.Line == pos.Line {
			return true
		}
	}
	return false
}

// markedForm reports whether n is declared with //mcp:form in a package
// loaded from source, which generation gives the methods of a form.
func markedForm(b *schemaBuilder, n *types.Named) bool {
	f := b.syntax[b.fset.Position(n.Obj().Pos()).Filename]
	if f == nil {
		return false
	}
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, spec := range gd.Specs {
			ts := spec.(*ast.TypeSpec)
			if ts.Name.Pos() != n.Obj().Pos() {
				continue
			}
			doc := ts.Doc
			if doc == nil && len(gd.Specs) == 1 {
				doc = gd.Doc
			}
			for _, c := range findDirectives(doc) {
				if strings.TrimSpace(c.Text) == directivePrefix+"form" {
					return true
				}
			}
		}
	}
	return false
}

// hasFormMethods reports whether *n has the methods of runtime.Form.
func hasFormMethods(n *types.Named) bool {
	ms := types.NewMethodSet(types.NewPointer(n))
	return ms.Lookup(n.Obj().Pkg(), formSchemaMethod) != nil && ms.Lookup(n.Obj().Pkg(), formDecodeMethod) != nil
}

func isTypeParam(t types.Type) bool {
	_, ok := t.(*types.TypeParam)
	return ok
}

// buildForm builds the form of the struct type n, reporting every field
// elicitation cannot express at the field's position.
func buildForm(b *schemaBuilder, n *types.Named, use token.Position) (*Form, []Diagnostic) {
	sh, _, diags := b.buildInput(n, n.Obj().Pos())
	if len(diags) > 0 {
		return nil, diags
	}
	if sh.Kind != KindStruct {
		return nil, []Diagnostic{{Pos: use, Msg: fmt.Sprintf("form %s has its own JSON methods; a form must be a plain struct whose fields mcpgen can decode and validate", n.Obj().Name())}}
	}
	schema := &jsonschema.Schema{Type: "object", Properties: jsonschema.NewProperties()}
	name := n.Obj().Name()
	for _, f := range sh.Fields {
		pos := b.fset.Position(fieldPos(n, f))
		prop, msg := formProperty(f, b.enumTitles)
		if msg != "" {
			diags = append(diags, Diagnostic{Pos: pos, Msg: fmt.Sprintf("form %s: field %s (%q): %s", name, f.GoPath(), f.Name, msg)})
			continue
		}
		schema.Properties.Set(f.Name, prop)
		if f.Required {
			schema.Required = append(schema.Required, f.Name)
		}
	}
	if len(sh.Fields) == 0 {
		diags = append(diags, Diagnostic{Pos: b.fset.Position(n.Obj().Pos()), Msg: fmt.Sprintf("form %s has no fields: a form asks at least one question; add an exported field", name)})
	}
	if len(diags) > 0 {
		return nil, diags
	}
	return &Form{Pos: use, Type: n, Shape: sh, Schema: schema}, nil
}

// formFixes says what a form's field may be, for the diagnostics.
const formFixes = "a form's fields are strings, numbers, bools, time.Time, string enums, slices of a string enum (several choices), or pointers to these (optional fields)"

// formProperty returns the requested schema of one field of a form, or why
// elicitation cannot express it.
// titles gives the titles of an enum type's values, if it has any.
func formProperty(f *Field, titles func(types.Type) map[string]string) (*jsonschema.Schema, string) {
	if f.Nullable {
		return nil, "jsonschema:\"nullable\" is not allowed: a client never answers a form field with null; drop it (an optional field the user leaves empty is left as it is)"
	}
	s := f.Shape
	if s.Kind == KindPointer {
		s = s.Elem
	}
	if s.Quoted {
		return nil, "the json tag option \",string\" is not allowed: the client answers with JSON values of the schema's type; drop it"
	}
	site := f.Shape.Schema
	out := &jsonschema.Schema{Title: site.Title, Description: site.Description, Default: site.Default}
	switch s.Kind {
	case KindBool:
		out.Type = "boolean"
	case KindString, KindTime:
		out.Type = "string"
		out.Format, out.MinLength, out.MaxLength = site.Format, site.MinLength, site.MaxLength
		if len(site.Enum) > 0 {
			out.Enum = site.Enum
			out.MinLength, out.MaxLength = nil, nil
			if choices := titledChoices(site.Enum, titles(s.Type)); choices != nil {
				out.Enum, out.OneOf = nil, choices
			}
		}
		switch site.Format {
		case "", "date", "date-time", "email", "uri":
		default:
			return nil, fmt.Sprintf("format %q is not one a form can ask for; use date, date-time, email or uri, or drop it and check the value in the handler", site.Format)
		}
	case KindInt, KindUint, KindFloat:
		if len(site.Enum) > 0 {
			return nil, fmt.Sprintf("%s is an enum of numbers, and a form's choices are strings; give the type a string underlying type", typeString(s.Type))
		}
		out.Type = "integer"
		if s.Kind == KindFloat {
			out.Type = "number"
		}
		out.Minimum, out.Maximum = site.Minimum, site.Maximum
	case KindSlice:
		e := s.Elem
		if e.Kind != KindString || len(e.Schema.Enum) == 0 {
			return nil, fmt.Sprintf("%s is a slice, which a form has only for several choices: of a string type whose constants make an enum", typeString(s.Type))
		}
		out.Type = "array"
		out.Items = &jsonschema.Schema{Type: "string", Enum: e.Schema.Enum}
		if choices := titledChoices(e.Schema.Enum, titles(e.Type)); choices != nil {
			out.Items = &jsonschema.Schema{AnyOf: choices}
		}
		out.MinItems, out.MaxItems = site.MinItems, site.MaxItems
	default:
		if s.Kind == KindStruct {
			return nil, fmt.Sprintf("%s is a struct, and a form has no nested objects: move its fields into the form", typeString(s.Type))
		}
		return nil, fmt.Sprintf("%s is %s; %s", typeString(s.Type), kindPhrase(s.Kind), formFixes)
	}
	// Every keyword of the field's schema must have made it into the form's:
	// what the client is not told, the user cannot fill in.
	if extra := extraKeywords(site, out); len(extra) > 0 {
		return nil, fmt.Sprintf("%s %s %s not allowed in a form (title, description, default, format, minLength, maxLength, minimum, maximum, enum, minItems and maxItems are); drop %s and check the value in the handler",
			plural(len(extra), "keyword", "keywords"), strings.Join(extra, ", "), plural(len(extra), "is", "are"), plural(len(extra), "it", "them"))
	}
	return out, ""
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// titledChoices returns the choices of a titled enum, {"const": value,
// "title": title} each, a value without a title its own title; nil when no
// value has a title.
func titledChoices(values []any, titles map[string]string) []*jsonschema.Schema {
	var out []*jsonschema.Schema
	found := false
	for _, v := range values {
		s, ok := v.(string)
		if !ok {
			return nil
		}
		title, has := titles[s]
		found = found || has
		if !has {
			title = s
		}
		out = append(out, &jsonschema.Schema{Const: s, Title: title})
	}
	if !found {
		return nil
	}
	return out
}

// enumTitles returns the titles of the values of the constants of a string
// type, which a form shows for its choices: each constant's line comment,
// or else its doc comment (a leading constant name dropped, as from a
// tool's description), by value; nil when none has a comment.
func (b *schemaBuilder) enumTitles(t types.Type) map[string]string {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return nil
	}
	var titles map[string]string
	scope := n.Obj().Pkg().Scope()
	for _, name := range scope.Names() {
		c, ok := scope.Lookup(name).(*types.Const)
		if !ok || !types.Identical(types.Unalias(c.Type()), n) || c.Val().Kind() != constant.String {
			continue
		}
		f := b.syntax[b.fset.Position(c.Pos()).Filename]
		if f == nil {
			continue
		}
		title := constComment(f, c)
		if title == "" {
			continue
		}
		if titles == nil {
			titles = map[string]string{}
		}
		if v := constant.StringVal(c.Val()); titles[v] == "" {
			titles[v] = title
		}
	}
	return titles
}

// constComment returns the comment of the constant c declared in f, on one
// line.
func constComment(f *ast.File, c *types.Const) string {
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST || c.Pos() < gd.Pos() || c.Pos() > gd.End() {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			for _, id := range vs.Names {
				if id.Pos() != c.Pos() {
					continue
				}
				text := strings.TrimSpace(vs.Comment.Text())
				if text == "" {
					text = toolDescription(c.Name(), vs.Doc.Text())
				}
				return strings.Join(strings.Fields(text), " ")
			}
		}
	}
	return ""
}

// kindPhrase names a kind of Go type in a form diagnostic.
func kindPhrase(k Kind) string {
	switch k {
	case KindMap:
		return "a map"
	case KindArray:
		return "an array"
	case KindBytes:
		return "binary data"
	case KindRawMessage, KindAny:
		return "any JSON value"
	case KindUnmarshaler:
		return "a type with its own JSON or text methods"
	}
	return "a " + k.String()
}

// extraKeywords lists the keywords of site, as JSON, that out lacks (an
// enum may have become titled choices).
func extraKeywords(site, out *jsonschema.Schema) []string {
	keys := func(s *jsonschema.Schema) map[string]json.RawMessage {
		b, _ := json.Marshal(s)
		var m map[string]json.RawMessage
		json.Unmarshal(b, &m)
		return m
	}
	have := keys(out)
	var extra []string
	for k := range keys(site) {
		if _, ok := have[k]; !ok && k != "type" && k != "items" && (k != "enum" || out.OneOf == nil) {
			extra = append(extra, k)
		}
	}
	slices.Sort(extra)
	return extra
}

// dumpForms writes the forms of the model, for Dump.
func (p *Package) dumpForms(w io.Writer) {
	for _, f := range p.Forms {
		fmt.Fprintf(w, "form %s pos=%s:%d\n", f.Type.Obj().Name(), filepath.Base(f.Pos.Filename), f.Pos.Line)
		dumpShape(w, f.Shape, "  ")
	}
}

// genericFormMessage says why a generic type, or an instance of one, cannot
// be a form, and what to declare instead. The generated methods would be
// methods of the generic type, which every instance shares, while each
// instance asks a different form (its own schema and decoder); Go has no
// methods of one instance. A defined type of the instance is a plain struct
// type with the instance's fields, tags and comments, which works.
func genericFormMessage(via string, n *types.Named) string {
	name := n.Obj().Name()
	params := n.Origin().TypeParams()
	generic := make([]string, params.Len())
	for i := range generic {
		generic[i] = params.At(i).Obj().Name()
	}
	decl := name + "[" + strings.Join(generic, ", ") + "]"
	if n.TypeArgs().Len() == 0 {
		example := name + "[" + strings.Repeat("string, ", params.Len()-1) + "string]"
		return fmt.Sprintf("%s: a form cannot be a generic type: the methods mcpgen generates on *%s would be shared by every instance of it, and each instance asks its own form; mark a defined type of the instance to ask instead, e.g. type My%s %s, which keeps the fields, tags and comments", via, decl, name, example)
	}
	args := make([]string, n.TypeArgs().Len())
	for i := range args {
		args[i] = typeString(n.TypeArgs().At(i))
	}
	inst := name + "[" + strings.Join(args, ", ") + "]"
	for i := range n.TypeArgs().Len() {
		if isTypeParam(n.TypeArgs().At(i)) {
			return fmt.Sprintf("%s: a form cannot be an instance of a generic type, and in %s, %s is a type parameter: the methods mcpgen generates on *%s would be shared by every instance; ask with a defined type of a concrete instance, e.g. type %sString %s[string], which keeps the fields, tags and comments", via, inst, args[i], decl, name, name)
		}
	}
	return fmt.Sprintf("%s: a form cannot be an instance of a generic type: the methods mcpgen generates on *%s would be shared by every instance of %s, and each instance asks its own form; declare a defined type of this instance, e.g. type %s %s, which keeps the fields, tags and comments, and ask with it", via, decl, name, instanceName(name, n.TypeArgs()), inst)
}

// instanceName suggests a name for a defined type of an instance:
// Pair[string] → PairString, Page[[]int] → PageInt.
func instanceName(name string, args *types.TypeList) string {
	var b strings.Builder
	b.WriteString(name)
	for i := range args.Len() {
		up := true
		for _, r := range typeString(args.At(i)) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) && !up:
				if up {
					r = unicode.ToUpper(r)
				}
				b.WriteRune(r)
				up = false
			default:
				up = true
			}
		}
	}
	return b.String()
}
