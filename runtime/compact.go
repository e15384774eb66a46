package runtime

import (
	"bytes"
	"encoding/json"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// compactJSON returns raw as one line, so that it can be written inside a
// newline-delimited message. Generated code passes its schemas compact:
// those are only validated, by the runtime's own Decoder, which is several
// times faster than encoding/json at it. Anything else (a schema written
// by hand, indented) is compacted.
func compactJSON(raw []byte) ([]byte, error) {
	if !bytes.ContainsAny(raw, "\n\r") {
		d := mcpimpl.NewDecoder(raw, "")
		d.Skip()
		if err := d.Err(); err != nil {
			return nil, err
		}
		return raw, nil
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
