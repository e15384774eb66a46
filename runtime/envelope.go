package runtime

import (
	"bytes"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// Nearly every message a client sends has the same envelope: a flat
// object of "jsonrpc":"2.0", an integer or plain string id, a method name
// and an object of params, each once, with plain member names. parseCommon
// reads that shape with a byte scan, and leaves the params, the only part
// of any size, to the decoder, which validates them; it gives up on
// anything else (an escape, a response, an unknown member, a number that is
// not a plain integer, a byte outside printable ASCII in a name or a
// string), which parseMessage then reads with the decoder alone, reporting
// what is wrong. What it accepts is valid JSON, read as parseMessage reads
// it.

// Members of the common envelope, as bits of what parseCommon has seen.
const (
	envJSONRPC = 1 << iota
	envID
	envMethod
	envParams
)

// parseCommon reads a message of the common envelope into m and reports
// whether it did; when it did not, m holds no meaning.
func parseCommon(d *mcpimpl.Decoder, data []byte, m *message) bool {
	*m = message{}
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return false
	}
	seen := 0
	for {
		i = skipSpace(data, i+1)
		key, end := plainString(data, i)
		if end < 0 {
			return false
		}
		i = skipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return false
		}
		i = skipSpace(data, i+1)
		var bit int
		switch string(key) {
		case "jsonrpc":
			bit = envJSONRPC
			if !bytes.HasPrefix(data[i:], []byte(`"2.0"`)) {
				return false
			}
			end = i + len(`"2.0"`)
		case "id":
			bit = envID
			if i < len(data) && data[i] == '"' {
				_, end = plainString(data, i)
			} else {
				end = plainInteger(data, i)
			}
			if end < 0 {
				return false
			}
			m.id = data[i:end]
		case "method":
			bit = envMethod
			var name []byte
			if name, end = plainString(data, i); end < 0 || len(name) == 0 {
				return false
			}
			m.method = internMethod(name)
		case "params":
			bit = envParams
			if i >= len(data) || data[i] != '{' {
				return false
			}
			d.Reset(data[i:], "")
			m.params, m.tool = readParams(d, &m.meta) // callparams.go
			if d.Failed() {
				return false
			}
			end = i + len(m.params)
		default:
			return false
		}
		if seen&bit != 0 {
			return false // a member given twice: the decoder takes the last
		}
		seen |= bit
		i = skipSpace(data, end)
		if i < len(data) && data[i] == ',' {
			continue
		}
		if i >= len(data) || data[i] != '}' || skipSpace(data, i+1) != len(data) {
			return false
		}
		return seen&(envJSONRPC|envMethod) == envJSONRPC|envMethod
	}
}

// plainString returns the content of the string whose opening quote is at
// i and the offset after its closing quote, or -1 if it is not a string
// of printable ASCII without escapes.
func plainString(data []byte, i int) ([]byte, int) {
	if i >= len(data) || data[i] != '"' {
		return nil, -1
	}
	for j := i + 1; j < len(data); j++ {
		switch c := data[j]; {
		case c == '"':
			return data[i+1 : j], j + 1
		case c < 0x20 || c == '\\' || c >= 0x80:
			return nil, -1
		}
	}
	return nil, -1
}

// plainInteger returns the offset after the JSON integer at i, without
// fraction or exponent, or -1 if there is none.
func plainInteger(data []byte, i int) int {
	if i < len(data) && data[i] == '-' {
		i++
	}
	start := i
	for i < len(data) && data[i] >= '0' && data[i] <= '9' {
		i++
	}
	switch {
	case i == start, i-start > 1 && data[start] == '0':
		return -1
	case i < len(data) && (data[i] == '.' || data[i] == 'e' || data[i] == 'E'):
		return -1
	}
	return i
}
