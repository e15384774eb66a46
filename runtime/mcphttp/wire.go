package mcphttp

import (
	"encoding/json"
	"slices"
	"strconv"
	"sync"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// JSON-RPC, as far as the transport writes and reads it itself: errors
// it answers before a message reaches a session, and the envelope of a
// message it must route.

// message is the envelope of one JSON-RPC message.
type message struct {
	id     json.RawMessage // nil in a notification
	method string
	params json.RawMessage
}

// parseMessage reads the envelope of one JSON-RPC message (not a batch);
// it fails as the session would answer it, with a parse error or an
// invalid request.
func parseMessage(data []byte, m *message) *runtime.Error {
	var env struct {
		JSONRPC *string         `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  json.RawMessage `json:"method"`
		Params  json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(data, &env); err != nil {
		if _, ok := err.(*json.SyntaxError); ok || !json.Valid(data) {
			return &runtime.Error{Code: runtime.CodeParseError, Message: "Parse error: " + err.Error()}
		}
		return &runtime.Error{Code: runtime.CodeInvalidRequest, Message: "Invalid Request: a message must be a JSON object"}
	}
	*m = message{}
	if id := env.ID; len(id) > 0 && (id[0] == '"' || id[0] == '-' || id[0] >= '0' && id[0] <= '9') {
		m.id = id
	} else if len(id) > 0 {
		return &runtime.Error{Code: runtime.CodeInvalidRequest, Message: "Invalid Request: id must be a string or a number"}
	}
	if env.JSONRPC == nil || *env.JSONRPC != "2.0" {
		return &runtime.Error{Code: runtime.CodeInvalidRequest, Message: `Invalid Request: jsonrpc must be "2.0"`}
	}
	if env.Method != nil {
		var method string // not m.method: m would escape to the heap
		if json.Unmarshal(env.Method, &method) != nil {
			return &runtime.Error{Code: runtime.CodeInvalidRequest, Message: "Invalid Request: method must be a string"}
		}
		m.method = method
		if m.method == "" {
			return &runtime.Error{Code: runtime.CodeInvalidRequest, Message: "Invalid Request: method must not be empty"}
		}
	}
	switch p := env.Params; {
	case len(p) == 0 || p[0] == 'n':
	case p[0] == '{' || p[0] == '[':
		m.params = p
	default:
		return &runtime.Error{Code: runtime.CodeInvalidRequest, Message: "Invalid Request: params must be an object"}
	}
	return nil
}

// appendError appends an error response with the given id (raw JSON), or
// with a null id when id is nil.
func appendError(dst, id []byte, e *runtime.Error) []byte {
	dst = append(dst, `{"jsonrpc":"2.0","id":`...)
	if id == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, id...)
	}
	dst = append(dst, `,"error":{"code":`...)
	dst = strconv.AppendInt(dst, int64(e.Code), 10)
	dst = append(dst, `,"message":`...)
	dst = mcpimpl.AppendString(dst, e.Message)
	if len(e.Data) > 0 {
		dst = append(dst, `,"data":`...)
		dst = append(dst, e.Data...)
	}
	return append(dst, "}}"...)
}

// quote returns s as a JSON string, for messages that quote input.
func quote(s string) string { return string(mcpimpl.AppendString(nil, s)) }

// headerRevision reads the MCP-Protocol-Version header: a supported
// revision, or 2025-03-26 when absent, as the specification says.
func headerRevision(v string) (string, bool) {
	if v == "" {
		return rev20250326, true
	}
	return v, slices.Contains(versions, v)
}

// versions are the protocol revisions the server speaks, oldest first.
var versions = runtime.SupportedVersions()

// The protocol revisions the transport tells apart.
const (
	rev20250326 = "2025-03-26"
	rev20251125 = "2025-11-25"
	rev20260728 = "2026-07-28"
)

// unsupportedVersion is the error for a protocol version the server does
// not speak, listing those it does, newest first.
func unsupportedVersion(v string) *runtime.Error {
	vs := runtime.SupportedVersions()
	slices.Reverse(vs)
	data, _ := json.Marshal(struct {
		Supported []string `json:"supported"`
		Requested string   `json:"requested"`
	}{vs, v})
	return &runtime.Error{Code: runtime.CodeUnsupportedProtocolVersion, Message: "Unsupported protocol version: " + strconv.Quote(v), Data: data}
}

// trimSpace trims JSON white space.
func trimSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

var bufferPool = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

func getBuffer() *[]byte { return bufferPool.Get().(*[]byte) }

func putBuffer(b *[]byte) {
	if cap(*b) > 1<<20 {
		return // let large buffers go
	}
	*b = (*b)[:0]
	bufferPool.Put(b)
}
