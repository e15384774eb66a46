package generator

import (
	"cmp"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/build"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/invopop/jsonschema"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"
)

// maxTypeDepth bounds the nesting of types expanded inline, which only
// instantiations of generic types can make unbounded.
const maxTypeDepth = 64

// schemaBuilder derives Shapes and JSON Schemas from go/types. One per
// generation run; no package-level mutable state.
//
// Recursive named struct types are expanded once more as definitions: defs
// maps each "$defs" name to the Shape of its type's definition (its Schema
// is the definition schema; recursive uses inside it are Ref shapes). A name
// stays bound to its type for the builder's lifetime, so the Ref of any
// Shape built by b is a key of defs. defOrder lists the names in the order
// they were first needed.
type schemaBuilder struct {
	fset *token.FileSet

	defs     map[string]*Shape
	defOrder []string

	defNames typeutil.Map        // named struct type -> $defs name
	defUsed  map[string]bool     // $defs names taken
	defRefs  map[string][]string // $defs name -> names its definition refers to
	building map[string]bool     // definitions under construction

	enums typeutil.Map // *types.Named -> *constEnum

	// modules maps the import path of every package the loader reached to
	// its module; nil for the standard library, which has none.
	modules map[string]*packages.Module

	syntax  map[string]*ast.File // files of the loaded packages, by file name
	docs    map[string]*fileDocs // comment index by file name; nil: unreadable
	docFset *token.FileSet       // files parsed on demand
}

func newSchemaBuilder(fset *token.FileSet, pkgs []*packages.Package) *schemaBuilder {
	b := &schemaBuilder{
		fset:     fset,
		defs:     map[string]*Shape{},
		defUsed:  map[string]bool{},
		defRefs:  map[string][]string{},
		building: map[string]bool{},
		syntax:   map[string]*ast.File{},
		docs:     map[string]*fileDocs{},
		modules:  map[string]*packages.Module{},
	}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		b.modules[p.PkgPath] = p.Module
		for _, f := range p.Syntax {
			if tf := fset.File(f.Pos()); tf != nil {
				b.syntax[tf.Name()] = f
			}
		}
	})
	return b
}

// buildState is the state of one traversal of a type.
type buildState struct {
	stack []*types.Named // named types being expanded, outermost first
	refs  map[string]bool
	diags []Diagnostic
	seen  map[Diagnostic]bool
	quiet bool // diagnostics are dropped: the traversal repeats one already reported
	input bool // the type is decoded from a client's JSON, not only encoded
}

// build returns the shape of t and its root schema. The root schema carries
// "$defs" only when a recursive type is reachable from t; it then holds the
// definitions of every name referred to from the root or from those
// definitions. pos positions diagnostics about t itself. Every diagnostic
// found is returned; the shape and schema are then incomplete.
func (b *schemaBuilder) build(t types.Type, pos token.Pos) (*Shape, *jsonschema.Schema, []Diagnostic) {
	return b.buildFor(t, pos, false)
}

// buildInput is build for a type decoded from tool arguments, which must
// also be decodable.
func (b *schemaBuilder) buildInput(t types.Type, pos token.Pos) (*Shape, *jsonschema.Schema, []Diagnostic) {
	return b.buildFor(t, pos, true)
}

func (b *schemaBuilder) buildFor(t types.Type, pos token.Pos, input bool) (*Shape, *jsonschema.Schema, []Diagnostic) {
	st := &buildState{refs: map[string]bool{}, seen: map[Diagnostic]bool{}, input: input}
	sh := b.shape(st, t, pos, rootPath(t), 0)
	root := sh.Schema
	if len(st.refs) > 0 {
		root.Definitions = jsonschema.Definitions{}
		var add func(name string)
		add = func(name string) {
			if _, ok := root.Definitions[name]; ok {
				return
			}
			root.Definitions[name] = b.defs[name].Schema
			for _, r := range b.defRefs[name] {
				add(r)
			}
		}
		for _, name := range sortedKeys(st.refs) {
			add(name)
		}
	}
	return sh, root, st.diags
}

func rootPath(t types.Type) string {
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	if n, ok := t.(*types.Named); ok {
		return n.Obj().Name()
	}
	return t.String()
}

func (b *schemaBuilder) errorf(st *buildState, pos token.Pos, format string, args ...any) {
	if st.quiet {
		return
	}
	d := Diagnostic{Pos: b.fset.Position(pos), Msg: fmt.Sprintf(format, args...)}
	if st.seen[d] {
		return
	}
	st.seen[d] = true
	st.diags = append(st.diags, d)
}

// typeString writes t with package names, as Go source would.
func typeString(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string { return p.Name() })
}

func anyShape(t types.Type) *Shape {
	return &Shape{Kind: KindAny, Type: t, Schema: unconstrained()}
}

// unconstrained returns a schema that accepts any value and marshals as {}.
// invopop writes an empty Schema as the boolean schema true, which JSON
// Schema allows but MCP does not: a tool's property schemas must be
// objects. A non-nil, empty Extras makes it write {}.
func unconstrained() *jsonschema.Schema {
	return &jsonschema.Schema{Extras: map[string]any{}}
}

// shape returns the shape of a site of type t with a fresh schema. pos and
// path locate the site in diagnostics.
func (b *schemaBuilder) shape(st *buildState, t types.Type, pos token.Pos, path string, depth int) *Shape {
	t = types.Unalias(t)
	if depth > maxTypeDepth {
		b.errorf(st, pos, "%s: type %s is nested too deeply", path, typeString(t))
		return anyShape(t)
	}
	if _, ok := t.(*types.TypeParam); ok {
		b.errorf(st, pos, "%s: unsupported type %s (a type parameter)", path, typeString(t))
		return anyShape(t)
	}
	named, _ := t.(*types.Named)
	if named != nil {
		switch {
		case isNamedType(named, "time", "Time"):
			return &Shape{Kind: KindTime, Type: t, Schema: &jsonschema.Schema{Type: "string", Format: "date-time"}}
		case isNamedType(named, "encoding/json", "RawMessage"):
			return &Shape{Kind: KindRawMessage, Type: t, Schema: unconstrained()}
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Interface:
		if st.input && !u.Empty() {
			b.errorf(st, pos, "%s: unsupported type %s: an interface with methods cannot be decoded from JSON (encoding/json has no concrete type to choose); use a concrete type, any or json.RawMessage", path, typeString(t))
		}
		return b.withDoc(named, anyShape(t))
	case *types.Pointer:
		elem := b.shape(st, u.Elem(), pos, path, depth+1)
		return &Shape{Kind: KindPointer, Type: t, Elem: elem, Schema: elem.Schema}
	}
	if hasJSONMethods(t) {
		return b.withDoc(named, &Shape{Kind: KindUnmarshaler, Type: t, Schema: unconstrained()})
	}
	if hasTextMethods(t) {
		return b.withDoc(named, &Shape{Kind: KindUnmarshaler, Type: t, Schema: &jsonschema.Schema{Type: "string"}})
	}
	if named != nil {
		if i := st.onStack(named); i >= 0 {
			if isStruct(named) {
				return b.refShape(st, named)
			}
			if !st.structAbove(i) {
				b.errorf(st, pos, "%s: recursive type %s: only struct types may be recursive", path, typeString(t))
				return anyShape(t)
			}
		}
		st.stack = append(st.stack, named)
		defer func() { st.stack = st.stack[:len(st.stack)-1] }()
	}

	var sh *Shape
	switch u := t.Underlying().(type) {
	case *types.Basic:
		sh = b.basicShape(st, t, u, pos, path)
	case *types.Slice:
		if isByteSlice(u) {
			sh = &Shape{Kind: KindBytes, Type: t, Schema: &jsonschema.Schema{Type: "string", ContentEncoding: "base64"}}
			break
		}
		elem := b.shape(st, u.Elem(), pos, path+"[]", depth+1)
		sh = &Shape{Kind: KindSlice, Type: t, Elem: elem, Schema: &jsonschema.Schema{Type: "array", Items: elem.Schema}}
	case *types.Array:
		elem := b.shape(st, u.Elem(), pos, path+"[]", depth+1)
		minItems, maxItems := uint64(u.Len()), uint64(u.Len())
		sh = &Shape{Kind: KindArray, Type: t, Elem: elem, Len: u.Len(), Schema: &jsonschema.Schema{
			Type: "array", Items: elem.Schema, MinItems: &minItems, MaxItems: &maxItems,
		}}
	case *types.Map:
		key, ok := mapKey(u.Key())
		encKey, encOK := encodeKey(u.Key())
		switch {
		case st.input && !ok && encOK:
			b.errorf(st, pos, "%s: map key type %s in %s has MarshalText but no UnmarshalText: keys of this type can be written but never read from arguments", path, typeString(u.Key()), typeString(t))
		case st.input && !ok:
			b.errorf(st, pos, "%s: unsupported map key type %s in %s (keys must be of string or integer kind, or implement encoding.TextUnmarshaler)", path, typeString(u.Key()), typeString(t))
		case !st.input && !encOK:
			b.errorf(st, pos, "%s: unsupported map key type %s in %s (keys must be of string or integer kind, or implement encoding.TextMarshaler)", path, typeString(u.Key()), typeString(t))
		}
		if !st.input {
			// A result's keys are written, so their names are what
			// encoding/json writes.
			key = encKey
		}
		elem := b.shape(st, u.Elem(), pos, path+"[key]", depth+1)
		s := &jsonschema.Schema{Type: "object"}
		if _, isIface := types.Unalias(u.Elem()).Underlying().(*types.Interface); !isIface {
			s.AdditionalProperties = elem.Schema
		}
		if key == KeyInt || key == KeyUint {
			kb, _ := types.Unalias(u.Key()).Underlying().(*types.Basic)
			s.PropertyNames = &jsonschema.Schema{Pattern: keyPattern(key == KeyInt, basicBits(kb))}
		}
		sh = &Shape{Kind: KindMap, Type: t, Elem: elem, Schema: s, Key: key}
	case *types.Struct:
		sh = b.structShape(st, t, path, depth)
	default:
		b.errorf(st, pos, "%s: unsupported type %s%s", path, typeString(t), unsupportedFix)
		return anyShape(t)
	}
	if named != nil {
		b.withDoc(named, sh)
		if sh.Kind == KindString || sh.Kind == KindInt || sh.Kind == KindUint {
			if e := b.constEnum(named); len(e) > 0 {
				sh.Schema.Enum = slices.Clone(e)
				if sh.Kind != KindString {
					sh.EnumNote = b.enumNote(named)
					sh.Schema.Description = withEnumNote(sh.Schema.Description, sh.EnumNote)
				}
			}
		}
	}
	return sh
}

func (st *buildState) onStack(n *types.Named) int {
	for i := len(st.stack) - 1; i >= 0; i-- {
		if types.Identical(st.stack[i], n) {
			return i
		}
	}
	return -1
}

// structAbove reports whether a struct type is being expanded inside the
// expansion of stack[i].
func (st *buildState) structAbove(i int) bool {
	for _, n := range st.stack[i+1:] {
		if isStruct(n) {
			return true
		}
	}
	return false
}

func isStruct(t types.Type) bool {
	_, ok := t.Underlying().(*types.Struct)
	return ok
}

func isNamedType(n *types.Named, pkg, name string) bool {
	o := n.Obj()
	return o.Pkg() != nil && o.Pkg().Path() == pkg && o.Name() == name
}

func (b *schemaBuilder) withDoc(named *types.Named, sh *Shape) *Shape {
	if named != nil && !b.isStandardLibrary(named.Obj()) {
		sh.Schema.Description = typeDescription(named.Obj().Name(), b.typeDoc(named.Obj()))
	}
	return sh
}

// module returns the module that declares obj, as the loader found it, and
// whether the loader reached obj's package at all.
func (b *schemaBuilder) module(obj types.Object) (*packages.Module, bool) {
	if obj.Pkg() == nil {
		return nil, true
	}
	m, ok := b.modules[obj.Pkg().Path()]
	return m, ok
}

// isStandardLibrary reports whether obj is declared in the standard
// library, whose type docs are written for Go programmers, not for a model
// filling in a field. The loader knows: only standard-library packages
// belong to no module. A package it did not report is judged by where its
// source lies.
func (b *schemaBuilder) isStandardLibrary(obj types.Object) bool {
	if obj.Pkg() == nil {
		return true
	}
	if m, ok := b.module(obj); ok {
		return m == nil
	}
	file := b.fset.Position(obj.Pos()).Filename
	if strings.HasPrefix(file, "$GOROOT") {
		return true
	}
	root := filepath.Join(build.Default.GOROOT, "src") + string(filepath.Separator)
	return file != "" && strings.HasPrefix(file, root)
}

// isUserType reports whether obj is declared in a main module of the load:
// the code being generated, whose constants say what its types mean.
func (b *schemaBuilder) isUserType(obj types.Object) bool {
	m, _ := b.module(obj)
	return m != nil && m.Main
}

func (b *schemaBuilder) basicShape(st *buildState, t types.Type, u *types.Basic, pos token.Pos, path string) *Shape {
	info := u.Info()
	switch {
	case info&types.IsBoolean != 0:
		return &Shape{Kind: KindBool, Type: t, Schema: &jsonschema.Schema{Type: "boolean"}}
	case info&types.IsString != 0:
		return &Shape{Kind: KindString, Type: t, Schema: &jsonschema.Schema{Type: "string"}}
	case info&types.IsFloat != 0 && info&types.IsUntyped == 0:
		bits := 64
		if u.Kind() == types.Float32 {
			bits = 32
		}
		return &Shape{Kind: KindFloat, Type: t, Bits: bits, Schema: &jsonschema.Schema{Type: "number"}}
	case info&types.IsInteger != 0 && info&types.IsUntyped == 0:
		sh := &Shape{Kind: KindInt, Type: t, Bits: 64, Schema: &jsonschema.Schema{Type: "integer"}}
		if info&types.IsUnsigned != 0 {
			sh.Kind = KindUint
			sh.Schema.Minimum = "0"
		}
		switch u.Kind() {
		case types.Int8, types.Uint8:
			sh.Bits = 8
		case types.Int16, types.Uint16:
			sh.Bits = 16
		case types.Int32, types.Uint32:
			sh.Bits = 32
		}
		if sh.Bits < 64 {
			if sh.Kind == KindInt {
				sh.Schema.Minimum = json64(-(int64(1) << (sh.Bits - 1)))
				sh.Schema.Maximum = json64(int64(1)<<(sh.Bits-1) - 1)
			} else {
				sh.Schema.Maximum = json64(int64(1)<<sh.Bits - 1)
			}
		}
		return sh
	}
	b.errorf(st, pos, "%s: unsupported type %s%s", path, typeString(t), unsupportedFix)
	return anyShape(t)
}

// unsupportedFix ends the error about a type that has no JSON value.
const unsupportedFix = `: JSON has no value of it (encoding/json fails on it too); leave the field out with the tag json:"-", or give it a type JSON can hold`

func json64(n int64) json.Number { return json.Number(strconv.FormatInt(n, 10)) }

// refShape returns the shape of a recursive use of n, building n's
// definition first if needed.
func (b *schemaBuilder) refShape(st *buildState, n *types.Named) *Shape {
	name := b.defName(n)
	if _, ok := b.defs[name]; !ok && !b.building[name] {
		b.building[name] = true
		ds := &buildState{refs: map[string]bool{}, quiet: true, input: st.input}
		sh := b.shape(ds, n, n.Obj().Pos(), n.Obj().Name(), 0)
		b.defs[name] = sh
		b.defRefs[name] = sortedKeys(ds.refs)
		delete(b.building, name)
	}
	st.refs[name] = true
	return &Shape{Kind: KindStruct, Type: n, Ref: name, Schema: &jsonschema.Schema{Ref: "#/$defs/" + name}}
}

// defName returns the $defs name of n: its type name, with its type
// arguments for an instance of a generic type, and a number appended when
// another type took the name first.
func (b *schemaBuilder) defName(n *types.Named) string {
	if v, ok := b.defNames.At(n).(string); ok {
		return v
	}
	base := n.Obj().Name()
	if targs := n.TypeArgs(); targs != nil {
		for t := range targs.Types() {
			base += "_" + sanitizeName(types.TypeString(t, func(p *types.Package) string { return p.Name() }))
		}
	}
	name := base
	for i := 2; b.defUsed[name]; i++ {
		name = base + strconv.Itoa(i)
	}
	b.defUsed[name] = true
	b.defNames.Set(n, name)
	b.defOrder = append(b.defOrder, name)
	return name
}

func sanitizeName(s string) string {
	var sb strings.Builder
	under := false
	for _, r := range s {
		if r == '_' || ('0' <= r && r <= '9') || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') {
			sb.WriteRune(r)
			under = false
		} else if !under {
			sb.WriteByte('_')
			under = true
		}
	}
	return strings.Trim(sb.String(), "_")
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// structShape expands a struct type: its JSON properties as encoding/json
// sees them, each with its field's tags and comments applied. A field tagged
// nullable gets the site schema {"oneOf": [schema, {"type": "null"}]} as
// its Shape's Schema; the shapes below it keep the inner schema.
func (b *schemaBuilder) structShape(st *buildState, t types.Type, path string, depth int) *Shape {
	s := &jsonschema.Schema{Type: "object", Properties: jsonschema.NewProperties(), AdditionalProperties: jsonschema.FalseSchema}
	sh := &Shape{Kind: KindStruct, Type: t, Schema: s}
	for _, f := range jsonFields(t) {
		fpath := path + "." + goPath(f.path)
		if f.schemaSkip {
			continue
		}
		if f.badPtr != nil {
			b.errorf(st, f.badPtr.Pos(), "%s.%s: embedded pointer to unexported struct type %s: encoding/json cannot allocate it",
				path, goPath(f.path[:f.badDepth]), typeString(f.badPtr.Type()))
			continue
		}
		v := f.v
		tag := reflect.StructTag(f.tag)
		fsh := b.shape(st, v.Type(), v.Pos(), fpath, depth+1)
		if f.json.quoted && isQuotable(v.Type()) {
			if msg := quote(fsh); msg != "" {
				b.errorf(st, v.Pos(), "%s: %s", fpath, msg)
			}
		}
		site := fsh.Schema
		typeDoc := site.Description
		site.Description = ""
		var a tagApplier
		a.apply(site, fsh, s, f.name, tag)
		if fsh.Quoted && site.Default != nil {
			a.problemf("a default is not supported with the json tag option \",string\"")
		} else if msg := defaultProblem(fsh); msg != "" {
			a.problemf("%s", msg)
		}
		if msg := timeFormatProblem(fsh); msg != "" {
			a.problemf("%s", msg)
		}
		for _, p := range a.problems {
			b.errorf(st, v.Pos(), "%s: %s", fpath, p)
		}
		if site.Description == "" {
			site.Description = fieldDescription(v.Name(), b.fieldDoc(v))
		}
		if site.Description == "" {
			site.Description = typeDoc
		}
		b.siteEnumNote(fsh, site)
		flags := parseSchemaFlags(tag)
		if flags.nullable {
			site = &jsonschema.Schema{OneOf: []*jsonschema.Schema{site, {Type: "null"}}}
			fsh.Schema = site
		}
		required := flags.required || (!f.json.omitEmpty && !f.json.omitZero && !isPointer(v.Type()))
		s.Properties.Set(f.name, site)
		if required {
			s.Required = append(s.Required, f.name)
		}
		sh.Fields = append(sh.Fields, &Field{Name: f.name, Path: f.path, Required: required, Nullable: flags.nullable, OmitEmpty: f.json.omitEmpty, OmitZero: f.json.omitZero, Shape: fsh})
	}
	return sh
}

func goPath(path []FieldStep) string {
	names := make([]string, len(path))
	for i, s := range path {
		names[i] = s.Name
	}
	return strings.Join(names, ".")
}

func isPointer(t types.Type) bool {
	_, ok := types.Unalias(t).Underlying().(*types.Pointer)
	return ok
}

// isQuotable reports whether encoding/json applies the ",string" option to
// a field of type t.
func isQuotable(t types.Type) bool {
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	b, ok := types.Unalias(t).Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsBoolean|types.IsInteger|types.IsFloat|types.IsString) != 0
}

// jsonField is one JSON property of a struct as encoding/json's typeFields
// finds it.
type jsonField struct {
	name       string
	tagged     bool // name came from the json tag
	index      []int
	path       []FieldStep
	v          *types.Var
	tag        string
	json       jsonTag
	schemaSkip bool       // jsonschema:"-" on the field or on an embedded field on its path
	badPtr     *types.Var // embedded pointer to an unexported struct on its path
	badDepth   int        // length of the path up to badPtr
}

// typeCounter counts types by identity.
type typeCounter struct{ m typeutil.Map }

func (c *typeCounter) get(t types.Type) int {
	n, _ := c.m.At(t).(int)
	return n
}

func (c *typeCounter) inc(t types.Type) { c.m.Set(t, c.get(t)+1) }

// jsonFields returns the JSON properties of struct type t in encoding/json's
// order, with its rules for embedded structs: breadth-first, the shallowest
// field of a name wins, a tagged one wins among equally deep ones, and names
// still in conflict are dropped.
func jsonFields(t types.Type) []jsonField {
	type embedded struct {
		typ      types.Type
		index    []int
		path     []FieldStep
		skip     bool
		badPtr   *types.Var
		badDepth int
	}
	var current []embedded
	next := []embedded{{typ: t}}
	count, nextCount := &typeCounter{}, &typeCounter{}
	visited := &typeCounter{}
	var fields []jsonField

	for len(next) > 0 {
		current, next = next, nil
		count, nextCount = nextCount, &typeCounter{}
		for _, e := range current {
			if visited.get(e.typ) > 0 {
				continue
			}
			visited.inc(e.typ)
			st := e.typ.Underlying().(*types.Struct)
			for i := range st.NumFields() {
				sf := st.Field(i)
				ft := types.Unalias(sf.Type())
				ptr := false
				if p, ok := ft.(*types.Pointer); ok {
					ft, ptr = types.Unalias(p.Elem()), true
				}
				if sf.Embedded() {
					if !sf.Exported() && !isStruct(ft) {
						continue
					}
				} else if !sf.Exported() {
					continue
				}
				tag := st.Tag(i)
				jt := parseJSONTag(reflect.StructTag(tag))
				if jt.skip {
					continue
				}
				index := append(slices.Clone(e.index), i)
				step := FieldStep{Name: sf.Name(), Type: sf.Type()}
				skip := e.skip || parseSchemaFlags(reflect.StructTag(tag)).skip
				if jt.name != "" || !sf.Embedded() || !isStruct(ft) {
					f := jsonField{
						name: jt.name, tagged: jt.name != "", index: index,
						path: append(slices.Clone(e.path), step),
						v:    sf, tag: tag, json: jt, schemaSkip: skip, badPtr: e.badPtr, badDepth: e.badDepth,
					}
					if f.name == "" {
						f.name = sf.Name()
					}
					fields = append(fields, f)
					if count.get(e.typ) > 1 {
						// Two equal fields make the conflict below drop the name.
						fields = append(fields, f)
					}
					continue
				}
				nextCount.inc(ft)
				if nextCount.get(ft) == 1 {
					step.Ptr = ptr
					bad, badDepth := e.badPtr, e.badDepth
					if ptr && !sf.Exported() && bad == nil {
						bad, badDepth = sf, len(e.path)+1
					}
					next = append(next, embedded{typ: ft, index: index, path: append(slices.Clone(e.path), step), skip: skip, badPtr: bad, badDepth: badDepth})
				}
			}
		}
	}

	slices.SortFunc(fields, func(a, b jsonField) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		if c := cmp.Compare(len(a.index), len(b.index)); c != 0 {
			return c
		}
		if a.tagged != b.tagged {
			if a.tagged {
				return -1
			}
			return 1
		}
		return slices.Compare(a.index, b.index)
	})
	out := fields[:0]
	for i := 0; i < len(fields); {
		j := i + 1
		for j < len(fields) && fields[j].name == fields[i].name {
			j++
		}
		group := fields[i:j]
		if len(group) == 1 || len(group[0].index) != len(group[1].index) || group[0].tagged != group[1].tagged {
			out = append(out, group[0])
		}
		i = j
	}
	slices.SortFunc(out, func(a, b jsonField) int { return slices.Compare(a.index, b.index) })
	return out
}

var (
	byteSliceType = types.NewSlice(types.Typ[types.Byte])
	errorType     = types.Universe.Lookup("error").Type()
)

// hasMethod reports whether a variable of type t has method name with
// params and results (its pointer receiver methods included).
func hasMethod(t types.Type, name string, params, results []types.Type) bool {
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
	fn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	sig := fn.Signature()
	return !sig.Variadic() && tupleIs(sig.Params(), params) && tupleIs(sig.Results(), results)
}

func tupleIs(tu *types.Tuple, want []types.Type) bool {
	if tu.Len() != len(want) {
		return false
	}
	for i, w := range want {
		if !types.Identical(tu.At(i).Type(), w) {
			return false
		}
	}
	return true
}

// hasJSONMethods reports whether t or *t implements json.Marshaler or
// json.Unmarshaler.
func hasJSONMethods(t types.Type) bool {
	return hasMethod(t, "MarshalJSON", nil, []types.Type{byteSliceType, errorType}) ||
		hasMethod(t, "UnmarshalJSON", []types.Type{byteSliceType}, []types.Type{errorType})
}

// hasTextMethods reports whether t or *t implements encoding.TextMarshaler
// or encoding.TextUnmarshaler, which encoding/json uses for a JSON string.
func hasTextMethods(t types.Type) bool {
	return hasMethod(t, "MarshalText", nil, []types.Type{byteSliceType, errorType}) ||
		hasMethod(t, "UnmarshalText", []types.Type{byteSliceType}, []types.Type{errorType})
}

// isByteSlice reports whether encoding/json encodes a value of type s as a
// base64 string.
func isByteSlice(s *types.Slice) bool {
	elem := types.Unalias(s.Elem())
	b, ok := elem.Underlying().(*types.Basic)
	if !ok || b.Kind() != types.Uint8 {
		return false
	}
	return !hasMethod(elem, "MarshalJSON", nil, []types.Type{byteSliceType, errorType}) &&
		!hasMethod(elem, "MarshalText", nil, []types.Type{byteSliceType, errorType})
}

// constEnum is the cached enum of a named type: its values, and the name
// of the first constant of each.
type constEnum struct {
	values []any
	names  []string
}

// constEnum returns the values of the constants of exactly type n declared
// in n's package scope, in source order, without repeats; nil unless n is
// a string or integer type declared in the main module. The constants of
// other modules' types (time.Duration's units, time.Month's months, a
// library's status codes) name some values among many, not all of them:
// they make no enum.
func (b *schemaBuilder) constEnum(n *types.Named) []any {
	if e, ok := b.enums.At(n).(*constEnum); ok {
		return e.values
	}
	e := &constEnum{}
	b.enums.Set(n, e)
	basic, ok := n.Underlying().(*types.Basic)
	pkg := n.Obj().Pkg()
	if !ok || pkg == nil || n.TypeArgs() != nil || basic.Info()&(types.IsString|types.IsInteger) == 0 || !b.isUserType(n.Obj()) {
		return nil
	}
	type entry struct {
		pos  token.Position
		name string
		val  constant.Value
	}
	var consts []entry
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		c, ok := scope.Lookup(name).(*types.Const)
		if !ok || !types.Identical(types.Unalias(c.Type()), n) {
			continue
		}
		consts = append(consts, entry{b.fset.Position(c.Pos()), name, c.Val()})
	}
	slices.SortFunc(consts, func(x, y entry) int {
		return cmp.Or(
			cmp.Compare(x.pos.Filename, y.pos.Filename),
			cmp.Compare(x.pos.Line, y.pos.Line),
			cmp.Compare(x.pos.Column, y.pos.Column),
			cmp.Compare(x.name, y.name),
		)
	})
	seen := map[string]bool{}
	for _, c := range consts {
		var v any
		if c.val.Kind() == constant.String {
			v = constant.StringVal(c.val)
		} else {
			v = json.Number(c.val.ExactString())
		}
		key := c.val.ExactString()
		if seen[key] {
			continue
		}
		seen[key] = true
		e.values = append(e.values, v)
		e.names = append(e.names, c.name)
	}
	return e.values
}

// fileDocs indexes the doc comments of one file by the line and name of the
// commented identifier; positions from export data carry no column.
type fileDocs struct {
	types  map[lineName]string
	fields map[lineName]string
}

type lineName struct {
	line int
	name string
}

// typeDoc returns the doc comment of a type declaration.
func (b *schemaBuilder) typeDoc(obj *types.TypeName) string {
	pos := b.fset.Position(obj.Pos())
	if fd := b.fileDocs(pos.Filename); fd != nil {
		return fd.types[lineName{pos.Line, obj.Name()}]
	}
	return ""
}

// fieldDoc returns the doc comment of a struct field, or else its line
// comment.
func (b *schemaBuilder) fieldDoc(v *types.Var) string {
	pos := b.fset.Position(v.Pos())
	if fd := b.fileDocs(pos.Filename); fd != nil {
		return fd.fields[lineName{pos.Line, v.Name()}]
	}
	return ""
}

// fileDocs returns the comment index of a file: from the syntax of the
// loaded packages, or else from the file parsed now.
func (b *schemaBuilder) fileDocs(filename string) *fileDocs {
	if filename == "" {
		return nil
	}
	if fd, ok := b.docs[filename]; ok {
		return fd
	}
	f, fset := b.syntax[filename], b.fset
	if f == nil {
		path := filename
		if rest, ok := strings.CutPrefix(filename, "$GOROOT"); ok {
			path = filepath.Join(build.Default.GOROOT, rest)
		}
		if b.docFset == nil {
			b.docFset = token.NewFileSet()
		}
		pf, err := parser.ParseFile(b.docFset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			b.docs[filename] = nil
			return nil
		}
		f, fset = pf, b.docFset
	}
	fd := indexDocs(fset, f)
	b.docs[filename] = fd
	return fd
}

func indexDocs(fset *token.FileSet, f *ast.File) *fileDocs {
	fd := &fileDocs{types: map[lineName]string{}, fields: map[lineName]string{}}
	key := func(id *ast.Ident) lineName { return lineName{fset.Position(id.Pos()).Line, id.Name} }
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GenDecl:
			if n.Tok != token.TYPE {
				return true
			}
			for _, spec := range n.Specs {
				ts := spec.(*ast.TypeSpec)
				doc := ts.Doc
				if doc == nil && len(n.Specs) == 1 {
					doc = n.Doc
				}
				if text := strings.TrimSpace(doc.Text()); text != "" {
					fd.types[key(ts.Name)] = text
				}
			}
		case *ast.StructType:
			for _, field := range n.Fields.List {
				text := strings.TrimSpace(field.Doc.Text())
				if text == "" {
					text = strings.TrimSpace(field.Comment.Text())
				}
				if text == "" {
					continue
				}
				if len(field.Names) == 0 {
					if id := embeddedIdent(field.Type); id != nil {
						fd.fields[key(id)] = text
					}
				}
				for _, id := range field.Names {
					fd.fields[key(id)] = text
				}
			}
		}
		return true
	})
	return fd
}

// embeddedIdent returns the type name of an embedded field's type.
func embeddedIdent(e ast.Expr) *ast.Ident {
	switch e := e.(type) {
	case *ast.Ident:
		return e
	case *ast.StarExpr:
		return embeddedIdent(e.X)
	case *ast.SelectorExpr:
		return e.Sel
	case *ast.IndexExpr:
		return embeddedIdent(e.X)
	case *ast.IndexListExpr:
		return embeddedIdent(e.X)
	case *ast.ParenExpr:
		return embeddedIdent(e.X)
	}
	return nil
}
