package manifest

import (
	gotypes "go/types"
	"slices"
	"strings"
	"testing"

	"github.com/invopop/jsonschema"
	"github.com/mcpgen/mcpgen/generator"
)

// testForm is a generator form of a struct type named name in the package
// of path.
func testForm(path, name string) *generator.Form {
	pkg := gotypes.NewPackage(path, "p")
	n := gotypes.NewNamed(gotypes.NewTypeName(0, pkg, name, nil), gotypes.NewStruct(nil, nil), nil)
	props := jsonschema.NewProperties()
	props.Set("ok", &jsonschema.Schema{Type: "boolean"})
	return &generator.Form{Type: n, Schema: &jsonschema.Schema{Type: "object", Properties: props}}
}

// Forms are listed by package path, then type name, whatever the order of
// the packages and of the forms' first uses.
func TestFromPackagesFormOrder(t *testing.T) {
	pkgs := []*generator.Package{
		{Forms: []*generator.Form{testForm("example.com/b", "Zed"), testForm("example.com/b", "Alpha")}},
		{Forms: []*generator.Form{testForm("example.com/a", "Mid")}},
	}
	m, err := FromPackages(pkgs)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range m.Forms {
		got = append(got, f.key()+" "+string(f.RequestedSchema))
	}
	want := []string{
		`example.com/a.Mid {"properties":{"ok":{"type":"boolean"}},"type":"object"}`,
		`example.com/b.Alpha {"properties":{"ok":{"type":"boolean"}},"type":"object"}`,
		`example.com/b.Zed {"properties":{"ok":{"type":"boolean"}},"type":"object"}`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("forms:\n%q\nwant\n%q", got, want)
	}
	// Parse keeps them, and Encode writes the same bytes again.
	enc, err := m.Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(enc)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := back.Encode(); string(again) != string(enc) {
		t.Errorf("Parse then Encode changed the manifest:\n%s\nwas\n%s", again, enc)
	}
}

// A form added, removed or asking for something else is listed, never as
// breaking: a client fills in whatever form the server sends. Whitespace
// is no change.
func TestCompareForms(t *testing.T) {
	form := func(typ, schema string) Form {
		return Form{Type: typ, Package: "example.com/p", RequestedSchema: []byte(schema)}
	}
	old := &Manifest{Forms: []Form{
		form("Gone", `{"type":"object"}`),
		form("Same", `{"type":"object","properties":{"a":{"type":"string"}}}`),
		form("Changed", `{"type":"object","properties":{"a":{"type":"string"}}}`),
	}}
	new := &Manifest{Forms: []Form{
		form("Same", "{\n  \"type\": \"object\",\n  \"properties\": {\"a\": {\"type\": \"string\"}}\n}"),
		form("Changed", `{"type":"object","properties":{"a":{"type":"string","maxLength":5}}}`),
		form("New", `{"type":"object"}`),
	}}
	changes, err := Compare(old, new)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range changes {
		got = append(got, c.String())
	}
	want := []string{
		"compatible: form example.com/p.Gone: form removed",
		"compatible: form example.com/p.Changed: requested schema changed",
		"compatible: form example.com/p.New: form added",
	}
	if !slices.Equal(got, want) {
		t.Errorf("changes:\n%q\nwant\n%q", got, want)
	}
}

// The reference lists each form's fields: titles, types, defaults, bounds,
// formats, and choices with their titles, one or several.
func TestMarkdownForms(t *testing.T) {
	m := &Manifest{Tools: []Tool{}, Forms: []Form{
		{Type: "Confirm", Package: "example.com/p", RequestedSchema: []byte(`{"type":"object","properties":{
			"confirm":{"type":"boolean","title":"Sure","description":"Delete | them?","default":false},
			"reason":{"type":"string","minLength":1,"maxLength":200},
			"when":{"type":"string","format":"date-time"},
			"keep":{"type":"integer","minimum":1,"maximum":90},
			"mode":{"type":"string","enum":["trash","delete"]},
			"color":{"type":"string","oneOf":[{"const":"red","title":"Bright red"},{"const":"blue","title":"blue"}]},
			"colors":{"type":"array","items":{"anyOf":[{"const":"red","title":"Bright red"},{"const":"green","title":"Grass"}]},"maxItems":2}
		},"required":["confirm","when"]}`)},
		{Type: "Empty", Package: "example.com/p", RequestedSchema: []byte(`{"type":"object","properties":{}}`)},
	}}
	md, err := m.Markdown()
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/forms.md", md)
	if _, err := (&Manifest{Forms: []Form{{Type: "Bad", RequestedSchema: []byte(`[`)}}}).Markdown(); err == nil {
		t.Error("a form whose schema is not JSON: no error")
	}
}

// Forms of different packages with the same type name get different
// headings: qualified by the last element of the package path, or the
// whole path when that is shared too; a name used once stays bare.
func TestMarkdownFormsSameName(t *testing.T) {
	obj := []byte(`{"type":"object","properties":{}}`)
	m := &Manifest{Tools: []Tool{}, Forms: []Form{
		{Type: "Answer", Package: "example.com/a/billing", RequestedSchema: obj},
		{Type: "Answer", Package: "example.com/b/billing", RequestedSchema: obj},
		{Type: "Answer", Package: "example.com/shop", RequestedSchema: obj},
		{Type: "Confirm", Package: "example.com/shop", RequestedSchema: obj},
		{Type: "Delete", Package: "example.com/a/billing", RequestedSchema: obj},
		{Type: "Delete", Package: "example.com/shop", RequestedSchema: obj},
	}}
	md, err := m.Markdown()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range strings.Split(string(md), "\n") {
		if strings.HasPrefix(line, "### ") {
			got = append(got, line)
		}
	}
	want := []string{
		"### Form `example.com/a/billing.Answer`",
		"### Form `example.com/b/billing.Answer`",
		"### Form `shop.Answer`",
		"### Form `Confirm`",
		"### Form `billing.Delete`",
		"### Form `shop.Delete`",
	}
	if !slices.Equal(got, want) {
		t.Errorf("headings:\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

// The cleanup example's reference ends with its form.
func TestMarkdownCleanup(t *testing.T) {
	md, err := loadExample(t, "cleanup").Markdown()
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/cleanup.md", md)
}
