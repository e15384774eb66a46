package generator

import (
	"encoding/json"

	"github.com/invopop/jsonschema"
)

// The _meta keys under which a generated resource template lists its
// variables in resources/templates/list. MCP has no member for them;
// the keys are namespaced, as the specification asks of _meta keys that
// are not its own.
const (
	// MetaVariables holds the JSON Schema of the template's variables:
	// an object schema with a property per variable, in the order of the
	// function's parameters or fields, and the variables a URI must give
	// (those outside {?…} and {&…} expressions) as required.
	MetaVariables = "io.github.mcpgen/variables"
	// MetaCompletable lists the variables whose values completion/complete
	// offers: those with a //mcp:complete function or a string enum type.
	MetaCompletable = "io.github.mcpgen/completable"
)

// TemplateMeta returns the _meta object a resource template is listed
// with: its variables' schema (MetaVariables) and, when any completes,
// MetaCompletable. It is nil for a resource with a fixed URI or a
// template without variables.
func (r *Resource) TemplateMeta() (json.RawMessage, error) {
	if !r.Template || len(r.Vars) == 0 {
		return nil, nil
	}
	s := &jsonschema.Schema{Type: "object", Properties: jsonschema.NewProperties()}
	var completable []string
	for _, v := range r.Vars {
		site := v.Shape.Schema
		if site == nil {
			site = v.Elem().Schema
		}
		s.Properties.Set(v.Name, site)
		if v.Required {
			s.Required = append(s.Required, v.Name)
		}
		if v.Complete != nil || len(v.Enum) > 0 {
			completable = append(completable, v.Name)
		}
	}
	vars, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	b := []byte(`{"` + MetaVariables + `":`)
	b = append(b, vars...)
	if len(completable) > 0 {
		c, err := json.Marshal(completable)
		if err != nil {
			return nil, err
		}
		b = append(b, `,"`+MetaCompletable+`":`...)
		b = append(b, c...)
	}
	return append(b, '}'), nil
}
