package mcphttp

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/runtime"
)

// Header names of the Streamable HTTP transport in revision 2026-07-28,
// which mirror the message's method and target for intermediaries.
const (
	headerMethod = "Mcp-Method"
	headerName   = "Mcp-Name"
)

// post2026 answers a POST of revision 2026-07-28. Such a request stands
// alone (the revision has no sessions), so it is answered as a stateless
// server answers, with a session of its own, whether or not the server
// keeps sessions for older clients. The Mcp-Method and Mcp-Name headers
// and the MCP-Protocol-Version header must match the body; a mismatch is
// answered with 400 Bad Request and a HeaderMismatch error.
func (h *httpHandler) post2026(w http.ResponseWriter, req *http.Request, body []byte) {
	if data := trimSpace(body); data[0] == '[' {
		httpError(w, http.StatusBadRequest, runtime.CodeInvalidRequest, "Bad Request: protocol revision 2026-07-28 has no JSON-RPC batches")
		return
	}
	var m message
	var f fields2026
	if !scan2026(body, req.Header.Get(headerMethod), &m, &f) { // scan2026.go
		if err := parseMessage(body, &m); err != nil {
			httpError(w, http.StatusBadRequest, err.Code, err.Message)
			return
		}
		f = decodeFields2026(m.params)
	}
	if m.method != "" && m.id != nil { // a request: the headers must match it
		if e := check2026Headers(req.Header, &m, &f); e != nil {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			w.Write(appendError(nil, m.id, e))
			return
		}
		if !h.srv.Answers(m.method) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			w.Write(appendError(nil, m.id, &runtime.Error{Code: runtime.CodeMethodNotFound, Message: "Method not found: " + m.method}))
			return
		}
	}
	h.postStateless(w, req, body, rev20260728)
}

// check2026Headers compares the standard request headers with the request
// m, whose params say f.
func check2026Headers(hdr http.Header, m *message, f *fields2026) *runtime.Error {
	mismatch := func(msg string) *runtime.Error {
		return &runtime.Error{Code: runtime.CodeHeaderMismatch, Message: "Header mismatch: " + msg}
	}
	method := hdr.Get(headerMethod)
	switch {
	case method == "":
		return mismatch("the " + headerMethod + " header is required")
	case method != m.method:
		return mismatch(headerMethod + " header value " + quote(method) + " does not match body value " + quote(m.method))
	}
	if !f.ok {
		return nil // the params are invalid: the answer says so
	}
	if v := f.version; f.hasVersion && string(v) != hdr.Get(headerProtocolVersion) {
		return mismatch(headerProtocolVersion + " header value " + quote(hdr.Get(headerProtocolVersion)) + " does not match body value " + quote(string(v)))
	}
	var want []byte
	switch m.method {
	case "tools/call", "prompts/get":
		if !f.hasName {
			return nil // the params are invalid: the answer says so
		}
		want = f.name
	case "resources/read":
		if !f.hasURI {
			return nil // the params are invalid: the answer says so
		}
		want = f.uri
	default:
		return nil
	}
	vals := hdr.Values(headerName)
	if len(vals) != 1 {
		return mismatch("one " + headerName + " header is required for " + m.method)
	}
	got, ok := decodeHeaderValue(vals[0])
	if !ok {
		return mismatch(headerName + " header value " + quote(vals[0]) + " is malformed")
	}
	if got != string(want) {
		return mismatch(headerName + " header value " + quote(got) + " does not match body value " + quote(string(want)))
	}
	return nil
}

// decodeHeaderValue decodes a header value that may use the Base64
// sentinel encoding =?base64?…?=.
func decodeHeaderValue(v string) (string, bool) {
	if inner, ok := strings.CutPrefix(v, "=?base64?"); ok {
		inner, ok = strings.CutSuffix(inner, "?=")
		if !ok {
			return "", false
		}
		b, err := base64.StdEncoding.DecodeString(inner)
		if err != nil || !utf8.Valid(b) {
			return "", false
		}
		return string(b), true
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x20 || c > 0x7e {
			return "", false
		}
	}
	return v, true
}

// badRequest2026 reports whether resp is one of the error responses that
// revision 2026-07-28 sends with 400 Bad Request over HTTP: header
// mismatch, missing client capability, unsupported protocol version.
func badRequest2026(resp []byte) bool {
	if !bytes.Contains(resp, []byte(`"error":{"code":-3202`)) {
		return false
	}
	var r struct {
		Error *struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal(resp, &r) != nil || r.Error == nil {
		return false
	}
	switch r.Error.Code {
	case runtime.CodeHeaderMismatch, runtime.CodeMissingClientCapability, runtime.CodeUnsupportedProtocolVersion:
		return true
	}
	return false
}
