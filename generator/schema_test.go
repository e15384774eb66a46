package generator

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/invopop/jsonschema"
	"golang.org/x/tools/go/packages"

	"github.com/mcpgen/mcpgen/generator/internal/schematypes"
)

const (
	schematypesPath = "github.com/mcpgen/mcpgen/generator/internal/schematypes"
	badPath         = schematypesPath + "/bad"
	extPath         = schematypesPath + "/ext"
)

var loadOnce struct {
	sync.Once
	fset *token.FileSet
	pkgs map[string]*packages.Package
	list []*packages.Package
	err  error
}

// loadTestPackages loads schematypes and bad from source; their imports,
// ext among them, come from export data.
func loadTestPackages(t *testing.T) (*token.FileSet, []*packages.Package, map[string]*packages.Package) {
	t.Helper()
	loadOnce.Do(func() {
		fset := token.NewFileSet()
		cfg := &packages.Config{
			Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedImports | packages.NeedModule,
			Fset: fset,
		}
		list, err := packages.Load(cfg, schematypesPath, badPath)
		if err != nil {
			loadOnce.err = err
			return
		}
		m := map[string]*packages.Package{}
		for _, p := range list {
			for _, e := range p.Errors {
				loadOnce.err = e
			}
			m[p.PkgPath] = p
		}
		loadOnce.fset, loadOnce.list, loadOnce.pkgs = fset, list, m
	})
	if loadOnce.err != nil {
		t.Fatalf("loading test packages: %v", loadOnce.err)
	}
	return loadOnce.fset, loadOnce.list, loadOnce.pkgs
}

// newTestBuilder returns a fresh builder over the test packages and the
// named type lookup of package path.
func newTestBuilder(t *testing.T) (*schemaBuilder, func(pkg, name string) types.Type) {
	t.Helper()
	fset, list, pkgs := loadTestPackages(t)
	lookup := func(pkg, name string) types.Type {
		t.Helper()
		p := pkgs[pkg]
		if p == nil {
			t.Fatalf("package %s not loaded", pkg)
		}
		obj := p.Types.Scope().Lookup(name)
		if obj == nil {
			t.Fatalf("%s.%s not found", pkg, name)
		}
		return obj.Type()
	}
	return newSchemaBuilder(fset, list), lookup
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return string(b)
}

func indentJSON(s string) string {
	var buf bytes.Buffer
	if err := json.Indent(&buf, []byte(s), "", "  "); err != nil {
		return s
	}
	return buf.String()
}

// buildOK builds schematypes.name and fails the test on diagnostics.
func buildOK(t *testing.T, b *schemaBuilder, lookup func(pkg, name string) types.Type, name string) (*Shape, *jsonschema.Schema) {
	t.Helper()
	sh, s, diags := b.build(lookup(schematypesPath, name), token.NoPos)
	for _, d := range diags {
		t.Errorf("%s: unexpected diagnostic %s", name, d)
	}
	return sh, s
}

// invopopCase is a schematypes type compared with invopop's reflection.
type invopopCase struct {
	typ reflect.Type
	// defs maps each $defs name expected in mcpgen's root schema to its Go
	// type; non-empty only for types that reach a recursive type.
	defs map[string]reflect.Type
}

var invopopCases = []invopopCase{
	{typ: reflect.TypeFor[schematypes.Scalars]()},
	{typ: reflect.TypeFor[schematypes.Optional]()},
	{typ: reflect.TypeFor[schematypes.StringTags]()},
	{typ: reflect.TypeFor[schematypes.NumberTags]()},
	{typ: reflect.TypeFor[schematypes.ArrayTags]()},
	{typ: reflect.TypeFor[schematypes.Point]()},
	{typ: reflect.TypeFor[schematypes.Collections]()},
	{typ: reflect.TypeFor[schematypes.Base]()},
	{typ: reflect.TypeFor[schematypes.Meta]()},
	{typ: reflect.TypeFor[schematypes.Deep]()},
	{typ: reflect.TypeFor[schematypes.Embedding]()},
	{typ: reflect.TypeFor[schematypes.ConflictA]()},
	{typ: reflect.TypeFor[schematypes.ConflictB]()},
	{typ: reflect.TypeFor[schematypes.Inner]()},
	{typ: reflect.TypeFor[schematypes.Left]()},
	{typ: reflect.TypeFor[schematypes.Right]()},
	{typ: reflect.TypeFor[schematypes.Enums]()},
	{typ: reflect.TypeFor[schematypes.Foreign]()},
	{typ: reflect.TypeFor[schematypes.Quoted]()},
	{typ: reflect.TypeFor[schematypes.Documented]()},
	{typ: reflect.TypeFor[schematypes.Marshalers]()},
	{typ: reflect.TypeFor[schematypes.Stamped]()},
	{typ: reflect.TypeFor[schematypes.Version]()},
	{typ: reflect.TypeFor[schematypes.Tree](), defs: map[string]reflect.Type{"Tree": reflect.TypeFor[schematypes.Tree]()}},
	{typ: reflect.TypeFor[schematypes.Forest](), defs: map[string]reflect.Type{"Tree": reflect.TypeFor[schematypes.Tree]()}},
	{typ: reflect.TypeFor[schematypes.Dept](), defs: map[string]reflect.Type{"Dept": reflect.TypeFor[schematypes.Dept](), "Person": reflect.TypeFor[schematypes.Person]()}},
	{typ: reflect.TypeFor[schematypes.Person](), defs: map[string]reflect.Type{"Person": reflect.TypeFor[schematypes.Person]()}},
	{typ: reflect.TypeFor[schematypes.Chain](), defs: map[string]reflect.Type{"Chain": reflect.TypeFor[schematypes.Chain]()}},
	{typ: reflect.TypeFor[schematypes.Nils]()},
	{typ: reflect.TypeFor[schematypes.Omits](), defs: map[string]reflect.Type{"Omits": reflect.TypeFor[schematypes.Omits]()}},
	{typ: reflect.TypeFor[schematypes.WithSlice]()},
	{typ: reflect.TypeFor[schematypes.Outer]()},
	{typ: reflect.TypeFor[schematypes.Inner2]()},
	{typ: reflect.TypeFor[schematypes.Scalars2]()},
	{typ: reflect.TypeFor[schematypes.Marshaled]()},
}

// notComparedWithInvopop lists the struct types of schematypes that the
// invopop comparison leaves out, with the reason.
var notComparedWithInvopop = map[string]string{
	"Uintptrs":  "invopop's reflector panics on uintptr; covered by TestScalarShapes",
	"Conflicts": "invopop merges embedded fields without encoding/json's rules for conflicting names; compared with encoding/json in TestPropertiesMatchEncodingJSON",
	"Diamond":   "as Conflicts: a name reached twice at one depth is dropped by encoding/json, kept by invopop",
	"Shadow":    "as Conflicts: the shallower or tagged field wins in encoding/json; invopop keeps the last one set",
	"Page":      "generic: instantiated in Pages",
	"Keys":      "invopop gives maps with signed integer keys patternProperties ^[0-9]+$, which leaves out the negative keys encoding/json reads, and unsigned ones no constraint; mcpgen writes propertyNames with the pattern encoding/json accepts; covered by TestMapKeys",
	"Pages":     "invopop names the definition of an instance after its reflect name (Page[string]), mcpgen makes it an identifier (Page_string); covered by TestSchemaGolden",
	"OutKeys":   "as Keys, for results: integer names in decimal, MarshalText names; compared with encoding/json in TestOutputsAgreeWithSchemas and covered by TestMapKeysOfResults",
	"OutQuoted": "invopop makes the **bool field with \",string\" a string, but encoding/json applies the option through one pointer only and writes a boolean; compared with encoding/json in TestOutputsAgreeWithSchemas",
	"Word":      "a map key written by MarshalText, not a value; covered by TestOutputsAgreeWithSchemas",
	"JSONNames": "invopop takes a json tag name literally (\"-,\" drops the field, an invalid name is used as is); mcpgen follows encoding/json (key \"-\", Go name); compared with encoding/json in TestPropertiesMatchEncodingJSON",
}

// allowedDifferences are the only ways mcpgen's schema may differ from
// invopop's reflection of the same Go type. normalize removes each where it
// applies and counts it; every entry must apply somewhere.
var allowedDifferences = map[string]string{
	"empty schema as {}":  "invopop writes a schema without keywords as the boolean schema true; MCP wants every property schema to be an object, so mcpgen writes {}. Both accept any value. mcpgen's is turned back into true.",
	"comment description": "mcpgen takes descriptions from Go doc and line comments (field comment, else the named type's doc); the Reflector is given no comments. Removed from mcpgen where the field's tags set no description.",
	"const enum":          "mcpgen makes an enum of the constants of a named string or integer type, which reflection cannot see. Removed from mcpgen where no enum tag applies.",
	"integer bounds":      "mcpgen bounds sized integers (minimum/maximum of int8…uint32, minimum 0 of unsigned kinds); invopop emits a bare integer. Removed from mcpgen where equal to the kind's bound and no tag set it.",
	"quoted pattern":      "a field with the \",string\" option is a string in both; mcpgen adds the pattern of the text encoding/json reads inside it (and quotes the constants of an enum). Removed from mcpgen where no tag set a pattern.",
	"optional pointer":    "mcpgen never requires a pointer field unless tagged jsonschema:\"required\"; invopop requires it when it lacks omitempty. Removed from invopop's required list.",
	"own JSON methods":    "a type with MarshalJSON/UnmarshalJSON (or text methods) is decoded by its own methods: mcpgen emits {} ({\"type\":\"string\"} for text methods) plus its tags; invopop reflects the Go structure. The structural keywords are removed from invopop, and \"type\" from both unless a tag set it.",
}

// siteTags is what a normalized site's tags say about the allowed
// differences.
type siteTags struct {
	desc, enum, typ, nullable bool
}

func tagItems(tag reflect.StructTag) []string {
	return splitOnUnescapedCommas(tag.Get("jsonschema"))
}

func hasTagKey(items []string, key string) bool {
	return slices.ContainsFunc(items, func(it string) bool { return strings.HasPrefix(it, key+"=") })
}

// fieldSiteTags returns the tag facts of a field site and of its items.
func fieldSiteTags(tag reflect.StructTag, sh *Shape) (site, items siteTags) {
	its := tagItems(tag)
	_, jd := tag.Lookup("jsonschema_description")
	site = siteTags{
		desc:     jd || hasTagKey(its, "description"),
		typ:      hasTagKey(its, "type") || hasTagKey(its, "oneof_type") || hasTagKey(its, "anyof_type"),
		nullable: slices.Contains(strings.Split(tag.Get("jsonschema"), ","), "nullable"),
	}
	enum := hasTagKey(its, "enum")
	if itemShape(sh) != nil {
		items.enum = enum
	} else {
		site.enum = enum
	}
	return site, items
}

type normalizer struct {
	t        *testing.T
	used     map[string]int
	hasEnum  func(types.Type) bool
	typeName string
}

func (n *normalizer) allow(name string) {
	if _, ok := allowedDifferences[name]; !ok {
		n.t.Fatalf("normalizer applied unlisted difference %q", name)
	}
	n.used[name]++
}

// site removes the allowed differences at one site: mcp and inv are the
// schemas mcpgen and invopop give the site, sh its shape, rt its Go type.
func (n *normalizer) site(sh *Shape, rt reflect.Type, tags siteTags, itemTags siteTags, mcp, inv *jsonschema.Schema) {
	if mcp == nil || inv == nil {
		return
	}
	if tags.nullable && len(mcp.OneOf) == 2 && len(inv.OneOf) == 2 {
		mcp, inv = mcp.OneOf[0], inv.OneOf[0]
	}
	quoted := sh.Quoted
	for sh.Kind == KindPointer {
		sh, rt = sh.Elem, rt.Elem()
	}
	if mcp.Description != "" && inv.Description == "" && !tags.desc {
		mcp.Description = ""
		n.allow("comment description")
	}
	if mcp.Extras != nil && len(mcp.Extras) == 0 {
		mcp.Extras = nil
		if reflect.DeepEqual(mcp, &jsonschema.Schema{}) {
			n.allow("empty schema as {}")
		}
	}
	if mcp.Enum != nil && inv.Enum == nil && !tags.enum && n.hasEnum(sh.Type) {
		mcp.Enum = nil
		n.allow("const enum")
	}
	if quoted && mcp.Pattern == quotedPattern(sh) && inv.Pattern == "" {
		mcp.Pattern = ""
		n.allow("quoted pattern")
	}
	if (sh.Kind == KindInt || sh.Kind == KindUint) && !quoted {
		lo, hi := kindBounds(sh)
		if mcp.Minimum != "" && inv.Minimum == "" && mcp.Minimum == lo {
			mcp.Minimum = ""
			n.allow("integer bounds")
		}
		if mcp.Maximum != "" && inv.Maximum == "" && mcp.Maximum == hi {
			mcp.Maximum = ""
			n.allow("integer bounds")
		}
	}
	if sh.Ref != "" {
		return
	}
	switch sh.Kind {
	case KindUnmarshaler:
		inv.Properties, inv.Required, inv.AdditionalProperties = nil, nil, nil
		inv.Items, inv.MinItems, inv.MaxItems, inv.ContentEncoding = nil, nil, nil, ""
		if !tags.typ {
			inv.Type, mcp.Type = "", ""
		}
		n.allow("own JSON methods")
	case KindStruct:
		for _, f := range sh.Fields {
			if !f.Required && f.Shape.Kind == KindPointer && slices.Contains(inv.Required, f.Name) {
				inv.Required = slices.DeleteFunc(inv.Required, func(s string) bool { return s == f.Name })
				if len(inv.Required) == 0 {
					inv.Required = nil
				}
				n.allow("optional pointer")
			}
			frt, tag := fieldByPath(n.t, rt, f.Path)
			st, it := fieldSiteTags(tag, f.Shape)
			fm, _ := mcp.Properties.Get(f.Name)
			fi, _ := inv.Properties.Get(f.Name)
			n.site(f.Shape, frt, st, it, fm, fi)
		}
	case KindSlice, KindArray:
		n.site(sh.Elem, rt.Elem(), itemTags, siteTags{}, mcp.Items, inv.Items)
	case KindMap:
		n.site(sh.Elem, rt.Elem(), siteTags{}, siteTags{}, mcp.AdditionalProperties, inv.AdditionalProperties)
	}
}

// fieldByPath follows a field path through rt and returns the field's type
// and tag.
func fieldByPath(t *testing.T, rt reflect.Type, path []FieldStep) (reflect.Type, reflect.StructTag) {
	t.Helper()
	var sf reflect.StructField
	for _, step := range path {
		for rt.Kind() == reflect.Pointer {
			rt = rt.Elem()
		}
		var ok bool
		sf, ok = rt.FieldByName(step.Name)
		if !ok {
			t.Fatalf("%s has no field %s", rt, step.Name)
		}
		rt = sf.Type
	}
	return rt, sf.Tag
}

func kindBounds(sh *Shape) (lo, hi json.Number) {
	if sh.Kind == KindUint {
		lo = "0"
		if sh.Bits < 64 {
			hi = json64(int64(1)<<sh.Bits - 1)
		}
		return lo, hi
	}
	if sh.Bits < 64 {
		return json64(-(int64(1) << (sh.Bits - 1))), json64(int64(1)<<(sh.Bits-1) - 1)
	}
	return "", ""
}

// inlineRefs inlines every $ref of s into a copy of its definition, except
// a reference inside the definition it names, which it records in used.
func inlineRefs(s *jsonschema.Schema, defs jsonschema.Definitions, stack []string, used map[string]bool) *jsonschema.Schema {
	if s == nil || s == jsonschema.TrueSchema || s == jsonschema.FalseSchema {
		return s
	}
	if name, ok := strings.CutPrefix(s.Ref, "#/$defs/"); ok {
		if slices.Contains(stack, name) {
			used[name] = true
			c := *s
			return &c
		}
		d := inlineRefs(defs[name], defs, append(slices.Clone(stack), name), used)
		c := *d
		site := *s
		site.Ref = ""
		if site.Description != "" {
			c.Description = site.Description
		}
		if site.Title != "" {
			c.Title = site.Title
		}
		site.Description, site.Title = "", ""
		if b, _ := json.Marshal(&site); string(b) != "true" {
			panic("inlineRefs: unhandled keywords beside $ref: " + string(b))
		}
		return &c
	}
	c := *s
	if s.Properties != nil {
		c.Properties = jsonschema.NewProperties()
		for p := s.Properties.Oldest(); p != nil; p = p.Next() {
			c.Properties.Set(p.Key, inlineRefs(p.Value, defs, stack, used))
		}
	}
	c.Items = inlineRefs(s.Items, defs, stack, used)
	c.AdditionalProperties = inlineRefs(s.AdditionalProperties, defs, stack, used)
	c.OneOf = nil
	for _, o := range s.OneOf {
		c.OneOf = append(c.OneOf, inlineRefs(o, defs, stack, used))
	}
	return &c
}

// reflectInvopop returns invopop's schema of rt, configured as mcpgen
// emits: no $schema or $id, the root expanded, definitions inlined; the
// recursive definitions named in defs kept in $defs.
func reflectInvopop(rt reflect.Type, recursive bool) *jsonschema.Schema {
	if !recursive {
		r := &jsonschema.Reflector{Anonymous: true, DoNotReference: true, ExpandedStruct: true}
		s := r.ReflectFromType(rt)
		s.Version = ""
		return s
	}
	// DoNotReference recurses forever on a recursive type, so reflect with
	// $defs and inline every $ref that is not inside its own definition.
	r := &jsonschema.Reflector{Anonymous: true}
	s := r.ReflectFromType(rt)
	defs := s.Definitions
	s.Version, s.Definitions = "", nil
	used := map[string]bool{}
	root := inlineRefs(s, defs, nil, used)
	out := jsonschema.Definitions{}
	for len(used) > len(out) {
		for _, name := range sortedKeys(used) {
			if _, ok := out[name]; !ok {
				out[name] = inlineRefs(defs[name], defs, []string{name}, used)
			}
		}
	}
	if len(out) > 0 {
		root.Definitions = out
	}
	return root
}

// hasConstEnum reports whether t is a named type that gets an enum from
// constants.
func hasConstEnum(b *schemaBuilder) func(types.Type) bool {
	return func(t types.Type) bool {
		n, ok := types.Unalias(t).(*types.Named)
		return ok && len(b.constEnum(n)) > 0
	}
}

func TestSchemaMatchesInvopop(t *testing.T) {
	used := map[string]int{}
	for _, c := range invopopCases {
		name := c.typ.Name()
		t.Run(name, func(t *testing.T) {
			b, lookup := newTestBuilder(t)
			sh, mcp := buildOK(t, b, lookup, name)
			inv := reflectInvopop(c.typ, len(c.defs) > 0)

			var gotDefs []string
			for k := range mcp.Definitions {
				gotDefs = append(gotDefs, k)
			}
			slices.Sort(gotDefs)
			var wantDefs []string
			for k := range c.defs {
				wantDefs = append(wantDefs, k)
			}
			slices.Sort(wantDefs)
			if !slices.Equal(gotDefs, wantDefs) {
				t.Fatalf("$defs = %v, want %v", gotDefs, wantDefs)
			}

			n := &normalizer{t: t, used: used, hasEnum: hasConstEnum(b), typeName: name}
			n.site(sh, c.typ, siteTags{}, siteTags{}, mcp, inv)
			for def, drt := range c.defs {
				n.site(b.defs[def], drt, siteTags{}, siteTags{}, mcp.Definitions[def], inv.Definitions[def])
			}
			got, want := mustJSON(t, mcp), mustJSON(t, inv)
			if got != want {
				t.Errorf("normalized schema of %s differs from invopop's\nmcpgen:  %s\ninvopop: %s", name, indentJSON(got), indentJSON(want))
			}
		})
	}
	if t.Failed() {
		return
	}
	for name := range allowedDifferences {
		if used[name] == 0 {
			t.Errorf("allowed difference %q never applied: remove it or cover it", name)
		}
	}
}

// TestInvopopCasesCoverSchematypes checks that every struct type of
// schematypes is compared with invopop or listed with a reason.
func TestInvopopCasesCoverSchematypes(t *testing.T) {
	_, _, pkgs := loadTestPackages(t)
	compared := map[string]bool{}
	for _, c := range invopopCases {
		compared[c.typ.Name()] = true
	}
	scope := pkgs[schematypesPath].Types.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || !tn.Exported() || !isStruct(tn.Type()) {
			continue
		}
		_, listed := notComparedWithInvopop[name]
		if compared[name] == listed {
			t.Errorf("%s: compared=%v, listed as not compared=%v; want exactly one", name, compared[name], listed)
		}
	}
}

// fill sets every settable field of v to a non-zero value.
func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() && v.CanSet() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		if !v.IsNil() {
			fill(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i))
		}
	case reflect.Slice:
		if v.CanSet() {
			v.Set(reflect.MakeSlice(v.Type(), 1, 1))
			fill(v.Index(0))
		}
	case reflect.String:
		if v.CanSet() {
			v.SetString("x")
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if v.CanSet() {
			v.SetInt(1)
		}
	case reflect.Bool:
		if v.CanSet() {
			v.SetBool(true)
		}
	}
}

// jsonKeys returns the keys of a JSON object in order.
func jsonKeys(t *testing.T, data []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", data)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// TestPropertiesMatchEncodingJSON compares the property names and order of
// structs with embedded fields and unusual names with the keys
// encoding/json writes for a fully set value.
func TestPropertiesMatchEncodingJSON(t *testing.T) {
	tests := []struct {
		typ  reflect.Type
		want []string // the keys, as a check on the oracle itself
	}{
		{reflect.TypeFor[schematypes.Conflicts](), []string{"z", "Y", "W"}},
		{reflect.TypeFor[schematypes.Diamond](), []string{"L", "R", "Own"}},
		{reflect.TypeFor[schematypes.Shadow](), []string{"id", "created"}},
		{reflect.TypeFor[schematypes.JSONNames](), []string{"-", "Invalid", "with space"}},
		{reflect.TypeFor[schematypes.Embedding](), []string{"id", "created", "labels", "Note", "depth", "shown", "name", "point", "Tags"}},
	}
	for _, tt := range tests {
		t.Run(tt.typ.Name(), func(t *testing.T) {
			v := reflect.New(tt.typ)
			fill(v)
			data, err := json.Marshal(v.Interface())
			if err != nil {
				t.Fatal(err)
			}
			keys := jsonKeys(t, data)
			if !slices.Equal(keys, tt.want) {
				t.Fatalf("encoding/json keys = %q, want %q", keys, tt.want)
			}
			b, lookup := newTestBuilder(t)
			sh, s := buildOK(t, b, lookup, tt.typ.Name())
			var names, props []string
			for _, f := range sh.Fields {
				names = append(names, f.Name)
			}
			for p := s.Properties.Oldest(); p != nil; p = p.Next() {
				props = append(props, p.Key)
			}
			if !slices.Equal(names, keys) || !slices.Equal(props, keys) {
				t.Errorf("fields %q, properties %q; encoding/json writes %q", names, props, keys)
			}
		})
	}
}

// testDump writes a shape tree with every model field the emitter uses.
func testDump(sh *Shape) string {
	var sb strings.Builder
	var dump func(sh *Shape, indent string)
	dump = func(sh *Shape, indent string) {
		fmt.Fprintf(&sb, "%s %s", sh.Kind, types.TypeString(sh.Type, func(p *types.Package) string { return p.Name() }))
		if sh.Bits != 0 {
			fmt.Fprintf(&sb, " bits=%d", sh.Bits)
		}
		if sh.Kind == KindArray {
			fmt.Fprintf(&sb, " len=%d", sh.Len)
		}
		if sh.Ref != "" {
			fmt.Fprintf(&sb, " ref=%s", sh.Ref)
		}
		sb.WriteString("\n")
		for _, f := range sh.Fields {
			var steps []string
			for _, s := range f.Path {
				step := s.Name
				if s.Ptr {
					step = "(" + types.TypeString(s.Type, func(p *types.Package) string { return p.Name() }) + ")" + step
				}
				steps = append(steps, step)
			}
			req := ""
			if f.Required {
				req = " required"
			}
			fmt.Fprintf(&sb, "%s  %s <- %s%s: ", indent, f.Name, strings.Join(steps, "."), req)
			dump(f.Shape, indent+"    ")
		}
		if sh.Elem != nil {
			fmt.Fprintf(&sb, "%s  elem: ", indent)
			dump(sh.Elem, indent+"    ")
		}
	}
	dump(sh, "")
	return sb.String()
}

func TestShapes(t *testing.T) {
	tests := []struct {
		name string
		want string
	}{
		{"Embedding", `
struct schematypes.Embedding
  id <- Base.ID required: string string
  created <- Base.Created required: time time.Time
  labels <- (*schematypes.Meta)Meta.Labels: slice []string
      elem: string string
  Note <- (*schematypes.Meta)Meta.Note required: string string
  depth <- (*schematypes.Meta)Meta.(*schematypes.Deep)Deep.Depth required: int int bits=64
  shown <- hidden.Shown required: int int bits=64
  name <- Name required: string string
  point <- Point required: struct schematypes.Point
      x <- X required: int int bits=64
      y <- Y required: int int bits=64
  Tags <- Tags required: slice schematypes.Tags
      elem: string string
`},
		{"Optional", `
struct schematypes.Optional
  plain <- Plain required: string string
  ptr <- Ptr: pointer *string
      elem: string string
  ptrOmit <- PtrOmit: pointer *int
      elem: int int bits=64
  omit <- Omit: string string
  zero <- Zero: int int bits=64
  ptrPtr <- PtrPtr: pointer **bool
      elem: pointer *bool
          elem: bool bool
  ptrReq <- PtrReq required: pointer *string
      elem: string string
  omitReq <- OmitReq required: string string
  NoTag <- NoTag required: string string
  OnlyOpts <- OnlyOpts: string string
`},
		{"Scalars", `
struct schematypes.Scalars
  bool <- Bool required: bool bool
  int <- Int required: int int bits=64
  int8 <- Int8 required: int int8 bits=8
  int16 <- Int16 required: int int16 bits=16
  int32 <- Int32 required: int int32 bits=32
  int64 <- Int64 required: int int64 bits=64
  uint <- Uint required: uint uint bits=64
  uint8 <- Uint8 required: uint uint8 bits=8
  uint16 <- Uint16 required: uint uint16 bits=16
  uint32 <- Uint32 required: uint uint32 bits=32
  uint64 <- Uint64 required: uint uint64 bits=64
  byte <- Byte required: uint byte bits=8
  rune <- Rune required: int rune bits=32
  float32 <- Float32 required: float float32 bits=32
  float64 <- Float64 required: float float64 bits=64
  string <- String required: string string
  celsius <- Celsius required: float schematypes.Celsius bits=64
`},
		{"Collections", `
struct schematypes.Collections
  strings <- Strings required: slice []string
      elem: string string
  arr <- Arr required: array [4]int len=4
      elem: int int bits=64
  byteArr <- ByteArr required: array [2]byte len=2
      elem: uint byte bits=8
  bytes <- Bytes required: bytes []byte
  blob <- Blob required: bytes schematypes.Blob
  map <- Map required: map map[string]int
      elem: int int bits=64
  keyMap <- KeyMap required: map map[schematypes.Key]string
      elem: string string
  anyMap <- AnyMap required: map map[string]any
      elem: any any
  pointMap <- PointMap required: map map[string]schematypes.Point
      elem: struct schematypes.Point
          x <- X required: int int bits=64
          y <- Y required: int int bits=64
  sliceMap <- SliceMap required: map map[string][]string
      elem: slice []string
          elem: string string
  rawMap <- RawMap required: map map[string]json.RawMessage
      elem: rawmessage json.RawMessage
  raw <- Raw required: rawmessage json.RawMessage
  any <- Any required: any any
  stringer <- Stringer required: any fmt.Stringer
  when <- When required: time time.Time
  whenPtr <- WhenPtr: pointer *time.Time
      elem: time time.Time
  matrix <- Matrix required: slice [][]int
      elem: slice []int
          elem: int int bits=64
  points <- Points required: slice []schematypes.Point
      elem: struct schematypes.Point
          x <- X required: int int bits=64
          y <- Y required: int int bits=64
  ptrPoints <- PtrPoints required: slice []*schematypes.Point
      elem: pointer *schematypes.Point
          elem: struct schematypes.Point
              x <- X required: int int bits=64
              y <- Y required: int int bits=64
  tags <- Tags required: slice schematypes.Tags
      elem: string string
  anon <- Anon required: struct struct{A string "json:\"a\""; B *int "json:\"b,omitempty\""}
      a <- A required: string string
      b <- B: pointer *int
          elem: int int bits=64
`},
		{"Marshalers", `
struct schematypes.Marshalers
  v <- V required: unmarshaler schematypes.Version
  typed <- Typed required: unmarshaler schematypes.Version
  ptr <- Ptr: pointer *schematypes.Version
      elem: unmarshaler schematypes.Version
  stamp <- Stamp required: unmarshaler schematypes.Stamp
  hex <- Hex required: unmarshaler schematypes.Hex
  versions <- Versions required: slice []schematypes.Version
      elem: unmarshaler schematypes.Version
  stamped <- Stamped required: unmarshaler schematypes.Stamped
  oneOf <- OneOf required: any any
  titled <- Titled required: unmarshaler schematypes.Version
`},
		{"Forest", `
struct schematypes.Forest
  trees <- Trees required: slice []schematypes.Tree
      elem: struct schematypes.Tree
          value <- Value required: string string
          children <- Children: slice []schematypes.Tree
              elem: struct schematypes.Tree ref=Tree
          parent <- Parent: pointer *schematypes.Tree
              elem: struct schematypes.Tree ref=Tree
  best <- Best: pointer *schematypes.Tree
      elem: struct schematypes.Tree
          value <- Value required: string string
          children <- Children: slice []schematypes.Tree
              elem: struct schematypes.Tree ref=Tree
          parent <- Parent: pointer *schematypes.Tree
              elem: struct schematypes.Tree ref=Tree
`},
		{"Dept", `
struct schematypes.Dept
  name <- Name required: string string
  staff <- Staff required: slice []schematypes.Person
      elem: struct schematypes.Person
          name <- Name required: string string
          dept <- Dept: pointer *schematypes.Dept
              elem: struct schematypes.Dept ref=Dept
          manager <- Manager: pointer *schematypes.Person
              elem: struct schematypes.Person ref=Person
`},
		{"Chain", `
struct schematypes.Chain
  links <- Links required: slice schematypes.Links
      elem: struct schematypes.Chain ref=Chain
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, lookup := newTestBuilder(t)
			sh, _ := buildOK(t, b, lookup, tt.name)
			if got, want := testDump(sh), strings.TrimPrefix(tt.want, "\n"); got != want {
				t.Errorf("shape of %s:\n%s\nwant:\n%s", tt.name, got, want)
			}
		})
	}
}

// TestShapeSchemasAreSites checks that each Shape's Schema is the schema
// object at its place in the root schema.
func TestShapeSchemasAreSites(t *testing.T) {
	for _, c := range invopopCases {
		name := c.typ.Name()
		b, lookup := newTestBuilder(t)
		sh, root := buildOK(t, b, lookup, name)
		if sh.Schema != root {
			t.Errorf("%s: root shape's schema is not the root schema", name)
		}
		var check func(path string, sh *Shape)
		check = func(path string, sh *Shape) {
			if sh.Kind == KindPointer && sh.Schema != sh.Elem.Schema {
				t.Errorf("%s: pointer schema differs from its element's", path)
			}
			for sh.Kind == KindPointer {
				sh = sh.Elem
			}
			switch sh.Kind {
			case KindStruct:
				for _, f := range sh.Fields {
					if p, _ := sh.Schema.Properties.Get(f.Name); p != f.Shape.Schema {
						t.Errorf("%s.%s: field shape's schema is not the property schema", path, f.Name)
					}
					if len(f.Shape.Schema.OneOf) == 0 {
						check(path+"."+f.Name, f.Shape)
					}
				}
			case KindSlice, KindArray:
				if sh.Schema.Items != sh.Elem.Schema {
					t.Errorf("%s: element schema is not items", path)
				}
				check(path+"[]", sh.Elem)
			case KindMap:
				if ap := sh.Schema.AdditionalProperties; ap != nil && ap != sh.Elem.Schema {
					t.Errorf("%s: element schema is not additionalProperties", path)
				}
				check(path+"[key]", sh.Elem)
			}
		}
		check(name, sh)
		for def, ds := range b.defs {
			if ds.Ref != "" || ds.Kind != KindStruct || len(ds.Fields) == 0 {
				t.Errorf("def %s: want a struct definition with fields, got %s ref=%q", def, ds.Kind, ds.Ref)
			}
			if root.Definitions[def] != nil && root.Definitions[def] != ds.Schema {
				t.Errorf("def %s: $defs schema is not the definition shape's schema", def)
			}
		}
	}
}

// TestSchemaGolden checks mcpgen's own additions exactly: descriptions from
// comments, enums from constants, integer bounds, $defs and $ref.
func TestSchemaGolden(t *testing.T) {
	tests := []struct {
		name string
		want string
	}{
		{"Scalars", `{"properties":{` +
			`"bool":{"type":"boolean"},` +
			`"int":{"type":"integer"},` +
			`"int8":{"type":"integer","maximum":127,"minimum":-128},` +
			`"int16":{"type":"integer","maximum":32767,"minimum":-32768},` +
			`"int32":{"type":"integer","maximum":2147483647,"minimum":-2147483648},` +
			`"int64":{"type":"integer"},` +
			`"uint":{"type":"integer","minimum":0},` +
			`"uint8":{"type":"integer","maximum":255,"minimum":0},` +
			`"uint16":{"type":"integer","maximum":65535,"minimum":0},` +
			`"uint32":{"type":"integer","maximum":4294967295,"minimum":0},` +
			`"uint64":{"type":"integer","minimum":0},` +
			`"byte":{"type":"integer","maximum":255,"minimum":0},` +
			`"rune":{"type":"integer","maximum":2147483647,"minimum":-2147483648},` +
			`"float32":{"type":"number"},` +
			`"float64":{"type":"number"},` +
			`"string":{"type":"string"},` +
			`"celsius":{"type":"number","description":"A temperature."}},` +
			`"additionalProperties":false,"type":"object",` +
			`"required":["bool","int","int8","int16","int32","int64","uint","uint8","uint16","uint32","uint64","byte","rune","float32","float64","string","celsius"],` +
			`"description":"Scalars has a field of every scalar kind."}`},
		{"Uintptrs", `{"properties":{"p":{"type":"integer","minimum":0}},"additionalProperties":false,"type":"object","required":["p"],` +
			`"description":"Uintptrs has a uintptr, which invopop cannot reflect."}`},
		{"Enums", `{"properties":{` +
			`"color":{"type":"string","enum":["red","green","blue"],"description":"A color."},` +
			`"colors":{"items":{"type":"string","enum":["red","green","blue"],"description":"A color."},"type":"array"},` +
			`"colorMap":{"additionalProperties":{"type":"string","enum":["red","green","blue"],"description":"A color."},"type":"object"},` +
			`"priority":{"type":"integer","enum":[10,1,5],"description":"A priority.\n\n10 (Urgent), 1 (Low), 5 (Normal)"},` +
			`"level":{"type":"integer","enum":[0,1],"maximum":255,"minimum":0,"description":"A small unsigned level.\n\n0 (LevelOff), 1 (LevelOn)"},` +
			`"tagged":{"type":"string","enum":["red","green"],"description":"A color."},` +
			`"ptrColor":{"type":"string","enum":["red","green","blue"],"description":"A color."},` +
			`"plain":{"type":"string","description":"A named string without constants."},` +
			`"size":{"type":"string","enum":["s","l","m"],"description":"A size class."}},` +
			`"additionalProperties":false,"type":"object",` +
			`"required":["color","colors","colorMap","priority","level","tagged","plain","size"],` +
			`"description":"Covers enums from constants."}`},
		{"Documented", `{"properties":{` +
			`"doc":{"type":"string","description":"A doc comment."},` +
			`"line":{"type":"string","description":"A line comment."},` +
			`"both":{"type":"string","description":"Both has a doc comment."},` +
			`"tagged":{"type":"string","description":"from the tag"},` +
			`"taggedDesc":{"type":"string","description":"from the desc tag"},` +
			`"color":{"type":"string","enum":["red","green","blue"],"description":"A color."},` +
			`"commented":{"type":"string","enum":["red","green","blue"],"description":"Wins over the type's doc."},` +
			`"nested":{"properties":{"x":{"type":"integer"},"y":{"type":"integer"}},"additionalProperties":false,"type":"object","required":["x","y"],"description":"A point in the plane."},` +
			`"thing":{"properties":{` +
			`"label":{"type":"string","description":"Names the thing."},` +
			`"size":{"type":"string","enum":["s","l","m"],"description":"Measured in units."}},` +
			`"additionalProperties":false,"type":"object","required":["label","size"],"description":"A thing from another package."},` +
			`"First":{"type":"string","description":"Shared by two names."},` +
			`"Second":{"type":"string","description":"Shared by two names."},` +
			`"anon":{"properties":{"inner":{"type":"string","description":"In an anonymous struct."}},"additionalProperties":false,"type":"object","required":["inner"]},` +
			`"items":{"items":{"properties":{"x":{"type":"integer"},"y":{"type":"integer"}},"additionalProperties":false,"type":"object","required":["x","y"],"description":"A point in the plane."},"type":"array"}},` +
			`"additionalProperties":false,"type":"object",` +
			`"required":["doc","line","both","tagged","taggedDesc","color","commented","nested","thing","First","Second","anon","items"],` +
			`"description":"Documented.\n\nIt has two paragraphs."}`},
		{"Tree", `{"$defs":{"Tree":{"properties":{"value":{"type":"string"},"children":{"items":{"$ref":"#/$defs/Tree"},"type":"array"},"parent":{"$ref":"#/$defs/Tree"}},` +
			`"additionalProperties":false,"type":"object","required":["value"],"description":"A tree node."}},` +
			`"properties":{"value":{"type":"string"},"children":{"items":{"$ref":"#/$defs/Tree"},"type":"array"},"parent":{"$ref":"#/$defs/Tree"}},` +
			`"additionalProperties":false,"type":"object","required":["value"],"description":"A tree node."}`},
		{"Forest", `{"$defs":{"Tree":{"properties":{"value":{"type":"string"},"children":{"items":{"$ref":"#/$defs/Tree"},"type":"array"},"parent":{"$ref":"#/$defs/Tree"}},` +
			`"additionalProperties":false,"type":"object","required":["value"],"description":"A tree node."}},` +
			`"properties":{` +
			`"trees":{"items":{"properties":{"value":{"type":"string"},"children":{"items":{"$ref":"#/$defs/Tree"},"type":"array"},"parent":{"$ref":"#/$defs/Tree"}},` +
			`"additionalProperties":false,"type":"object","required":["value"],"description":"A tree node."},"type":"array"},` +
			`"best":{"properties":{"value":{"type":"string"},"children":{"items":{"$ref":"#/$defs/Tree"},"type":"array"},"parent":{"$ref":"#/$defs/Tree"}},` +
			`"additionalProperties":false,"type":"object","required":["value"],"description":"The best tree."}},` +
			`"additionalProperties":false,"type":"object","required":["trees"],"description":"Holds trees without being recursive itself."}`},
		{"Chain", `{"$defs":{"Chain":{"properties":{"links":{"items":{"$ref":"#/$defs/Chain"},"type":"array","description":"A list of chains."}},` +
			`"additionalProperties":false,"type":"object","required":["links"],"description":"Recurses through a named slice type."}},` +
			`"properties":{"links":{"items":{"$ref":"#/$defs/Chain"},"type":"array","description":"A list of chains."}},` +
			`"additionalProperties":false,"type":"object","required":["links"],"description":"Recurses through a named slice type."}`},
		{"Pages", `{"$defs":{` +
			`"Page_schematypes_Point":{"properties":{"items":{"items":{"properties":{"x":{"type":"integer"},"y":{"type":"integer"}},"additionalProperties":false,"type":"object","required":["x","y"],"description":"A point in the plane."},"type":"array"},"next":{"$ref":"#/$defs/Page_schematypes_Point"}},"additionalProperties":false,"type":"object","required":["items"],"description":"A generic recursive type."},` +
			`"Page_string":{"properties":{"items":{"items":{"type":"string"},"type":"array"},"next":{"$ref":"#/$defs/Page_string"}},"additionalProperties":false,"type":"object","required":["items"],"description":"A generic recursive type."}},` +
			`"properties":{` +
			`"strings":{"properties":{"items":{"items":{"type":"string"},"type":"array"},"next":{"$ref":"#/$defs/Page_string"}},"additionalProperties":false,"type":"object","required":["items"],"description":"A generic recursive type."},` +
			`"points":{"properties":{"items":{"items":{"properties":{"x":{"type":"integer"},"y":{"type":"integer"}},"additionalProperties":false,"type":"object","required":["x","y"],"description":"A point in the plane."},"type":"array"},"next":{"$ref":"#/$defs/Page_schematypes_Point"}},"additionalProperties":false,"type":"object","required":["items"],"description":"A generic recursive type."}},` +
			`"additionalProperties":false,"type":"object","required":["strings","points"],"description":"Instantiates Page twice."}`},
		{"Marshalers", `{"properties":{` +
			`"v":{"description":"A version, encoded as \"major.minor\"."},` +
			`"typed":{"type":"string","pattern":"^\\d+\\.\\d+$","description":"A version, encoded as \"major.minor\"."},` +
			`"ptr":{"description":"A version, encoded as \"major.minor\"."},` +
			`"stamp":{"description":"Decoded by its own method only."},` +
			`"hex":{"type":"string","description":"An integer written as hexadecimal text."},` +
			`"versions":{"items":{"description":"A version, encoded as \"major.minor\"."},"type":"array"},` +
			`"stamped":{"description":"Embeds a type with JSON methods, so it has them too."},` +
			`"oneOf":{"oneOf":[{"type":"string"},{"type":"integer"}]},` +
			`"titled":{"title":"V","description":"a version"}},` +
			`"additionalProperties":false,"type":"object","required":["v","typed","stamp","hex","versions","stamped","oneOf","titled"],` +
			`"description":"Covers types with their own JSON or text methods."}`},
		{"StringTags", `{"anyOf":[{"required":["other"],"title":"x"}],"oneOf":[{"required":["flagged"],"title":"one"},{"required":["other"],"title":"two"}],"properties":{` +
			`"name":{"type":"string","maxLength":20,"minLength":1,"pattern":"^[a-z]+$","format":"hostname","title":"Name","description":"The name","default":"bob","examples":["alice","carol"]},` +
			`"code":{"type":"string","pattern":"^[A-Z]{3,20}$"},` +
			`"choice":{"type":"string","enum":["a","b","c"]},` +
			`"ro":{"type":"string","readOnly":true},` +
			`"wo":{"type":"string","writeOnly":true},` +
			`"desc":{"type":"string","description":"From jsonschema_description"},` +
			`"both":{"type":"string","description":"The tag key wins"},` +
			`"extras":{"type":"string","a":["1","2","3"],"b":true,"c":"x,y","d":false},` +
			`"eq":{"type":"string","pattern":"^a=b$"},` +
			`"nullable":{"oneOf":[{"type":"string","minLength":2},{"type":"null"}]},` +
			`"anchor":{"$anchor":"here","type":"string"},` +
			`"optReq":{"type":"string","maxLength":2},` +
			`"email":{"type":"string","format":"email","examples":["a@b.c"]},` +
			`"flagged":{"type":"string"},` +
			`"other":{"type":"string"},` +
			`"sentence":{"type":"string","default":"a, b and c"}},` +
			`"additionalProperties":false,"type":"object",` +
			`"required":["name","code","choice","ro","wo","desc","both","extras","eq","nullable","anchor","optReq","flagged","other","sentence"],` +
			`"description":"Covers the jsonschema keys of string fields."}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, lookup := newTestBuilder(t)
			_, s := buildOK(t, b, lookup, tt.name)
			if got := mustJSON(t, s); got != tt.want {
				t.Errorf("schema of %s:\n got: %s\nwant: %s", tt.name, indentJSON(got), indentJSON(tt.want))
			}
		})
	}
}

// TestDefsAcrossBuilds checks that definitions and their names are shared
// by the builds of one builder, and that colliding names are numbered.
func TestDefsAcrossBuilds(t *testing.T) {
	b, lookup := newTestBuilder(t)
	buildOK(t, b, lookup, "Forest")
	_, tree := buildOK(t, b, lookup, "Tree")
	if tree.Definitions["Tree"] != b.defs["Tree"].Schema {
		t.Errorf("second build does not share the Tree definition")
	}
	if got := b.defs["Tree"].Fields[1].Shape.Elem.Ref; got != "Tree" {
		t.Errorf("Tree definition: children items ref = %q, want Tree", got)
	}

	// A second type named Tree takes the next name.
	other := types.NewNamed(types.NewTypeName(token.NoPos, types.NewPackage("example.com/other", "other"), "Tree", nil), nil, nil)
	field := types.NewField(token.NoPos, other.Obj().Pkg(), "Kids", types.NewSlice(other), false)
	other.SetUnderlying(types.NewStruct([]*types.Var{field}, []string{`json:"kids"`}))
	sh, s, diags := b.build(other, token.NoPos)
	if len(diags) > 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	if got := sh.Fields[0].Shape.Elem.Ref; got != "Tree2" {
		t.Errorf("ref of the other Tree = %q, want Tree2", got)
	}
	if got := mustJSON(t, s); got != `{"$defs":{"Tree2":{"properties":{"kids":{"items":{"$ref":"#/$defs/Tree2"},"type":"array"}},"additionalProperties":false,"type":"object","required":["kids"]}},"properties":{"kids":{"items":{"$ref":"#/$defs/Tree2"},"type":"array"}},"additionalProperties":false,"type":"object","required":["kids"]}` {
		t.Errorf("schema of the other Tree: %s", got)
	}
	if !slices.Equal(b.defOrder, []string{"Tree", "Tree2"}) {
		t.Errorf("defOrder = %v", b.defOrder)
	}
}

// TestCommentsFromExportData checks that ext, loaded from export data
// only, had its comments read by parsing its file.
func TestCommentsFromExportData(t *testing.T) {
	b, lookup := newTestBuilder(t)
	for name := range b.syntax {
		if strings.Contains(name, "/schematypes/ext/") {
			t.Fatalf("ext was loaded with syntax (%s): the test does not cover parsing on demand", name)
		}
	}
	thing := lookup(schematypesPath, "Documented").Underlying().(*types.Struct)
	var extType types.Type
	for f := range thing.Fields() {
		if f.Name() == "Thing" {
			extType = f.Type()
		}
	}
	sh, s, diags := b.build(extType, token.NoPos)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	want := `{"properties":{"label":{"type":"string","description":"Names the thing."},"size":{"type":"string","enum":["s","l","m"],"description":"Measured in units."}},"additionalProperties":false,"type":"object","required":["label","size"],"description":"A thing from another package."}`
	if got := mustJSON(t, s); got != want {
		t.Errorf("ext.Thing:\n got %s\nwant %s", got, want)
	}
	if n := types.TypeString(sh.Type, nil); n != extPath+".Thing" {
		t.Errorf("shape type = %s", n)
	}

	// The standard library's type docs are written for Go programmers, not
	// for a model: they do not become descriptions.
	_, s = buildOK(t, b, lookup, "Collections")
	stringer, _ := s.Properties.Get("stringer")
	if stringer.Description != "" {
		t.Errorf("description of fmt.Stringer = %q, want none", stringer.Description)
	}
}

// wantDiag is a diagnostic expected by a "want:" comment.
type wantDiag struct {
	pos token.Position
	sub string
}

// wantDiags reads the "want:" comments of the bad package: each names the
// field on its line, which every expected diagnostic must point at.
func wantDiags(t *testing.T, fset *token.FileSet, pkg *packages.Package) []wantDiag {
	t.Helper()
	var wants []wantDiag
	for _, f := range pkg.Syntax {
		filename := fset.File(f.Pos()).Name()
		fieldCol := map[int]int{}
		ast.Inspect(f, func(n ast.Node) bool {
			if fl, ok := n.(*ast.Field); ok {
				id := embeddedIdent(fl.Type)
				if len(fl.Names) > 0 {
					id = fl.Names[0]
				}
				p := fset.Position(id.Pos())
				if _, ok := fieldCol[p.Line]; !ok {
					fieldCol[p.Line] = p.Column
				}
			}
			return true
		})
		data, err := os.ReadFile(filename)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		for line := 1; sc.Scan(); line++ {
			_, want, ok := strings.Cut(sc.Text(), "// want: ")
			if !ok {
				continue
			}
			col, ok := fieldCol[line]
			if !ok {
				t.Fatalf("%s:%d: want comment on a line without a field", filename, line)
			}
			for _, sub := range strings.Split(want, " | ") {
				wants = append(wants, wantDiag{token.Position{Filename: filename, Line: line, Column: col}, sub})
			}
		}
	}
	return wants
}

func TestDiagnostics(t *testing.T) {
	b, lookup := newTestBuilder(t)
	fset, _, pkgs := loadTestPackages(t)
	_, _, diags := b.buildInput(lookup(badPath, "Bad"), token.NoPos)
	wants := wantDiags(t, fset, pkgs[badPath])
	if len(wants) < 30 {
		t.Fatalf("only %d wanted diagnostics found: the want comments were not read", len(wants))
	}
	matched := make([]bool, len(diags))
	for _, w := range wants {
		found := false
		for i, d := range diags {
			if !matched[i] && d.Pos.Filename == w.pos.Filename && d.Pos.Line == w.pos.Line && d.Pos.Column == w.pos.Column && strings.Contains(d.Msg, w.sub) {
				matched[i], found = true, true
				break
			}
		}
		if !found {
			t.Errorf("%s: no diagnostic containing %q", w.pos, w.sub)
		}
	}
	for i, d := range diags {
		if !matched[i] {
			t.Errorf("unexpected diagnostic %s", d)
		}
	}

	// A type that is unsupported as a whole is reported at the given position.
	bad := pkgs[badPath]
	pos := bad.Syntax[0].Name.Pos()
	_, _, diags = b.build(types.NewChan(types.SendRecv, types.Typ[types.Int]), pos)
	if len(diags) != 1 || diags[0].Pos != fset.Position(pos) || !strings.Contains(diags[0].Msg, "unsupported type chan int") {
		t.Errorf("diagnostics for chan int = %v", diags)
	}
}

// TestTagProblems checks tag items in isolation, where the field-level test
// cannot tell which item produced a message.
func TestTagProblems(t *testing.T) {
	str := &Shape{Kind: KindString, Type: types.Typ[types.String]}
	num := &Shape{Kind: KindInt, Type: types.Typ[types.Int], Bits: 64}
	strs := &Shape{Kind: KindSlice, Type: types.NewSlice(types.Typ[types.String]), Elem: str}
	tests := []struct {
		tag    string
		shape  *Shape
		schema func() *jsonschema.Schema
		want   []string // substrings, one per problem
		json   string   // the schema after the tags
	}{
		{`jsonschema:"minLength=1,maxLength=2"`, str, strSchema, nil, `{"type":"string","maxLength":2,"minLength":1}`},
		{`jsonschema:"minLength=x"`, str, strSchema, []string{`"minLength=x": not a non-negative integer`}, `{"type":"string"}`},
		{`jsonschema:"required,nullable,,"`, str, strSchema, nil, `{"type":"string"}`},
		{`jsonschema:"-,minLength=1"`, str, strSchema, nil, `{"type":"string","minLength":1}`},
		{`jsonschema:"x,-"`, str, strSchema, []string{`"x": unknown flag`, `"-": unknown flag`}, `{"type":"string"}`},
		{`jsonschema:"pattern=a\\,b"`, str, strSchema, nil, `{"type":"string","pattern":"a,b"}`},
		{`jsonschema:"enum=1.0,enum=-2,enum=3e2"`, num, numSchema, nil, `{"type":"integer","enum":[1.0,-2,3e2]}`},
		{`jsonschema:"minimum=0x10,maximum=.5,multipleOf=Inf"`, num, numSchema, []string{`"minimum=0x10"`, `"maximum=.5"`, `"multipleOf=Inf"`}, `{"type":"integer"}`},
		{`jsonschema:"uniqueItems"`, strs, strsSchema, []string{`"uniqueItems": unknown flag`}, `{"items":{"type":"string"},"type":"array"}`},
		{`jsonschema:"uniqueItems=true,enum=a"`, strs, strsSchema, nil, `{"items":{"type":"string","enum":["a"]},"type":"array","uniqueItems":true}`},
		{`jsonschema:"type=string"`, str, strSchema, []string{`changes the JSON type`}, `{"type":"string"}`},
		{`jsonschema:"oneof_ref=#/a;#/b"`, strs, strsSchema, []string{`changes the JSON type`}, `{"items":{"type":"string"},"type":"array"}`},
		{`jsonschema_extras:"x=1,x=2,y=true,y=t"`, str, strSchema, nil, `{"type":"string","x":["1","2"],"y":true}`},
		{`jsonschema_extras:"type=number"`, str, strSchema, []string{`key "type" duplicates`}, `{"type":"string","type":"number"}`},
	}
	for _, tt := range tests {
		t.Run(tt.tag, func(t *testing.T) {
			s := tt.schema()
			if tt.shape == strs {
				tt.shape = &Shape{Kind: KindSlice, Type: strs.Type, Elem: &Shape{Kind: KindString, Type: str.Type, Schema: s.Items}, Schema: s}
			}
			var a tagApplier
			a.apply(s, tt.shape, &jsonschema.Schema{}, "p", reflect.StructTag(tt.tag))
			if len(a.problems) != len(tt.want) {
				t.Fatalf("problems = %q, want %d matching %q", a.problems, len(tt.want), tt.want)
			}
			for i, w := range tt.want {
				if !strings.Contains(a.problems[i], w) {
					t.Errorf("problem %d = %q, want it to contain %q", i, a.problems[i], w)
				}
			}
			if got := mustJSON(t, s); got != tt.json {
				t.Errorf("schema = %s, want %s", got, tt.json)
			}
		})
	}
}

func strSchema() *jsonschema.Schema { return &jsonschema.Schema{Type: "string"} }
func numSchema() *jsonschema.Schema { return &jsonschema.Schema{Type: "integer"} }
func strsSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "string"}}
}

// TestDeterministic builds every test type with fresh builders and expects
// byte-identical schemas and diagnostics.
func TestDeterministic(t *testing.T) {
	_, _, pkgs := loadTestPackages(t)
	var names []string
	scope := pkgs[schematypesPath].Types.Scope()
	for _, name := range scope.Names() {
		if tn, ok := scope.Lookup(name).(*types.TypeName); ok && isStruct(tn.Type()) {
			names = append(names, name)
		}
	}
	render := func() string {
		b, lookup := newTestBuilder(t)
		var sb strings.Builder
		for _, name := range names {
			_, s, diags := b.build(lookup(schematypesPath, name), token.NoPos)
			fmt.Fprintf(&sb, "%s %s %v\n", name, mustJSON(t, s), diags)
		}
		_, s, diags := b.build(lookup(badPath, "Bad"), token.NoPos)
		fmt.Fprintf(&sb, "Bad %s %v\n", mustJSON(t, s), diags)
		return sb.String()
	}
	first := render()
	for range 4 {
		if again := render(); again != first {
			t.Fatalf("output differs between runs:\n%s\n---\n%s", first, again)
		}
	}
}

// TestMapKeysOfResults checks that map keys are judged by the direction
// they travel: a result's keys must be writable (string or integer kind, or
// MarshalText), an argument's readable (UnmarshalText), and the property
// names a result's schema allows are the ones encoding/json writes.
func TestMapKeysOfResults(t *testing.T) {
	b, lookup := newTestBuilder(t)

	_, s, diags := b.build(lookup(schematypesPath, "OutKeys"), token.NoPos)
	if len(diags) != 0 {
		t.Fatalf("OutKeys as a result: %v", diags)
	}
	props := s.Properties
	// Hex has MarshalText, so its names are hexadecimal, not decimal.
	if p, _ := props.Get("hexes"); p.PropertyNames != nil {
		t.Errorf("hexes: propertyNames %s, want none", mustJSON(t, p.PropertyNames))
	}
	if p, _ := props.Get("small"); p.PropertyNames == nil || p.PropertyNames.Pattern != keyPattern(true, 8) {
		t.Errorf("small: propertyNames = %s, want the int8 pattern", mustJSON(t, p.PropertyNames))
	}
	if p, _ := props.Get("uints"); p.PropertyNames == nil || p.PropertyNames.Pattern != keyPattern(false, 16) {
		t.Errorf("uints: propertyNames = %s, want the uint16 pattern", mustJSON(t, p.PropertyNames))
	}

	_, _, diags = b.buildInput(lookup(schematypesPath, "OutKeys"), token.NoPos)
	if len(diags) != 1 || !strings.Contains(diags[0].Msg, "OutKeys.Words: map key type schematypes.Word in map[schematypes.Word]int has MarshalText but no UnmarshalText") {
		t.Errorf("OutKeys as arguments: %v", diags)
	}

	_, _, diags = b.build(lookup(badPath, "Unwritable"), token.NoPos)
	if len(diags) != 1 || !strings.Contains(diags[0].Msg, "Unwritable.Keys: unsupported map key type bad.Readable") || !strings.Contains(diags[0].Msg, "encoding.TextMarshaler") {
		t.Errorf("Unwritable as a result: %v", diags)
	}
	if diags[0].Pos.Line == 0 {
		t.Errorf("Unwritable as a result: no position: %v", diags)
	}
	if _, _, diags = b.buildInput(lookup(badPath, "Unwritable"), token.NoPos); len(diags) != 0 {
		t.Errorf("Unwritable as arguments: %v", diags)
	}
}
