package runtime

import (
	"encoding/json"
	"unsafe"
)

// EncodedResult is [StructuredResult] for generated code, which calls it
// with what its encoder returns: the JSON object b, or the error err.
// Generated encoders write valid JSON by construction, so the runtime does
// not check b again before sending it, as it checks the structured content
// of other results; hand-written tools use StructuredResult or
// [Structured].
func EncodedResult(b []byte, err error) (*CallToolResult, error) {
	if err != nil {
		return nil, err
	}
	r := StructuredResult(b)
	r.encoded = b
	return r, nil
}

// validStructured reports whether the structured content of r is valid
// JSON: known to be, as a generated encoder wrote it and it was not
// replaced since, or checked now.
func (r *CallToolResult) validStructured() bool {
	sc := r.StructuredContent
	if len(sc) == len(r.encoded) && unsafe.SliceData(sc) == unsafe.SliceData(r.encoded) {
		return true
	}
	return json.Valid(sc)
}
