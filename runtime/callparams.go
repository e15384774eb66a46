package runtime

import (
	"bytes"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// A tools/call's params are read twice over before the tool's decoder
// reads the arguments: validated with the whole message (parseMessage),
// then searched for the name and the arguments. The search needs no second
// validation: scanToolParams finds them in the common shape with a quick
// scan of the validated text, and decodeToolParams reads params with the
// decoder where the scan does not apply, and reports what is wrong.

// scanToolParams finds the tool name and the arguments in params, which
// parseMessage validated as JSON, as decodeToolParams would: the last
// "name" and the last "arguments" that is not null. ok is false, and
// params must be decoded, when a member name or the tool name holds an
// escape, when the name is not a string, or when params is not an object.
func scanToolParams(params []byte) (name, args []byte, hasName, ok bool) {
	i := skipSpace(params, 0)
	if i >= len(params) || params[i] != '{' {
		return nil, nil, false, false
	}
	i = skipSpace(params, i+1)
	if i < len(params) && params[i] == '}' {
		return nil, nil, false, skipSpace(params, i+1) == len(params)
	}
	for {
		if i >= len(params) || params[i] != '"' {
			return nil, nil, false, false
		}
		end := skipValidString(params, i)
		if end < 0 {
			return nil, nil, false, false
		}
		key := params[i+1 : end-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			return nil, nil, false, false
		}
		i = skipSpace(params, end)
		if i >= len(params) || params[i] != ':' {
			return nil, nil, false, false
		}
		v := skipSpace(params, i+1)
		end = skipValidValue(params, v)
		if end < 0 {
			return nil, nil, false, false
		}
		switch string(key) {
		case "name":
			if params[v] != '"' {
				return nil, nil, false, false // the decoder says what is wrong
			}
			name = params[v+1 : end-1]
			if bytes.IndexByte(name, '\\') >= 0 {
				return nil, nil, false, false
			}
			hasName = true
		case "arguments":
			if params[v] != 'n' { // null: no arguments
				args = params[v:end]
			}
		}
		i = skipSpace(params, end)
		if i < len(params) && params[i] == ',' {
			i = skipSpace(params, i+1)
			continue
		}
		if i < len(params) && params[i] == '}' && skipSpace(params, i+1) == len(params) {
			return name, args, hasName, true
		}
		return nil, nil, false, false
	}
}

// decodeToolParams reads the tool name and the arguments from params with
// d, reporting what is not as tools/call has it.
func decodeToolParams(d *mcpimpl.Decoder, params []byte) (name, args []byte, hasName bool, err error) {
	d.Reset(params, "params")
	if d.Object() {
		for {
			key, ok := d.Field()
			if !ok {
				break
			}
			switch string(key) {
			case "name":
				var n []byte
				var isString bool
				if n, isString = d.StringView(); isString {
					// The view is valid until the next call on d.
					name, hasName = append(name[:0], n...), true
				}
			case "arguments":
				if d.Peek() == mcpimpl.NullValue {
					d.Skip()
				} else {
					// Anything but an object is reported to the model by
					// the tool's decoder.
					args, _ = d.RawView()
				}
			default:
				d.Skip()
			}
		}
	}
	return name, args, hasName, d.Err()
}

// skipSpace returns the offset of the first byte at or after i that is not
// JSON white space.
func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// skipValidString returns the offset after the string whose opening quote
// is at i in valid JSON, or -1 if it does not end.
func skipValidString(b []byte, i int) int {
	start := i + 1
	for i = start; ; i++ {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return -1
		}
		i += j
		escapes := 0
		for k := i - 1; k >= start && b[k] == '\\'; k-- {
			escapes++
		}
		if escapes%2 == 0 {
			return i + 1
		}
	}
}

// skipValidValue returns the offset after the value at i in valid JSON, or
// -1 if it does not end.
func skipValidValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipValidString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				if i = skipValidString(b, i); i < 0 {
					return -1
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return -1
	}
	for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && !isSpace(b[i]) {
		i++
	}
	return i
}
