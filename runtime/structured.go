package runtime

import (
	"encoding/json"
	"errors"
	"reflect"
)

// errNilResult is reported when a tool returns a nil structured result.
var errNilResult = errors.New("internal error: the tool returned no result")

// Structured returns a result whose structuredContent is v as JSON, for
// hand-written tools (generated ones use an encoder of their own); when wrap is not
// empty, v (an array) becomes the property wrap of an object, since
// structuredContent must be an object. A nil map is {} and a nil slice [],
// as generated encoders write them.
func Structured(v any, wrap string) (*CallToolResult, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, errors.New("internal error: the tool's result does not encode as JSON: " + err.Error())
	}
	if string(b) == "null" {
		switch {
		case wrap != "":
			b = []byte("[]")
		case v != nil && reflect.TypeOf(v).Kind() == reflect.Map:
			b = []byte("{}")
		default:
			return nil, errNilResult
		}
	}
	if wrap != "" {
		out := appendString([]byte{'{'}, wrap)
		out = append(out, ':')
		out = append(out, b...)
		b = append(out, '}')
	}
	return StructuredResult(b), nil
}
