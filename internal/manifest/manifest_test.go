package manifest

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generator"
)

var update = flag.Bool("update", false, "rewrite testdata/*.md with the current output")

// loadFiles builds the manifest of the bundled example server from its
// source.
func loadFiles(t *testing.T) *Manifest {
	t.Helper()
	return loadExample(t, "files")
}

// loadExample builds the manifest of examples/<name> from its source.
func loadExample(t *testing.T, name string) *Manifest {
	t.Helper()
	pkgs, err := generator.Load(generator.Config{Dir: filepath.Join("..", "..", "examples", name)})
	if err != nil {
		t.Fatal(err)
	}
	m, err := FromPackages(pkgs)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// The manifest built from source without running anything is, byte for
// byte, what the running example server lists (each example's in-process
// TestManifest holds testdata/mcp.json to tools/list, resources/list,
// resources/templates/list and prompts/list, and cleanup's to its form):
// files has tools only, notes every primitive, cleanup a tool and a form.
func TestFromPackagesAgreesWithServer(t *testing.T) {
	for _, tt := range []struct {
		example                              string
		resources, templates, prompts, forms int
	}{
		{"files", 0, 0, 0, 0},
		{"notes", 1, 1, 1, 0},
		{"cleanup", 0, 0, 0, 1},
	} {
		t.Run(tt.example, func(t *testing.T) {
			m := loadExample(t, tt.example)
			if len(m.Resources) != tt.resources || len(m.ResourceTemplates) != tt.templates || len(m.Prompts) != tt.prompts || len(m.Forms) != tt.forms {
				t.Errorf("%d resources, %d templates, %d prompts, %d forms; want %d, %d, %d, %d", len(m.Resources), len(m.ResourceTemplates), len(m.Prompts), len(m.Forms), tt.resources, tt.templates, tt.prompts, tt.forms)
			}
			got, err := m.Encode()
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join("..", "..", "examples", tt.example, "testdata", "mcp.json"))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("manifest from source:\n%s\nwhat the server lists:\n%s", got, want)
			}
			parsed, err := Parse(got)
			if err != nil {
				t.Fatal(err)
			}
			again, _ := parsed.Encode()
			if !bytes.Equal(again, got) {
				t.Errorf("Parse then Encode changed the manifest:\n%s", again)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`[]`, "not a manifest: json: cannot unmarshal array"},
		{`{"tools":[{"inputSchema":{}}]}`, "tool 1 has no name"},
		{`{"tools":[{"name":"a"}]}`, "tool a has no inputSchema"},
		{`{"tools":[],"resources":[{"name":"a"}]}`, "resource 1 has no uri"},
		{`{"tools":[],"resourceTemplates":[{"uri":"a://x"}]}`, "resource template 1 has no uriTemplate"},
		{`{"tools":[],"prompts":[{"title":"T"}]}`, "prompt 1 has no name"},
		{`{"tools":[],"forms":[{"package":"p","requestedSchema":{}}]}`, "form 1 has no type"},
		{`{"tools":[],"forms":[{"type":"A","package":"p"}]}`, "form p.A has no requestedSchema"},
	} {
		if _, err := Parse([]byte(tt.in)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%s) = %v, want %q", tt.in, err, tt.want)
		}
	}
}

func TestFromPackagesDuplicate(t *testing.T) {
	for _, tt := range []struct {
		name string
		a, b *generator.Package
		want string
	}{
		{"tool", &generator.Package{Tools: []*generator.Tool{{Name: "x"}}}, &generator.Package{Tools: []*generator.Tool{{Name: "x"}}}, `tool "x" is also defined`},
		{"resource", &generator.Package{Resources: []*generator.Resource{{URI: "a://x"}}}, &generator.Package{Resources: []*generator.Resource{{URI: "a://x"}}}, `resource "a://x" is also defined`},
		{"template", &generator.Package{Resources: []*generator.Resource{{URI: "a://{x}", Template: true}}}, &generator.Package{Resources: []*generator.Resource{{URI: "a://{x}", Template: true}}}, `resource template "a://{x}" is also defined`},
		{"prompt", &generator.Package{Prompts: []*generator.Prompt{{Name: "p"}}}, &generator.Package{Prompts: []*generator.Prompt{{Name: "p"}}}, `prompt "p" is also defined`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := FromPackages([]*generator.Package{tt.a, tt.b}); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("duplicate %s: %v, want %q", tt.name, err, tt.want)
			}
		})
	}
	// A resource and a template may share a key, as may a tool and a
	// prompt: they are listed apart.
	p := &generator.Package{
		Tools:     []*generator.Tool{{Name: "x"}},
		Prompts:   []*generator.Prompt{{Name: "x", Args: []*generator.Var{{Name: "a", Required: true, Description: "A."}}}},
		Resources: []*generator.Resource{{URI: "a://x"}, {URI: "a://x", Template: true}},
	}
	m, err := FromPackages([]*generator.Package{p})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Resources) != 1 || m.Resources[0].Name != "a://x" || len(m.ResourceTemplates) != 1 || len(m.Prompts) != 1 || m.Prompts[0].Arguments[0] != (PromptArgument{Name: "a", Required: true, Description: "A."}) {
		t.Errorf("manifest = %+v", m)
	}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test -update rewrites it); got:\n%s", path, got)
	}
}

func TestMarkdownFiles(t *testing.T) {
	md, err := loadFiles(t).Markdown()
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/files.md", md)
}

// Nested objects, arrays of objects, recursive types, enums of items, a
// tool without arguments, and text that would break a table.
func TestMarkdownShapes(t *testing.T) {
	yes := true
	m := &Manifest{Tools: []Tool{
		{
			Name:        "tree.walk",
			Title:       "Walk a tree",
			Description: "Walks a tree | with a pipe.\n\nSecond paragraph.",
			InputSchema: []byte(`{"$defs":{"Node":{"type":"object","properties":{"name":{"type":"string","description":"Name of\nthe node."},"kids":{"type":"array","items":{"$ref":"#/$defs/Node"}}},"required":["name"]}},
				"type":"object","properties":{
					"root":{"$ref":"#/$defs/Node"},
					"opts":{"type":"object","properties":{"depth":{"type":"integer","minimum":0,"exclusiveMaximum":10,"multipleOf":2}},"required":["depth"]},
					"tags":{"type":"array","items":{"type":"string","enum":["a","b"]},"maxItems":3,"uniqueItems":true},
					"at":{"type":"string","format":"date-time","pattern":"^2"},
					"ptr":{"type":["string","null"],"default":"x"}
				},"required":["root"],"additionalProperties":false}`),
			OutputSchema: []byte(`{"type":"object","properties":{"items":{"type":"array","items":{"type":"object","properties":{"id":{"type":"integer","description":"ID."}}}}}}`),
			Annotations:  &Annotations{ReadOnlyHint: &yes},
		},
		{Name: "ping", InputSchema: []byte(`{"type":"object"}`)},
	}}
	md, err := m.Markdown()
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/shapes.md", md)
}

func TestDocument(t *testing.T) {
	ref := []byte("## Tools\n\nnew\n")
	tests := []struct {
		name, old, want, err string
	}{
		{"new file", "", generatedDoc + "\n\n## Tools\n\nnew\n", ""},
		{"our file", generatedDoc + "\n\nold\n", generatedDoc + "\n\n## Tools\n\nnew\n", ""},
		{"markers", "# Server\n\nIntro.\n\n" + BeginMarker + "\nold\n" + EndMarker + "\n\nMore.\n", "# Server\n\nIntro.\n\n" + BeginMarker + "\n\n## Tools\n\nnew\n\n" + EndMarker + "\n\nMore.\n", ""},
		{"someone else's file", "# Notes\n", "", "was not written by mcpgen docs and has no markers"},
		{"one marker", "# x\n" + BeginMarker + "\n", "", "one of the markers"},
		{"markers reversed", EndMarker + "\n" + BeginMarker + "\n", "", "one of the markers"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var old []byte
			if tt.old != "" {
				old = []byte(tt.old)
			}
			got, err := Document(old, ref)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
			// Rendering again over the result changes nothing.
			again, err := Document(got, ref)
			if err != nil || !bytes.Equal(again, got) {
				t.Errorf("not idempotent: %v\n%s", err, again)
			}
		})
	}
}

// The notes example has a resource, a resource template and a prompt.
func TestMarkdownNotes(t *testing.T) {
	md, err := loadExample(t, "notes").Markdown()
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/notes.md", md)
}
