package mcphttp

import (
	"bytes"
	"encoding/json"
	"sync"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// A POST of revision 2026-07-28 is compared with its headers before it
// reaches a session (check2026Headers): its method, and the tool's or
// prompt's name, the resource's URI and the protocol version of its
// params. scan2026 reads them with the runtime's decoder, as views of the
// body, from a message of the shape clients send; anything else (a member
// named in another case, which encoding/json would match, a value of
// another type, an escape or invalid UTF-8 in a string it reads, malformed
// JSON) it leaves
// to parseMessage and decodeFields2026, which read the message with
// encoding/json as they always have and say what is wrong.

// scanDecoders holds the decoders of scan2026.
var scanDecoders = sync.Pool{New: func() any { return new(mcpimpl.Decoder) }}

// fields2026 is what check2026Headers compares of a request's params.
type fields2026 struct {
	name, uri, version []byte // string contents, without escapes
	hasName, hasURI    bool
	hasVersion         bool
	ok                 bool // the params were read; false when invalid
}

// scan2026 reads the envelope of body into m and its params' fields into
// f, and reports whether it could; method is the Mcp-Method header, whose
// string m.method takes when they match, to spare a copy.
func scan2026(body []byte, method string, m *message, f *fields2026) bool {
	d := scanDecoders.Get().(*mcpimpl.Decoder)
	defer func() {
		d.Reset(nil, "")
		scanDecoders.Put(d)
	}()
	*m, *f = message{}, fields2026{ok: true}
	d.Reset(body, "")
	if d.Peek() != mcpimpl.ObjectValue || !d.Object() {
		return false
	}
	version := false
	var methodView []byte
	for {
		key, more := d.Field()
		if !more {
			break
		}
		switch string(key) {
		case "jsonrpc":
			v, ok := plainStringView(d)
			if !ok {
				return false
			}
			version = string(v) == "2.0"
		case "id":
			switch d.Peek() {
			case mcpimpl.StringValue, mcpimpl.NumberValue:
				m.id, _ = d.RawView()
			default:
				return false
			}
		case "method":
			v, ok := plainStringView(d)
			if !ok || len(v) == 0 {
				return false
			}
			methodView = v
		case "params":
			if d.Peek() != mcpimpl.ObjectValue || !scanParams2026(d, f) {
				return false
			}
			m.params = d.LastView()
		default:
			if foldsTo(key, "jsonrpc", "id", "method", "params") {
				return false
			}
		}
	}
	if d.Err() != nil || !version {
		return false
	}
	if methodView != nil {
		if string(methodView) == method {
			m.method = method
		} else {
			m.method = string(methodView)
		}
	}
	return true
}

// scanParams2026 reads the params object d is at into f.
func scanParams2026(d *mcpimpl.Decoder, f *fields2026) bool {
	d.Object()
	for {
		key, more := d.Field()
		if !more {
			return true
		}
		var ok bool
		switch string(key) {
		case "name":
			f.name, ok = plainStringView(d)
			f.hasName = true
		case "uri":
			f.uri, ok = plainStringView(d)
			f.hasURI = true
		case "_meta":
			ok = d.Peek() == mcpimpl.ObjectValue && scanMeta2026(d, f)
		default:
			ok = !foldsTo(key, "name", "uri", "_meta")
		}
		if !ok {
			return false
		}
	}
}

// scanMeta2026 reads the _meta object d is at into f.
func scanMeta2026(d *mcpimpl.Decoder, f *fields2026) bool {
	d.Object()
	for {
		key, more := d.Field()
		if !more {
			return true
		}
		switch {
		case string(key) == metaProtocolVersion:
			var ok bool
			if f.version, ok = plainStringView(d); !ok {
				return false
			}
			f.hasVersion = true
		case foldsTo(key, metaProtocolVersion):
			return false
		}
	}
}

// metaProtocolVersion is the _meta key of the protocol version.
const metaProtocolVersion = "io.modelcontextprotocol/protocolVersion"

// plainStringView reads a string without escapes, as a view of the input;
// one that is not valid UTF-8, which encoding/json would change, is not
// taken either.
func plainStringView(d *mcpimpl.Decoder) ([]byte, bool) {
	if d.Peek() != mcpimpl.StringValue {
		return nil, false
	}
	raw, _ := d.RawView()
	if len(raw) < 2 || bytes.IndexByte(raw, '\\') >= 0 || !utf8.Valid(raw) {
		return nil, false
	}
	return raw[1 : len(raw)-1], true
}

// foldsTo reports whether key matches one of names without regard to
// case, as encoding/json matches a struct's members.
func foldsTo(key []byte, names ...string) bool {
	for _, n := range names {
		if bytes.EqualFold(key, []byte(n)) {
			return true
		}
	}
	return false
}

// decodeFields2026 is what scan2026 reads of params, with encoding/json.
func decodeFields2026(params []byte) fields2026 {
	var p struct {
		Name *string `json:"name"`
		URI  *string `json:"uri"`
		Meta struct {
			Version *string `json:"io.modelcontextprotocol/protocolVersion"`
		} `json:"_meta"`
	}
	var f fields2026
	if params != nil && json.Unmarshal(params, &p) != nil {
		return f // the params are invalid: the answer says so
	}
	f.ok = true
	if p.Name != nil {
		f.name, f.hasName = []byte(*p.Name), true
	}
	if p.URI != nil {
		f.uri, f.hasURI = []byte(*p.URI), true
	}
	if p.Meta.Version != nil {
		f.version, f.hasVersion = []byte(*p.Meta.Version), true
	}
	return f
}
