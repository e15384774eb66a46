package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// schema is the part of a JSON Schema that the reference and the
// compatibility check read.
type schema struct {
	Ref         string             `json:"$ref"`
	Defs        map[string]*schema `json:"$defs"`
	Type        types              `json:"type"`
	Title       string             `json:"title"`
	Description string             `json:"description"`
	Format      string             `json:"format"`
	Properties  properties         `json:"properties"`
	Required    []string           `json:"required"`
	// AdditionalProperties is false, true or a schema; nil when absent.
	AdditionalProperties json.RawMessage   `json:"additionalProperties"`
	Items                *schema           `json:"items"`
	Enum                 []json.RawMessage `json:"enum"`
	Const                json.RawMessage   `json:"const"`
	Default              json.RawMessage   `json:"default"`
	Pattern              string            `json:"pattern"`
	MultipleOf           *json.Number      `json:"multipleOf"`
	UniqueItems          bool              `json:"uniqueItems"`
	AnyOf                []*schema         `json:"anyOf"`
	OneOf                []*schema         `json:"oneOf"`

	// Bounds, by keyword: minimum, maximum, exclusiveMinimum,
	// exclusiveMaximum, minLength, maxLength, minItems, maxItems,
	// minProperties, maxProperties.
	Minimum          *json.Number `json:"minimum"`
	Maximum          *json.Number `json:"maximum"`
	ExclusiveMinimum *json.Number `json:"exclusiveMinimum"`
	ExclusiveMaximum *json.Number `json:"exclusiveMaximum"`
	MinLength        *json.Number `json:"minLength"`
	MaxLength        *json.Number `json:"maxLength"`
	MinItems         *json.Number `json:"minItems"`
	MaxItems         *json.Number `json:"maxItems"`
}

// types is the "type" keyword: one name or a list.
type types []string

// UnmarshalJSON reads a type name or a list of them.
func (t *types) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '[' {
		return json.Unmarshal(b, (*[]string)(t))
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*t = types{s}
	return nil
}

// property is one member of "properties".
type property struct {
	Name   string
	Schema *schema
}

// properties keeps the members of "properties" in their order, which is
// the Go struct's field order.
type properties []property

// UnmarshalJSON reads an object of schemas in member order.
func (p *properties) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return fmt.Errorf("properties must be an object")
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		var s schema
		if err := dec.Decode(&s); err != nil {
			return err
		}
		*p = append(*p, property{Name: tok.(string), Schema: &s})
	}
	return nil
}

func (p properties) get(name string) *schema {
	for _, q := range p {
		if q.Name == name {
			return q.Schema
		}
	}
	return nil
}

func parseSchema(raw json.RawMessage) (*schema, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	var s schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// resolve follows a "$ref" into root's "$defs".
func resolve(root, s *schema) *schema {
	for i := 0; s != nil && s.Ref != "" && i < 32; i++ {
		name, ok := strings.CutPrefix(s.Ref, "#/$defs/")
		if !ok || root == nil || root.Defs[name] == nil {
			return s
		}
		s = root.Defs[name]
	}
	return s
}

func (s *schema) requires(name string) bool {
	for _, r := range s.Required {
		if r == name {
			return true
		}
	}
	return false
}

// closed reports whether the object admits no properties but those listed.
func (s *schema) closed() bool {
	return bytes.Equal(bytes.TrimSpace(s.AdditionalProperties), []byte("false"))
}

// typeName describes the schema's type for a reader: "string",
// "array of integer", "object", "string or null", "any".
func typeName(root, s *schema) string {
	s = resolve(root, s)
	if s == nil {
		return "any"
	}
	if len(s.Type) == 0 {
		switch {
		case s.Ref != "":
			return strings.TrimPrefix(s.Ref, "#/$defs/")
		case len(s.AnyOf) > 0 || len(s.OneOf) > 0:
			var alts []string
			for _, a := range append(append([]*schema(nil), s.AnyOf...), s.OneOf...) {
				alts = append(alts, typeName(root, a))
			}
			return strings.Join(alts, " or ")
		}
		return "any"
	}
	names := make([]string, len(s.Type))
	for i, t := range s.Type {
		if t == "array" && s.Items != nil {
			t = "array of " + typeName(root, s.Items)
		}
		names[i] = t
	}
	return strings.Join(names, " or ")
}
