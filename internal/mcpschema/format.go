package mcpschema

import (
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// uriTemplateFormat checks "format": "uri-template" by RFC 6570. The
// validator's own check parses the template as a URL first, which rejects
// templates with an expression in the host, such as notes://{id}, that
// RFC 6570 and the MCP SDKs accept.
var uriTemplateFormat = &jsonschema.Format{
	Name: "uri-template",
	Validate: func(v any) error {
		s, ok := v.(string)
		if !ok {
			return nil
		}
		_, err := runtime.ParseURITemplate(s)
		return err
	},
}
