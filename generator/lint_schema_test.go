package generator

import (
	"go/token"
	"slices"
	"testing"

	"github.com/invopop/jsonschema"
)

// TestLintInputSchema covers the warnings about an input schema's shape,
// which the schema builder does not produce today: a top-level anyOf or
// oneOf, and a $ref to a definition that is not recursive.
func TestLintInputSchema(t *testing.T) {
	obj := func(props ...any) *jsonschema.Schema {
		s := &jsonschema.Schema{Type: "object", Properties: jsonschema.NewProperties()}
		for i := 0; i < len(props); i += 2 {
			s.Properties.Set(props[i].(string), props[i+1].(*jsonschema.Schema))
		}
		return s
	}
	ref := func(name string) *jsonschema.Schema { return &jsonschema.Schema{Ref: "#/$defs/" + name} }
	withDefs := func(s *jsonschema.Schema, defs jsonschema.Definitions) *jsonschema.Schema {
		s.Definitions = defs
		return s
	}
	pos := token.Position{Filename: "tools.go", Line: 3, Column: 6}
	tests := []struct {
		name   string
		schema *jsonschema.Schema
		want   []string
	}{
		{"plain object", obj("a", &jsonschema.Schema{Type: "string"}), nil},
		{"anyOf", &jsonschema.Schema{AnyOf: []*jsonschema.Schema{obj(), obj()}},
			[]string{`tools.go:3:6: the input schema of tool "t" has a top-level anyOf or oneOf, which several model providers reject: make the arguments one object`}},
		{"oneOf", &jsonschema.Schema{OneOf: []*jsonschema.Schema{obj(), obj()}},
			[]string{`tools.go:3:6: the input schema of tool "t" has a top-level anyOf or oneOf, which several model providers reject: make the arguments one object`}},
		{"recursive ref", withDefs(obj("node", ref("Node")), jsonschema.Definitions{"Node": obj("next", ref("Node"))}), nil},
		{"mutually recursive", withDefs(obj("a", ref("A")), jsonschema.Definitions{"A": obj("b", ref("B")), "B": obj("a", ref("A"))}), nil},
		{"inlinable ref", withDefs(obj("f", ref("Filter"), "g", &jsonschema.Schema{Type: "array", Items: ref("Filter")}), jsonschema.Definitions{"Filter": obj("kind", &jsonschema.Schema{Type: "string"})}),
			[]string{`tools.go:3:6: the input schema of tool "t" refers to #/$defs/Filter, which is not recursive and could be inlined; some clients do not resolve $ref`}},
	}
	for _, tt := range tests {
		tool := &Tool{Pos: pos, Name: "t", Description: "Does.", InputSchema: tt.schema}
		var got []string
		for _, d := range lintTool(token.NewFileSet(), tool, func(string) bool { return true }) {
			got = append(got, d.String())
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}
