package main

import (
	"context"

	"github.com/mcpgen/mcpgen/runtime"
)

// schema2020 is an input schema in the JSON Schema 2020-12 vocabulary
// ($schema, $defs, $anchor, $ref, allOf/anyOf, if/then/else,
// additionalProperties) that a server must list verbatim (SEP-1613). mcpgen
// derives schemas from Go types and writes none of these keywords, so the
// tool that carries it is registered by hand.
const schema2020 = `{
	"$schema": "https://json-schema.org/draft/2020-12/schema",
	"type": "object",
	"$defs": {
		"address": {
			"$anchor": "addressDef",
			"type": "object",
			"properties": {"street": {"type": "string"}, "city": {"type": "string"}}
		}
	},
	"properties": {
		"name": {"type": "string"},
		"address": {"$ref": "#/$defs/address"},
		"contactMethod": {"type": "string", "enum": ["phone", "email"]},
		"phone": {"type": "string"},
		"email": {"type": "string"}
	},
	"allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
	"if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
	"then": {"required": ["phone"]},
	"else": {"required": ["email"]},
	"additionalProperties": false
}`

// addJSONSchemaTool registers json_schema_2020_12_tool, which echoes its
// arguments.
func addJSONSchemaTool(s *runtime.Server) {
	s.AddTool(runtime.Tool{
		Name:        "json_schema_2020_12_tool",
		Description: "A tool whose input schema uses JSON Schema 2020-12 keywords",
		InputSchema: []byte(schema2020),
		Annotations: &runtime.ToolAnnotations{ReadOnlyHint: runtime.Bool(true)},
		Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.CallToolResult, error) {
			args := string(req.Arguments)
			if args == "" {
				args = "{}"
			}
			return runtime.TextResult("JSON Schema 2020-12 tool called with: " + args), nil
		},
	})
}
