package generator

import (
	"go/token"
	"go/types"
	"slices"

	"github.com/invopop/jsonschema"
	orderedmap "github.com/pb33f/ordered-map/v2"
)

// outputSchema returns the shape and output schema of a structured result
// type, and the wrapping property when the type is not a JSON object. The
// schema describes what the generated encoder sends (see nilRule).
func (b *schemaBuilder) outputSchema(t types.Type, pos token.Pos) (*Shape, *jsonschema.Schema, string, string) {
	base := t
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		base = p.Elem()
	}
	switch base.Underlying().(type) {
	case *types.Struct:
	case *types.Map:
	case *types.Slice, *types.Array:
		sh, schema, ds := b.build(base, pos)
		if len(ds) > 0 {
			return nil, nil, "", ds[0].Msg
		}
		schema = nilRule(schema, sh, b.defs)
		// "$ref": "#/$defs/…" resolves against the root, so the
		// definitions move up to the wrapping object.
		defs := schema.Definitions
		schema.Definitions = nil
		props := orderedmap.New[string, *jsonschema.Schema]()
		props.Set("items", schema)
		return sh, &jsonschema.Schema{Definitions: defs, Type: "object", Properties: props, Required: []string{"items"}, AdditionalProperties: jsonschema.FalseSchema}, "items", ""
	default:
		return nil, nil, "", "unsupported result type " + t.String()
	}
	sh, schema, ds := b.build(base, pos)
	if len(ds) > 0 {
		return nil, nil, "", ds[0].Msg
	}
	return sh, nilRule(schema, sh, b.defs), "", ""
}

// nilRule returns a copy of the schema root of shape sh that describes what
// the generated encoder writes for nil values:
//
//   - a nil slice is [] and a nil map is {}, as the schema already says;
//   - a property whose value is a nil pointer, or that is promoted through
//     a nil embedded pointer, is left out, so it is not required;
//   - so is a property with omitempty or omitzero, even when a jsonschema
//     tag says required: an output schema requires what is always sent;
//   - an array element or map value that is a nil pointer is null, so the
//     schema of elements that are pointers allows null.
//
// The schemas of the builder, shared with input schemas, are not changed.
func nilRule(root *jsonschema.Schema, sh *Shape, defs map[string]*Shape) *jsonschema.Schema {
	memo := map[*jsonschema.Schema]*jsonschema.Schema{}
	out := cloneSchema(root, memo)
	seen := map[string]bool{}
	var walk func(s *Shape)
	walk = func(s *Shape) {
		if s == nil {
			return
		}
		if s.Ref != "" {
			if seen[s.Ref] {
				return
			}
			seen[s.Ref] = true
			walk(defs[s.Ref])
			return
		}
		c := memo[s.Schema]
		if c != nil && len(c.OneOf) == 2 && c.Type == "" {
			c = c.OneOf[0] // a nullable site: {"oneOf": [schema, {"type": "null"}]}
		}
		switch s.Kind {
		case KindStruct:
			if c != nil && len(c.Required) > 0 {
				var omitted []string
				for _, f := range s.Fields {
					if f.Shape.Kind == KindPointer || throughPointer(f) || f.OmitEmpty || f.OmitZero {
						omitted = append(omitted, f.Name)
					}
				}
				c.Required = slices.DeleteFunc(slices.Clone(c.Required), func(n string) bool { return slices.Contains(omitted, n) })
				if len(c.Required) == 0 {
					c.Required = nil
				}
			}
			for _, f := range s.Fields {
				walk(f.Shape)
			}
		case KindSlice, KindArray, KindMap:
			if c != nil && s.Elem != nil && s.Elem.Kind == KindPointer {
				if s.Kind == KindMap {
					if c.AdditionalProperties != nil {
						c.AdditionalProperties = orNull(c.AdditionalProperties)
					}
				} else if c.Items != nil {
					c.Items = orNull(c.Items)
				}
			}
			walk(s.Elem)
		case KindPointer:
			walk(s.Elem)
		}
	}
	walk(sh)
	return out
}

// throughPointer reports whether a field is promoted through an embedded
// pointer.
func throughPointer(f *Field) bool {
	for _, step := range f.Path[:len(f.Path)-1] {
		if step.Ptr {
			return true
		}
	}
	return false
}

func orNull(s *jsonschema.Schema) *jsonschema.Schema {
	return &jsonschema.Schema{AnyOf: []*jsonschema.Schema{s, {Type: "null"}}}
}

// cloneSchema copies s and every schema below it; memo maps each original
// to its copy. The boolean schemas are kept as they are.
func cloneSchema(s *jsonschema.Schema, memo map[*jsonschema.Schema]*jsonschema.Schema) *jsonschema.Schema {
	if s == nil || s == jsonschema.TrueSchema || s == jsonschema.FalseSchema {
		return s
	}
	if c, ok := memo[s]; ok {
		return c
	}
	c := new(jsonschema.Schema)
	*c = *s
	memo[s] = c
	list := func(l []*jsonschema.Schema) []*jsonschema.Schema {
		if l == nil {
			return nil
		}
		out := make([]*jsonschema.Schema, len(l))
		for i, x := range l {
			out[i] = cloneSchema(x, memo)
		}
		return out
	}
	mapOf := func(m map[string]*jsonschema.Schema) map[string]*jsonschema.Schema {
		if m == nil {
			return nil
		}
		out := make(map[string]*jsonschema.Schema, len(m))
		for k, x := range m {
			out[k] = cloneSchema(x, memo)
		}
		return out
	}
	if s.Definitions != nil {
		c.Definitions = jsonschema.Definitions(mapOf(s.Definitions))
	}
	c.AllOf, c.AnyOf, c.OneOf, c.PrefixItems = list(s.AllOf), list(s.AnyOf), list(s.OneOf), list(s.PrefixItems)
	c.Not, c.If, c.Then, c.Else = cloneSchema(s.Not, memo), cloneSchema(s.If, memo), cloneSchema(s.Then, memo), cloneSchema(s.Else, memo)
	c.DependentSchemas, c.PatternProperties = mapOf(s.DependentSchemas), mapOf(s.PatternProperties)
	c.Items, c.Contains, c.AdditionalProperties = cloneSchema(s.Items, memo), cloneSchema(s.Contains, memo), cloneSchema(s.AdditionalProperties, memo)
	c.PropertyNames, c.ContentSchema = cloneSchema(s.PropertyNames, memo), cloneSchema(s.ContentSchema, memo)
	if s.Properties != nil {
		c.Properties = orderedmap.New[string, *jsonschema.Schema]()
		for p := s.Properties.Oldest(); p != nil; p = p.Next() {
			c.Properties.Set(p.Key, cloneSchema(p.Value, memo))
		}
	}
	c.Required = slices.Clone(s.Required)
	return c
}
