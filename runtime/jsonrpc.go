package runtime

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// JSON-RPC 2.0 error codes.
const (
	CodeParseError     = -32700 // the message is not valid JSON
	CodeInvalidRequest = -32600 // the message is not a valid request
	CodeMethodNotFound = -32601 // the method does not exist
	CodeInvalidParams  = -32602 // the params are invalid, or the tool is unknown
	CodeInternalError  = -32603 // the server failed
)

// Error is a JSON-RPC error. A [ToolHandler] that returns an *Error gets a
// protocol error response instead of an isError tool result.
type Error struct {
	Code    int
	Message string
	// Data, if not nil, is the raw JSON of the error's data member.
	Data json.RawMessage
}

// Error returns the message with its code.
func (e *Error) Error() string {
	return "jsonrpc error " + strconv.Itoa(e.Code) + ": " + e.Message
}

// NewError returns an *Error with the given code and message, and data
// marshaled as JSON when it is not nil.
func NewError(code int, message string, data any) *Error {
	e := &Error{Code: code, Message: message}
	if data != nil {
		if b, err := json.Marshal(data); err == nil {
			e.Data = b
		}
	}
	return e
}

// message is one decoded JSON-RPC message. Raw fields alias the buffer the
// message was read from: they are valid until the transport reuses it.
type message struct {
	id     []byte // raw JSON id; nil for a notification
	method string
	params []byte   // raw JSON params; nil if absent
	result []byte   // raw JSON result of a response
	err    []byte   // raw JSON error of a response
	tool   toolSpan // where params has a tools/call's name and arguments (callparams.go)
	meta   meta26   // what params._meta says, as far as the parse read it (meta26.go)
}

func (m *message) isRequest() bool      { return m.method != "" && m.id != nil }
func (m *message) isNotification() bool { return m.method != "" && m.id == nil }

// parseMessage decodes one JSON-RPC message (not a batch) from data. On
// failure it returns an *Error (parse error or invalid request) and, for an
// invalid request, whatever id it could read, so that the error response
// can carry it.
func parseMessage(d *mcpimpl.Decoder, data []byte, m *message) *Error {
	if parseCommon(d, data, m) { // envelope.go
		return nil
	}
	return parseDecoded(d, data, m)
}

// parseDecoded is parseMessage with the decoder alone.
func parseDecoded(d *mcpimpl.Decoder, data []byte, m *message) *Error {
	d.Reset(data, "")
	*m = message{}
	version := false
	if !d.Object() {
		if d.Err() != nil {
			if _, ok := d.Err().(*mcpimpl.SyntaxError); ok {
				return &Error{Code: CodeParseError, Message: "Parse error: " + d.Err().Error()}
			}
		}
		return &Error{Code: CodeInvalidRequest, Message: "Invalid Request: a message must be a JSON object"}
	}
	var bad string
	for {
		key, ok := d.Field()
		if !ok {
			break
		}
		switch string(key) {
		case "jsonrpc":
			if v, ok := d.StringView(); ok && string(v) == "2.0" {
				version = true
			}
		case "id":
			switch d.Peek() {
			case mcpimpl.StringValue, mcpimpl.NumberValue:
				m.id, _ = d.RawView()
			default:
				d.Skip()
				bad = "id must be a string or a number"
			}
		case "method":
			if d.Peek() != mcpimpl.StringValue {
				d.Skip()
				bad = "method must be a string"
				continue
			}
			b, _ := d.StringView()
			m.method = internMethod(b)
			if m.method == "" {
				bad = "method must not be empty"
			}
		case "params":
			switch d.Peek() {
			case mcpimpl.ObjectValue:
				m.params, m.tool = readParams(d, &m.meta)
			case mcpimpl.ArrayValue:
				m.params, _ = d.RawView()
			case mcpimpl.NullValue:
				d.Skip()
			default:
				d.Skip()
				bad = "params must be an object"
			}
		case "result":
			m.result, _ = d.RawView()
		case "error":
			m.err, _ = d.RawView()
		default:
			d.Skip()
		}
	}
	if err := d.Err(); err != nil {
		if _, ok := err.(*mcpimpl.SyntaxError); ok {
			m.id = nil // not JSON: JSON-RPC answers a parse error with a null id
			return &Error{Code: CodeParseError, Message: "Parse error: " + err.Error()}
		}
	}
	switch {
	case bad != "":
	case !version:
		bad = `jsonrpc must be "2.0"`
	case m.method == "" && m.result == nil && m.err == nil:
		bad = "a message needs a method (request or notification) or a result or error (response)"
	case m.method == "" && m.id == nil:
		bad = "a response needs an id"
	}
	if bad != "" {
		return &Error{Code: CodeInvalidRequest, Message: "Invalid Request: " + bad}
	}
	return nil
}

// internMethod returns the method name, without allocating for the
// methods the runtime knows.
func internMethod(b []byte) string {
	switch string(b) {
	case methodToolsCall:
		return methodToolsCall
	case methodToolsList:
		return methodToolsList
	case methodPing:
		return methodPing
	case methodInitialize:
		return methodInitialize
	case notifyInitialized:
		return notifyInitialized
	case notifyCancelled:
		return notifyCancelled
	}
	return string(b)
}

// appendResponseHead appends the start of a response: {"jsonrpc":"2.0","id":ID,
func appendResponseHead(dst, id []byte) []byte {
	dst = append(dst, `{"jsonrpc":"2.0","id":`...)
	if id == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, id...)
	}
	return append(dst, ',')
}

// appendResult appends a whole response with a raw JSON result.
func appendResult(dst, id, result []byte) []byte {
	dst = appendResponseHead(dst, id)
	dst = append(dst, `"result":`...)
	dst = append(dst, result...)
	return append(dst, '}')
}

// appendError appends a whole error response.
func appendError(dst, id []byte, e *Error) []byte {
	dst = appendResponseHead(dst, id)
	dst = append(dst, `"error":{"code":`...)
	dst = strconv.AppendInt(dst, int64(e.Code), 10)
	dst = append(dst, `,"message":`...)
	dst = appendString(dst, e.Message)
	if len(e.Data) > 0 {
		dst = append(dst, `,"data":`...)
		dst = append(dst, e.Data...)
	}
	return append(dst, "}}"...)
}

// appendNotification appends a whole notification with raw JSON params.
func appendNotification(dst []byte, method string, params []byte) []byte {
	dst = append(dst, `{"jsonrpc":"2.0","method":`...)
	dst = appendString(dst, method)
	if params != nil {
		dst = append(dst, `,"params":`...)
		dst = append(dst, params...)
	}
	return append(dst, '}')
}

// invalidParams turns the error of decoding a request's params into an
// invalid-params error that names each problem.
func invalidParams(err error) *Error {
	msg := err.Error()
	if v, ok := err.(*mcpimpl.ValidationError); ok {
		msg = strings.Join(v.Violations, "; ")
	}
	return &Error{Code: CodeInvalidParams, Message: "Invalid params: " + msg}
}
