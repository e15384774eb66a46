package runtime

import (
	"strconv"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// appendString appends s to dst as a JSON string. Invalid UTF-8 becomes
// U+FFFD, as encoding/json does, so the output is always valid JSON.
func appendString(dst []byte, s string) []byte { return mcpimpl.AppendString(dst, s) }

// quote returns s as a JSON string, for messages that quote input.
func quote(s string) string { return string(appendString(nil, s)) }

// appendStrings appends ss as a JSON array of strings.
func appendStrings(dst []byte, ss []string) []byte {
	dst = append(dst, '[')
	for i, s := range ss {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(dst, s)
	}
	return append(dst, ']')
}

// appendBool appends b as a JSON boolean.
func appendBool(dst []byte, b bool) []byte {
	return strconv.AppendBool(dst, b)
}
