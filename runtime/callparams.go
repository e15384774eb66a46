package runtime

import (
	"bytes"
	"context"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// A tools/call's name and arguments are found while the message's parse
// validates its params (readParams), whatever the method: the method may
// come after the params, and finding them costs little more than the
// validation. Where they were not found so, scanToolParams finds them in
// the common shape with a quick scan of the validated text, and
// decodeToolParams reads params with the decoder where the scan does not
// apply, and reports what is wrong.

// toolSpan is where params holds a tools/call's name (the string's content)
// and arguments, as offsets into params, so that it holds for a copy of
// params too.
type toolSpan struct {
	nameOff, nameLen int32
	argsOff, argsLen int32 // argsLen 0: no arguments, or null
	hasName          bool
	found            bool // the parse found them: the rest is valid
}

// readParams reads params that are an object, as RawView would, and finds
// the tools/call name and arguments in them, as decodeToolParams would:
// the last "name" and the last "arguments" that is not null. The span is
// not found when the name is not a string or holds an escape, or when
// params is not valid JSON. It reads their _meta into mt (meta26.go).
func readParams(d *mcpimpl.Decoder, mt *meta26) ([]byte, toolSpan) {
	*mt = meta26{level: levelOff}
	var name, args []byte
	hasName, plain := false, true
	if d.Object() {
		for {
			key, ok := d.Field()
			if !ok {
				break
			}
			switch string(key) {
			case "name":
				if d.Peek() != mcpimpl.StringValue {
					d.Skip()
					plain = false
					continue
				}
				v, _ := d.RawView()
				if len(v) < 2 || bytes.IndexByte(v, '\\') >= 0 {
					plain = false
					continue
				}
				name, hasName = v[1:len(v)-1], true
			case "arguments":
				if d.Peek() == mcpimpl.NullValue {
					d.Skip()
					continue
				}
				args, _ = d.RawView()
			default:
				readMeta26Member(d, key, mt)
			}
		}
	}
	if d.Failed() { // a syntax error, which the parse reports
		return nil, toolSpan{}
	}
	params := d.LastView()
	if !plain || len(params) > maxSpan {
		return params, toolSpan{}
	}
	t := toolSpan{hasName: hasName, found: true}
	// name and args are parts of params, whose capacity runs to the end
	// of the same input.
	if name != nil {
		t.nameOff, t.nameLen = int32(cap(params)-cap(name)), int32(len(name))
	}
	if args != nil {
		t.argsOff, t.argsLen = int32(cap(params)-cap(args)), int32(len(args))
	}
	return params, t
}

// maxSpan bounds the params whose span is kept in a toolSpan's offsets.
const maxSpan = 1<<31 - 1

// in returns the name and arguments the span finds in params.
func (t toolSpan) in(params []byte) (name, args []byte, hasName bool) {
	if t.hasName {
		name = params[t.nameOff : t.nameOff+t.nameLen]
	}
	if t.argsLen > 0 {
		args = params[t.argsOff : t.argsOff+t.argsLen]
	}
	return name, args, t.hasName
}

// toolParams finds the name and the arguments of the tools/call whose
// handler has ctx in its params: where the message's parse found them,
// else by scanToolParams. ok is false, and params must be decoded, where
// neither found them.
func toolParams(ctx context.Context, params []byte) (name, args []byte, hasName, ok bool) {
	if c, isCall := ctx.(*callContext); isCall && c.tool.found {
		name, args, hasName = c.tool.in(params)
		return name, args, hasName, true
	}
	return scanToolParams(params)
}

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
