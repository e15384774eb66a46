package manifest

import (
	"encoding/json"
	"strings"
	"testing"
)

// tmpl is a template of name "page" with the given _meta variables schema
// properties (JSON text), required variables and completable variables.
func tmpl(uri, props string, required, completable []string) Template {
	req, _ := json.Marshal(required)
	meta := `{"io.github.mcpgen/variables":{"type":"object","properties":{` + props + `},"required":` + string(req) + `}`
	if completable != nil {
		c, _ := json.Marshal(completable)
		meta += `,"io.github.mcpgen/completable":` + string(c)
	}
	return Template{URITemplate: uri, Name: "page", Meta: json.RawMessage(meta + "}")}
}

func TestCompareTemplateVariables(t *testing.T) {
	str, integer := `{"type":"string"}`, `{"type":"integer"}`
	base := tmpl("books://{book}/pages/{page}", `"book":`+str+`,"page":`+integer, []string{"book", "page"}, []string{"book"})
	tests := []struct {
		name string
		new  Template
		want []string
	}{
		{"identical", base, nil},
		{
			"variable renamed",
			tmpl("books://{title}/pages/{page}", `"title":`+str+`,"page":`+integer, []string{"title", "page"}, []string{"title"}),
			[]string{
				"breaking: resource template books://{book}/pages/{page}: uriTemplate changed to books://{title}/pages/{page}",
				"breaking: resource template books://{book}/pages/{page}: variables.book: variable renamed to title",
			},
		},
		{
			"variable removed",
			tmpl("books://{book}/pages", `"book":`+str, []string{"book"}, []string{"book"}),
			[]string{
				"breaking: resource template books://{book}/pages/{page}: uriTemplate changed to books://{book}/pages",
				"breaking: resource template books://{book}/pages/{page}: variables.page: variable removed",
			},
		},
		{
			"optional query variable added",
			tmpl("books://{book}/pages/{page}{?lang}", `"book":`+str+`,"page":`+integer+`,"lang":`+str, []string{"book", "page"}, []string{"book"}),
			[]string{
				"compatible: resource template books://{book}/pages/{page}: uriTemplate changed to books://{book}/pages/{page}{?lang}",
				"compatible: resource template books://{book}/pages/{page}: variables.lang: optional variable added",
			},
		},
		{
			"path variable added",
			tmpl("books://{book}/pages/{page}/{line}", `"book":`+str+`,"page":`+integer+`,"line":`+integer, []string{"book", "page", "line"}, []string{"book"}),
			[]string{
				"breaking: resource template books://{book}/pages/{page}: uriTemplate changed to books://{book}/pages/{page}/{line}",
				"breaking: resource template books://{book}/pages/{page}: variables.line: variable added, required",
			},
		},
		{
			"type changed, enum added, completion moved",
			tmpl("books://{book}/pages/{page}", `"book":{"type":"string","enum":["a","b"]},"page":`+str, []string{"book", "page"}, []string{"page"}),
			[]string{
				`breaking: resource template books://{book}/pages/{page}: variables.book: now restricted to the values "a", "b"`,
				"compatible: resource template books://{book}/pages/{page}: variables.book: no longer completes",
				"compatible: resource template books://{book}/pages/{page}: variables.page: type widened from integer to string",
				"compatible: resource template books://{book}/pages/{page}: variables.page: now completes",
			},
		},
		{
			"bound tightened",
			tmpl("books://{book}/pages/{page}", `"book":`+str+`,"page":{"type":"integer","maximum":100}`, []string{"book", "page"}, []string{"book"}),
			[]string{"breaking: resource template books://{book}/pages/{page}: variables.page: maximum 100 added (bound tightened)"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			changes, err := Compare(&Manifest{ResourceTemplates: []Template{base}}, &Manifest{ResourceTemplates: []Template{tt.new}})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range changes {
				got = append(got, c.String())
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("changes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestTemplateVariablesParse(t *testing.T) {
	for _, tt := range []struct{ meta, want string }{
		{`[]`, "_meta: json: cannot unmarshal array"},
		{`{"io.github.mcpgen/variables":[]}`, "not a JSON Schema"},
		{`{"io.github.mcpgen/variables":{"type":"object"},"io.github.mcpgen/completable":"id"}`, "io.github.mcpgen/completable"},
	} {
		_, err := Parse([]byte(`{"tools":[],"resourceTemplates":[{"uriTemplate":"a://{x}","name":"a","_meta":` + tt.meta + `}]}`))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("_meta %s: %v, want %q", tt.meta, err, tt.want)
		}
	}
	// Another server's _meta says nothing of variables.
	if _, err := Parse([]byte(`{"tools":[],"resourceTemplates":[{"uriTemplate":"a://{x}","name":"a","_meta":{"com.example/x":1}}]}`)); err != nil {
		t.Error(err)
	}
}

func TestTemplateText(t *testing.T) {
	for _, tt := range []struct{ in, base, optional string }{
		{"notes://{id}", "notes://{id}", ""},
		{"palette://{color}{?shade,code}", "palette://{color}", "shade,code"},
		{"a://{x}{?y*}{&z:3}/b", "a://{x}/b", "y,z"},
		{"a://{x", "a://{x", ""},
	} {
		base, opt := templateText(tt.in)
		if base != tt.base || strings.Join(opt, ",") != tt.optional {
			t.Errorf("templateText(%q) = %q, %q; want %q, %q", tt.in, base, opt, tt.base, tt.optional)
		}
	}
}
