package generator

import (
	"errors"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// ResourceOutput says how a resource function's Go result becomes the
// contents read.
type ResourceOutput int

const (
	ResourceText         ResourceOutput = iota // string: text contents
	ResourceBlob                               // []byte: blob contents
	ResourceJSON                               // struct, map or slice: JSON text
	ResourceContents                           // runtime.ResourceContents
	ResourceContentsList                       // []runtime.ResourceContents
)

// Resource is one //mcp:resource function: a resource with a fixed URI, or
// a resource template when the URI has variables.
type Resource struct {
	Pos         token.Position
	URI         string // the fixed URI or the RFC 6570 template
	Template    bool
	Name        string
	Title       string
	Description string
	MIMEType    string
	Size        int64
	Subscribe   bool
	// Cache says ttl= or cache= was given: the reads carry CacheTTL and
	// CacheScope (revision 2026-07-28) in place of the server's hint.
	Cache      bool
	CacheTTL   time.Duration
	CacheScope string // "public" or "private"
	// Timeout bounds a read's time (timeout=); 0: no bound.
	Timeout time.Duration

	Func    string
	Recv    *Receiver
	Context bool

	// Vars are the template's variables, in the order of the function's
	// parameters or of the struct's fields. VarStruct, when not nil, is
	// the struct parameter that holds them (a pointer when VarPointer).
	Vars []*Var
	// TemplateVars are the names of the template's variables, in the
	// template's order, the order in which the generated code reads them.
	TemplateVars []string
	VarStruct    *Shape
	VarPointer   bool
	NumParams    int // parameters after the context

	Output     ResourceOutput
	OutputType types.Type
	// OutputShape is the shape of a ResourceJSON result, without the
	// pointer when OutputType is one; the generated encoder writes it.
	OutputShape *Shape
}

// resourceKeys are the keys of //mcp:resource.
var resourceKeys = map[string]string{"uri": "value", "name": "value", "title": "value", "mime": "value", "description": "value", "size": "value", "subscribe": "flag", "ttl": "value", "cache": "value", "timeout": "value"}

const resourceKeyList = "uri, name, title, mime, description, size, subscribe, ttl, cache, timeout"

const resourceShape = "a resource must look like func [(r *T)] F([ctx context.Context][, vars…]) (Out, error), with vars the template's variables as string or integer parameters, or one struct whose fields are the variables"

// resource builds one //mcp:resource function.
func (pb *primBuilder) resource(fd *ast.FuncDecl, c *ast.Comment) []Diagnostic {
	line, diags := parseDirectiveLine(pb.fset, c, resourceKeys, resourceKeyList)
	uriKey, ok := line.get("uri")
	if !ok {
		for _, d := range diags {
			if strings.Contains(d.Msg, uriHint("")) || strings.Contains(d.Msg, `: did you mean "uri"?`) {
				return diags // a URI without its key, or under a misspelt one, which that says
			}
		}
		return append(diags, diagf(line.Pos, "//mcp:resource needs uri=<URI or URI template>"))
	}
	r := &Resource{
		URI:         uriKey.Value,
		Name:        line.value("name"),
		Title:       line.value("title"),
		Description: line.value("description"),
		MIMEType:    line.value("mime"),
		Subscribe:   line.flag("subscribe"),
		Func:        fd.Name.Name,
	}
	if r.Name == "" {
		r.Name = snakeCase(fd.Name.Name)
	}
	if r.Description == "" {
		r.Description = toolDescription(fd.Name.Name, fd.Doc.Text())
	}
	tmpl, err := runtime.ParseURITemplate(r.URI)
	if err != nil {
		var te *runtime.URITemplateError
		if errors.As(err, &te) {
			return append(diags, diagf(line.valuePos(uriKey, te.Offset), "//mcp:resource: bad URI template %q: %s", r.URI, te.Msg))
		}
		return append(diags, diagf(uriKey.Pos, "//mcp:resource: %v", err))
	}
	r.Template = !tmpl.IsLiteral()
	r.TemplateVars = tmpl.Vars()
	if kv, ok := line.get("size"); ok {
		n, err := strconv.ParseInt(kv.Value, 10, 64)
		switch {
		case err != nil || n < 0:
			diags = append(diags, diagf(kv.Pos, "//mcp:resource: size=%s: want a number of bytes", kv.Value))
		case r.Template:
			diags = append(diags, diagf(kv.Pos, "//mcp:resource: size applies to a resource with a fixed URI, not to a template"))
		}
		r.Size = n
	}
	diags = append(diags, r.cacheKeys(line)...)
	var ds []Diagnostic
	r.Timeout, ds = timeoutKey(line, "//mcp:resource")
	diags = append(diags, ds...)

	f, ds := pb.function(fd, "resources", resourceShape)
	if f == nil {
		return append(diags, ds...)
	}
	r.Pos, r.Recv, r.Context, r.NumParams = f.Pos, f.Recv, f.Context, len(f.Params)
	diags = append(diags, pb.bindVars(r, f, line, uriKey, tmpl)...)

	// Result.
	res := f.Results
	if res.Len() != 2 || !isError(res.At(1).Type()) {
		return append(diags, diagf(f.Pos, "%s: a resource returns its contents and an error; %s", f.Name, resourceShape))
	}
	out := res.At(0).Type()
	r.OutputType = out
	mime := ""
	switch {
	case isRuntimeType(out, "ResourceContents", false):
		r.Output = ResourceContents
	case isResourceContentsSlice(out):
		r.Output = ResourceContentsList
	case isString(out):
		r.Output, mime = ResourceText, "text/plain"
	case isBytes(out):
		r.Output, mime = ResourceBlob, "application/octet-stream"
	default:
		sh, _, _, msg := pb.b.outputSchema(out, res.At(0).Pos())
		if msg != "" {
			return append(diags, diagf(f.Pos, "%s: %s; a resource's contents must be a string, []byte, a struct, a map, a slice, runtime.ResourceContents or []runtime.ResourceContents", f.Name, msg))
		}
		r.OutputShape = sh
		r.Output, mime = ResourceJSON, "application/json"
	}
	if r.MIMEType == "" {
		r.MIMEType = mime
	}

	if prev := pb.uris[r.URI]; prev != nil {
		what := "resource URI"
		if r.Template {
			what = "resource template"
		}
		return append(diags, diagf(uriKey.Pos, "duplicate %s %q (also used by %s at %s)", what, r.URI, prev.Func, where(prev.Pos, r.Pos)))
	}
	if len(diags) > 0 {
		return diags
	}
	pb.uris[r.URI] = r
	pb.p.Resources = append(pb.p.Resources, r)
	return nil
}

// bindVars binds the template's variables to the function's parameters:
// scalar parameters named like the variables, or one struct whose fields
// are the variables.
func (pb *primBuilder) bindVars(r *Resource, f *fn, line *directiveLine, uriKey directiveKey, tmpl *runtime.URITemplate) []Diagnostic {
	names := tmpl.Vars()
	optional := queryVars(r.URI)
	var diags []Diagnostic
	bound := map[string]bool{}
	varPos := func(name string) Diagnostic {
		return diagf(line.valuePos(uriKey, varOffset(r.URI, name)), "%s: the URI template variable %q has no parameter; add a parameter %s (a string or an integer), or a struct field with json name %q", f.Name, name, name, name)
	}
	isVar := func(name string) bool {
		for _, n := range names {
			if n == name {
				return true
			}
		}
		return false
	}
	if len(f.Params) == 1 {
		if st, ptr, ok := structParam(f.Params[0].Type()); ok {
			s, _, ds := pb.b.build(st, f.Params[0].Pos())
			if len(ds) > 0 {
				return ds
			}
			if s.Kind != KindStruct {
				return []Diagnostic{diagf(pb.fset.Position(f.Params[0].Pos()), "%s: %s has its own JSON methods; the variables must be a plain struct", f.Name, f.Params[0].Type())}
			}
			r.VarStruct, r.VarPointer = s, ptr
			for _, fl := range s.Fields {
				pos := pb.fset.Position(fieldPos(st, fl))
				switch {
				case !isVar(fl.Name):
					diags = append(diags, diagf(pos, "%s: field %s (json name %q) is not a variable of the URI template %q", f.Name, fl.GoPath(), fl.Name, r.URI))
				case !isScalarVar(fl.Shape):
					diags = append(diags, diagf(pos, "%s: field %s is %s; a template variable must be read into a string, a number or a bool", f.Name, fl.GoPath(), fl.Shape.Type))
				default:
					bound[fl.Name] = true
					r.Vars = append(r.Vars, &Var{Name: fl.Name, Shape: fl.Shape, Field: fl, Enum: stringEnum(fl.Shape), Required: !optional[fl.Name]})
				}
			}
			for _, n := range names {
				if !bound[n] && !hasField(s, n) {
					diags = append(diags, varPos(n))
				}
			}
			return diags
		}
	}
	for i, p := range f.Params {
		pos := pb.fset.Position(p.Pos())
		name := ""
		for _, n := range names {
			if n == p.Name() || n == snakeCase(p.Name()) {
				name = n
			}
		}
		if name == "" {
			if len(names) == 0 {
				diags = append(diags, diagf(pos, "%s: parameter %s has no variable in the URI %q; a resource with a fixed URI takes no parameters but a context", f.Name, p.Name(), r.URI))
			} else {
				diags = append(diags, diagf(pos, "%s: parameter %s has no variable in the URI template %q (variables: %s)", f.Name, p.Name(), r.URI, strings.Join(names, ", ")))
			}
			continue
		}
		s, _, ds := pb.b.build(p.Type(), p.Pos())
		if len(ds) > 0 {
			diags = append(diags, ds...)
			continue
		}
		if !isScalarVar(s) {
			diags = append(diags, diagf(pos, "%s: parameter %s is %s; a template variable must be read into a string, a number or a bool, or use one struct parameter", f.Name, p.Name(), p.Type()))
			continue
		}
		bound[name] = true
		r.Vars = append(r.Vars, &Var{Name: name, Shape: s, Param: i, Enum: stringEnum(s), Required: !optional[name]})
	}
	for _, n := range names {
		if !bound[n] && !hasParamFor(f, n) {
			diags = append(diags, varPos(n))
		}
	}
	return diags
}

// hasField reports whether a struct shape has a property, bound or not
// (so that a badly typed field is reported once).
func hasField(s *Shape, name string) bool {
	for _, f := range s.Fields {
		if f.Name == name {
			return true
		}
	}
	return false
}

func hasParamFor(f *fn, name string) bool {
	for _, p := range f.Params {
		if p.Name() == name || snakeCase(p.Name()) == name {
			return true
		}
	}
	return false
}

// queryVars returns the variables of the template's query expressions
// ({?a,b} and {&c}), which a URI may leave out.
func queryVars(tmpl string) map[string]bool {
	out := map[string]bool{}
	for {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(tmpl[i:], '}')
		if j < 0 {
			return out
		}
		expr := tmpl[i+1 : i+j]
		tmpl = tmpl[i+j+1:]
		if expr == "" || expr[0] != '?' && expr[0] != '&' {
			continue
		}
		for _, v := range strings.Split(expr[1:], ",") {
			v = strings.TrimSuffix(v, "*")
			if k := strings.IndexByte(v, ':'); k >= 0 {
				v = v[:k]
			}
			out[v] = true
		}
	}
}

// varOffset returns the offset of a variable's name in a template, or 0.
func varOffset(tmpl, name string) int {
	off := 0
	for {
		i := strings.IndexByte(tmpl[off:], '{')
		if i < 0 {
			return 0
		}
		j := strings.IndexByte(tmpl[off+i:], '}')
		if j < 0 {
			return 0
		}
		start := off + i + 1
		expr := tmpl[start : off+i+j]
		if expr != "" && strings.IndexByte("+#./;?&", expr[0]) >= 0 {
			expr, start = expr[1:], start+1
		}
		for _, spec := range strings.Split(expr, ",") {
			n := strings.TrimSuffix(spec, "*")
			if k := strings.IndexByte(n, ':'); k >= 0 {
				n = n[:k]
			}
			if n == name {
				return start
			}
			start += len(spec) + 1
		}
		off += i + j + 1
	}
}

func isResourceContentsSlice(t types.Type) bool {
	s, ok := types.Unalias(t).(*types.Slice)
	return ok && isRuntimeType(s.Elem(), "ResourceContents", false)
}

func isBytes(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := s.Elem().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Byte
}

// cacheKeys reads ttl=<duration> and cache=public|private, the caching
// hint of the resource's reads.
func (r *Resource) cacheKeys(line *directiveLine) []Diagnostic {
	var diags []Diagnostic
	r.CacheScope = "private"
	if kv, ok := line.get("ttl"); ok {
		r.Cache = true
		d, err := time.ParseDuration(kv.Value)
		if err != nil || d < 0 {
			diags = append(diags, diagf(kv.Pos, "//mcp:resource: ttl=%s: want how long clients may keep what is read, as a duration such as 30s or 5m", kv.Value))
		}
		r.CacheTTL = d
	}
	if kv, ok := line.get("cache"); ok {
		r.Cache = true
		switch kv.Value {
		case "public", "private":
			r.CacheScope = kv.Value
		default:
			diags = append(diags, diagf(kv.Pos, "//mcp:resource: cache=%s: want public (shared caches may keep it) or private", kv.Value))
		}
	}
	return diags
}
