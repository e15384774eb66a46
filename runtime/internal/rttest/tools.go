package rttest

import (
	"context"
	"encoding/json"
	"fmt"

	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// ObjSchema is the input schema of a tool without arguments.
const ObjSchema = `{"type":"object"}`

// Tool returns a tool with the given name and handler, and no arguments.
func Tool(name string, h rt.ToolHandler) rt.Tool {
	return rt.Tool{Name: name, Description: "The " + name + " tool.", InputSchema: json.RawMessage(ObjSchema), Handler: h}
}

// EchoTool returns its argument "text"; it has one required string
// argument.
var EchoTool = rt.Tool{
	Name:        "echo",
	Description: "Echoes text.",
	InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}`),
	Handler: func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		d := mcpimpl.ArgumentsDecoder(req.Arguments)
		var text string
		has := false
		if d.Object() {
			for {
				key, ok := d.Field()
				if !ok {
					break
				}
				switch string(key) {
				case "text":
					text, has = d.String()
				default:
					d.Unknown("text")
				}
			}
			if !has {
				d.Missing("text")
			}
		}
		if err := d.Err(); err != nil {
			return nil, err
		}
		return rt.TextResult(text), nil
	},
}

// SearchTool is what mcpgen generates for search_files(pattern string,
// limit int 1..100 default 10, recursive bool), written out by hand.
func SearchTool() rt.Tool {
	return rt.Tool{
		Name:        "search_files",
		InputSchema: []byte(`{"type":"object","properties":{"pattern":{"type":"string"},"limit":{"type":"integer","minimum":1,"maximum":100,"default":10},"recursive":{"type":"boolean"}},"required":["pattern"],"additionalProperties":false}`),
		Handler: func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
			var pattern string
			limit, recursive := 10, false
			d := mcpimpl.ArgumentsDecoder(req.Arguments)
			if d.Object() {
				seen := false
				for {
					key, ok := d.Field()
					if !ok {
						break
					}
					switch string(key) {
					case "pattern":
						seen = true
						if x, ok := d.String(); ok {
							pattern = x
						}
					case "limit":
						if x, ok := d.Int(64); ok {
							if x < 1 {
								d.Invalid("must be an integer ≥ 1")
							}
							if x > 100 {
								d.Invalid("must be an integer ≤ 100")
							}
							limit = int(x)
						}
					case "recursive":
						if x, ok := d.Bool(); ok {
							recursive = x
						}
					default:
						d.Unknown("pattern, limit, recursive")
					}
				}
				if !seen {
					d.Missing("pattern")
				}
			}
			if err := d.Done(); err != nil {
				return nil, err
			}
			_ = recursive
			return rt.TextResult("found 3 files matching " + pattern + " (limit " + fmt.Sprint(limit) + ")"), nil
		},
	}
}
