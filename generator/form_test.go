package generator

import (
	"context"
	"encoding/json"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/mcpschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/tools/go/packages"
)

// formSource declares forms with every kind of field a form may have.
const formSource = `package forms

import "time"

// Mode is how files go.
type Mode string

const (
	Trash  Mode = "trash"
	Delete Mode = "delete"
)

// Basic has the field kinds of every revision with elicitation.
type Basic struct {
	Confirm bool      ` + "`json:\"confirm\" jsonschema:\"title=Sure,description=Delete them?,default=false\"`" + `
	Reason  string    ` + "`json:\"reason,omitempty\" jsonschema:\"minLength=1,maxLength=200\"`" + `
	Email   string    ` + "`json:\"email\" jsonschema:\"format=email\"`" + `
	Mode    Mode      ` + "`json:\"mode\"`" + ` // how they go
	Keep    *int      ` + "`json:\"keep,omitempty\" jsonschema:\"minimum=1,maximum=90\"`" + `
	Ratio   float32   ` + "`json:\"ratio,omitempty\"`" + `
	Small   uint8     ` + "`json:\"small,omitempty\"`" + `
	When    time.Time ` + "`json:\"when\"`" + `
	Day     string    ` + "`json:\"day\" jsonschema:\"format=date\"`" + `
}

// Color has titles: its constants' comments.
type Color string

const (
	Red   Color = "red" // Bright red
	// Green is the color of grass.
	Green Color = "green"
	Blue  Color = "blue"
)

// Titled has choices with titles, of revision 2025-11-25.
type Titled struct {
	Color  Color   ` + "`json:\"color\"`" + `
	Colors []Color ` + "`json:\"colors,omitempty\"`" + `
}

// Defaults has defaults and several choices, of revision 2025-11-25.
type Defaults struct {
	Name  string ` + "`json:\"name,omitempty\" jsonschema:\"default=octocat\"`" + `
	Count int    ` + "`json:\"count,omitempty\" jsonschema:\"default=3\"`" + `
	Modes []Mode ` + "`json:\"modes\" jsonschema:\"minItems=1,maxItems=2\"`" + `
}
`

// buildTestForms type-checks formSource as a package of the main module
// and builds a form of each of the named types.
func buildTestForms(t *testing.T, names ...string) map[string]*Form {
	t.Helper()
	path := filepath.Join(t.TempDir(), "forms.go")
	if err := os.WriteFile(path, []byte(formSource), 0o644); err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := (&types.Config{Importer: importer.ForCompiler(fset, "source", nil)}).Check("example.com/forms", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b := newSchemaBuilder(fset, nil)
	b.modules[pkg.Path()] = &packages.Module{Path: "example.com/forms", Main: true}
	b.syntax[path] = f
	forms := map[string]*Form{}
	for _, name := range names {
		n := pkg.Scope().Lookup(name).Type().(*types.Named)
		form, diags := buildForm(b, n, token.Position{})
		if len(diags) > 0 {
			t.Fatalf("form %s: %v", name, diags)
		}
		forms[name] = form
	}
	return forms
}

// TestFormSchemas checks the requested schemas derived from Go structs.
func TestFormSchemas(t *testing.T) {
	forms := buildTestForms(t, "Basic", "Defaults", "Titled")
	for name, want := range map[string]string{
		"Titled": `{"type":"object","properties":{` +
			`"color":{"type":"string","oneOf":[{"const":"red","title":"Bright red"},{"const":"green","title":"Green is the color of grass."},{"const":"blue","title":"blue"}],"description":"Color has titles: its constants' comments."},` +
			`"colors":{"type":"array","items":{"anyOf":[{"const":"red","title":"Bright red"},{"const":"green","title":"Green is the color of grass."},{"const":"blue","title":"blue"}]}}},` +
			`"required":["color"]}`,
		"Basic": `{"type":"object","properties":{` +
			`"confirm":{"type":"boolean","title":"Sure","description":"Delete them?","default":false},` +
			`"reason":{"type":"string","maxLength":200,"minLength":1},` +
			`"email":{"type":"string","format":"email"},` +
			`"mode":{"type":"string","enum":["trash","delete"],"description":"how they go"},` +
			`"keep":{"type":"integer","maximum":90,"minimum":1},` +
			`"ratio":{"type":"number"},` +
			`"small":{"type":"integer","maximum":255,"minimum":0},` +
			`"when":{"type":"string","format":"date-time"},` +
			`"day":{"type":"string","format":"date"}},` +
			`"required":["confirm","email","mode","when","day"]}`,
		"Defaults": `{"type":"object","properties":{` +
			`"name":{"type":"string","default":"octocat"},` +
			`"count":{"type":"integer","default":3},` +
			`"modes":{"type":"array","items":{"type":"string","enum":["trash","delete"]},"maxItems":2,"minItems":1}},` +
			`"required":["modes"]}`,
	} {
		got, err := json.Marshal(forms[name].Schema)
		if err != nil {
			t.Fatal(err)
		}
		var g, w any
		json.Unmarshal(got, &g)
		if err := json.Unmarshal([]byte(want), &w); err != nil {
			t.Fatal(err)
		}
		gb, _ := json.Marshal(g)
		wb, _ := json.Marshal(w)
		if string(gb) != string(wb) {
			t.Errorf("%s: schema\n%s\nwant\n%s", name, gb, wb)
		}
	}
}

// TestFormSchemasValid validates the requested schemas against the MCP
// schema of every revision with elicitation: each property must match a
// PrimitiveSchemaDefinition variant and use only the keywords that variant
// declares (clients may refuse others), and the whole request must be a
// valid elicitation/create. Forms with several choices, titled choices or
// defaults of strings and numbers need 2025-11-25 (the runtime rewrites
// titled choices for older clients).
func TestFormSchemasValid(t *testing.T) {
	forms := buildTestForms(t, "Basic", "Defaults", "Titled")
	for _, tc := range []struct {
		rev   string
		forms []string
	}{
		{"2025-06-18", []string{"Basic"}},
		{"2025-11-25", []string{"Basic", "Defaults", "Titled"}},
		{"2026-07-28", []string{"Basic", "Defaults", "Titled"}},
	} {
		s := mcpschema.Require(t, tc.rev)
		variants := primitiveVariants(t, tc.rev)
		for _, name := range tc.forms {
			schema, _ := json.Marshal(forms[name].Schema)
			params := `{"mode":"form","message":"Well?","requestedSchema":` + string(schema) + `}`
			def := "ElicitRequestFormParams"
			if !s.Has(def) {
				def, params = "ElicitRequest", `{"method":"elicitation/create","params":{"message":"Well?","requestedSchema":`+string(schema)+`}}`
			}
			if err := s.Validate(def, []byte(params)); err != nil {
				t.Errorf("%s: form %s is not a valid %s: %v", tc.rev, name, def, err)
			}
			var outline struct {
				Properties map[string]map[string]json.RawMessage
			}
			json.Unmarshal(schema, &outline)
			for prop, ps := range outline.Properties {
				raw, _ := json.Marshal(ps)
				var matched []string
				for v, keys := range variants {
					if s.Validate(v, raw) == nil && allIn(ps, keys) {
						matched = append(matched, v)
					}
				}
				if len(matched) == 0 {
					t.Errorf("%s: form %s: property %s %s matches no PrimitiveSchemaDefinition with only its keywords", tc.rev, name, prop, raw)
				}
			}
		}
	}
}

// primitiveVariants returns, for a revision, the definitions that make up
// PrimitiveSchemaDefinition with the keywords each declares.
func primitiveVariants(t *testing.T, rev string) map[string][]string {
	t.Helper()
	dir, err := mcpschema.Dir()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, rev, "schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Defs        map[string]json.RawMessage `json:"$defs"`
		Definitions map[string]json.RawMessage `json:"definitions"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	defs := doc.Defs
	if defs == nil {
		defs = doc.Definitions
	}
	var prim struct {
		AnyOf []struct {
			Ref string `json:"$ref"`
		}
	}
	json.Unmarshal(defs["PrimitiveSchemaDefinition"], &prim)
	out := map[string][]string{}
	for _, v := range prim.AnyOf {
		name := v.Ref[strings.LastIndex(v.Ref, "/")+1:]
		var def struct{ Properties map[string]json.RawMessage }
		json.Unmarshal(defs[name], &def)
		for k := range def.Properties {
			out[name] = append(out[name], k)
		}
	}
	if len(out) < 4 {
		t.Fatalf("%s: PrimitiveSchemaDefinition has %d variants, want at least 4", rev, len(out))
	}
	return out
}

func allIn(m map[string]json.RawMessage, keys []string) bool {
	for k := range m {
		if !slices.Contains(keys, k) {
			return false
		}
	}
	return true
}

// TestFormSchemasGoSDKClient sends the requested schemas to the official
// Go SDK client, which checks a form's schema (flat properties, formats,
// titled choices, defaults of the right type) before it asks its user:
// every form must pass, and the client's handler must see it.
func TestFormSchemasGoSDKClient(t *testing.T) {
	forms := buildTestForms(t, "Basic", "Defaults", "Titled")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	asked := map[string]bool{}
	client := mcp.NewClient(&mcp.Implementation{Name: "forms", Version: "0"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked[req.Params.Message] = true
			return &mcp.ElicitResult{Action: "decline"}, nil
		},
	})
	server := mcp.NewServer(&mcp.Implementation{Name: "forms", Version: "0"}, nil)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, name := range []string{"Basic", "Defaults", "Titled"} {
		schema, _ := json.Marshal(forms[name].Schema)
		res, err := ss.Elicit(ctx, &mcp.ElicitParams{Mode: "form", Message: name, RequestedSchema: json.RawMessage(schema)})
		if err != nil {
			t.Errorf("form %s: the Go SDK client refused %s: %v", name, schema, err)
			continue
		}
		if res.Action != "decline" || !asked[name] {
			t.Errorf("form %s: action %q, asked %v", name, res.Action, asked[name])
		}
	}
}
