// Package wire is the client side of the benchmark: it writes MCP JSON-RPC
// requests as newline-delimited JSON, reads the answers back and checks them.
// The process driver (cmd/mcpbench) and the in-process benchmarks share it so
// that every server is spoken to with exactly the same bytes.
package wire

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/mcpgen/mcpgen/bench/internal/searchtool"
)

// ProtocolVersion is the MCP revision the client asks for.
const ProtocolVersion = "2025-06-18"

// Call is one set of tools/call arguments and the text the tool must answer.
type Call struct {
	Args     string // the JSON object sent as "arguments"
	Want     string // the expected text content
	WantJSON []byte // Want as a JSON string, for FastMatch
}

// Calls are the valid calls the benchmarks cycle through: one passes every
// argument, one relies on the declared default for limit.
var Calls = []Call{
	call(`{"pattern":"*.go","limit":5,"recursive":true}`, searchtool.Result("*.go", 5, true)),
	call(`{"pattern":"**/*_test.go"}`, searchtool.Result("**/*_test.go", searchtool.DefaultLimit, false)),
}

func call(args, want string) Call {
	w, err := json.Marshal(want)
	if err != nil {
		panic(err)
	}
	return Call{Args: args, Want: want, WantJSON: w}
}

// CallFor returns the call used for request id: the benchmarks alternate
// between Calls by id.
func CallFor(id int64) Call { return Calls[id%int64(len(Calls))] }

// AppendInitialize appends an initialize request.
func AppendInitialize(b []byte, id int64) []byte {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = strconv.AppendInt(b, id, 10)
	b = append(b, `,"method":"initialize","params":{"protocolVersion":"`+ProtocolVersion+
		`","capabilities":{},"clientInfo":{"name":"mcpbench","version":"0.0.1"}}}`+"\n"...)
	return b
}

// AppendInitialized appends the notifications/initialized notification.
func AppendInitialized(b []byte) []byte {
	return append(b, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"...)
}

// AppendToolsList appends a tools/list request.
func AppendToolsList(b []byte, id int64) []byte {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = strconv.AppendInt(b, id, 10)
	return append(b, `,"method":"tools/list"}`+"\n"...)
}

// AppendCall appends a tools/call request of tool with the given arguments
// (a JSON object, written as is).
func AppendCall(b []byte, id int64, tool, args string) []byte {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = strconv.AppendInt(b, id, 10)
	b = append(b, `,"method":"tools/call","params":{"name":`...)
	b = strconv.AppendQuote(b, tool)
	b = append(b, `,"arguments":`...)
	b = append(b, args...)
	return append(b, "}}\n"...)
}

// ReadLine reads one newline-terminated message. The returned slice is only
// valid until the next read when the line fits the reader's buffer.
func ReadLine(r *bufio.Reader) ([]byte, error) { return ReadLineInto(r, nil) }

// ReadLineInto is ReadLine that gathers a line longer than r's buffer in
// long, reused, rather than in a new slice: a client reading many long
// answers then costs what reading them costs, not their allocation.
func ReadLineInto(r *bufio.Reader, long []byte) ([]byte, error) {
	line, err := r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		long := append(long[:0], line...)
		for err == bufio.ErrBufferFull {
			line, err = r.ReadSlice('\n')
			long = append(long, line...)
		}
		line = long
	}
	if err != nil {
		if len(line) > 0 && errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("unterminated message at end of stream: %.200q", line)
		}
		return nil, err
	}
	return line, nil
}

// Error is a JSON-RPC error object.
type Error struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *Error) Error() string { return fmt.Sprintf("JSON-RPC error %d: %s", e.Code, e.Message) }

// Message is any JSON-RPC message a server may write.
type Message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Result  json.RawMessage `json:"result"`
	Error   *Error          `json:"error"`
}

// IsNotification reports whether m is a server-to-client notification.
func (m *Message) IsNotification() bool { return m.Method != "" && len(m.ID) == 0 }

// IsRequest reports whether m is a server-to-client request.
func (m *Message) IsRequest() bool { return m.Method != "" && len(m.ID) > 0 }

// IDInt returns the numeric id of a response.
func (m *Message) IDInt() (int64, error) {
	id, err := strconv.ParseInt(string(m.ID), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("response id %s is not the integer the client sent", m.ID)
	}
	return id, nil
}

// ParseMessage decodes one line and checks the JSON-RPC 2.0 envelope: a
// response has an id and exactly one of result and error.
func ParseMessage(line []byte) (*Message, error) {
	var m Message
	if err := json.Unmarshal(line, &m); err != nil {
		return nil, fmt.Errorf("malformed message %.200q: %v", line, err)
	}
	if m.JSONRPC != "2.0" {
		return nil, fmt.Errorf("message without jsonrpc 2.0: %.200q", line)
	}
	if m.Method != "" {
		return &m, nil
	}
	if len(m.ID) == 0 {
		return nil, fmt.Errorf("response without id: %.200q", line)
	}
	hasResult := len(m.Result) > 0 && string(m.Result) != "null"
	if hasResult == (m.Error != nil) {
		return nil, fmt.Errorf("response must have exactly one of result and error: %.200q", line)
	}
	return &m, nil
}

// Content is one content block of a tool result.
type Content struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// CallResult is the result of tools/call.
type CallResult struct {
	Content           []Content       `json:"content"`
	IsError           bool            `json:"isError"`
	StructuredContent json.RawMessage `json:"structuredContent"`
}

// DecodeCallResult decodes the result of a tools/call response.
func DecodeCallResult(m *Message) (*CallResult, error) {
	if m.Error != nil {
		return nil, m.Error
	}
	var r CallResult
	if err := json.Unmarshal(m.Result, &r); err != nil {
		return nil, fmt.Errorf("malformed tools/call result %.200q: %v", m.Result, err)
	}
	return &r, nil
}

// CheckCall checks that r is the successful answer to c: not an error, and
// one text block holding exactly c.Want.
func CheckCall(r *CallResult, c Call) error {
	if r.IsError {
		return fmt.Errorf("call %s answered with isError: %+v", c.Args, r.Content)
	}
	if len(r.Content) != 1 || r.Content[0].Type != "text" || r.Content[0].Text != c.Want {
		return fmt.Errorf("call %s: want one text block %q, got %+v", c.Args, c.Want, r.Content)
	}
	return nil
}

// InitializeResult is the part of the initialize answer the client checks.
type InitializeResult struct {
	ProtocolVersion string `json:"protocolVersion"`
	Capabilities    struct {
		Tools *json.RawMessage `json:"tools"`
	} `json:"capabilities"`
	ServerInfo struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"serverInfo"`
}

// CheckInitialize checks an initialize response with the given id.
func CheckInitialize(m *Message, id int64) (*InitializeResult, error) {
	got, err := m.IDInt()
	if err != nil {
		return nil, err
	}
	if got != id {
		return nil, fmt.Errorf("initialize answered with id %d, want %d", got, id)
	}
	if m.Error != nil {
		return nil, fmt.Errorf("initialize failed: %w", m.Error)
	}
	var r InitializeResult
	if err := json.Unmarshal(m.Result, &r); err != nil {
		return nil, fmt.Errorf("malformed initialize result: %v", err)
	}
	if r.ProtocolVersion == "" || r.ServerInfo.Name == "" {
		return nil, fmt.Errorf("initialize result lacks protocolVersion or serverInfo: %s", m.Result)
	}
	if r.Capabilities.Tools == nil {
		return nil, errors.New("initialize result does not declare the tools capability")
	}
	return &r, nil
}

// FindID returns the id of a response line without decoding it: the
// integer after the first "id" key. It is a cheap pre-check; a caller that
// relies on it also checks the line in full now and then (see FastMatch).
func FindID(line []byte) (int64, bool) {
	i := bytes.Index(line, []byte(`"id"`))
	if i < 0 {
		return 0, false
	}
	rest := skipSpace(line[i+4:])
	if len(rest) == 0 || rest[0] != ':' {
		return 0, false
	}
	rest = skipSpace(rest[1:])
	var id int64
	j := 0
	for j < len(rest) && j < 18 && rest[j] >= '0' && rest[j] <= '9' {
		id = id*10 + int64(rest[j]-'0')
		j++
	}
	if j == 0 {
		return 0, false
	}
	if after := skipSpace(rest[j:]); len(after) == 0 || after[0] != ',' && after[0] != '}' {
		return 0, false // not a plain integer (or too long for one)
	}
	return id, true
}

func skipSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r' || b[0] == '\n') {
		b = b[1:]
	}
	return b
}

// FastMatch is the cheap check of a successful tools/call answer: the line
// is well-formed JSON, holds the expected text (JSON-encoded, quotes
// included) and has no isError set to true. A false answer proves nothing:
// the caller then decodes the line in full, which decides.
func FastMatch(line, wantJSON []byte) bool {
	if !bytes.Contains(line, wantJSON) || !json.Valid(line) {
		return false
	}
	if i := bytes.Index(line, []byte(`"isError"`)); i >= 0 {
		rest := skipSpace(line[i+9:])
		if len(rest) > 0 && rest[0] == ':' {
			rest = skipSpace(rest[1:])
		}
		if !bytes.HasPrefix(rest, []byte("false")) {
			return false
		}
	}
	return true
}

// QuickCheck is the cheap per-call check of the in-process benchmarks: the
// line carries the id and passes FastMatch. The benchmarks run the full
// checks before and after the timed loop.
func QuickCheck(line []byte, id int64, wantJSON []byte) error {
	got, ok := FindID(line)
	if !ok || got != id {
		return fmt.Errorf("want id %d in %.200q", id, line)
	}
	if !FastMatch(line, wantJSON) {
		return fmt.Errorf("want %s in %.200q", wantJSON, line)
	}
	return nil
}

// BadCase is a call the server must refuse.
type BadCase struct {
	Label string
	Tool  string
	Args  string
	// RPCError is set for the cases MCP answers with a JSON-RPC error
	// rather than a tool result with isError.
	RPCError bool
}

// BadCases are the invalid calls every server is sent.
var BadCases = []BadCase{
	{Label: `limit: "five"`, Tool: searchtool.Name, Args: `{"pattern":"*.go","limit":"five"}`},
	{Label: "pattern missing", Tool: searchtool.Name, Args: `{"limit":5}`},
	{Label: "limit: 0", Tool: searchtool.Name, Args: `{"pattern":"*.go","limit":0}`},
	{Label: "limit: 101", Tool: searchtool.Name, Args: `{"pattern":"*.go","limit":101}`},
	{Label: "unknown property", Tool: searchtool.Name, Args: `{"pattern":"*.go","depth":2}`},
	{Label: "unknown tool", Tool: "no_such_tool", Args: `{}`, RPCError: true},
}

// Classify describes how a server answered a BadCase: "isError" for a tool
// result with isError set (what MCP asks for invalid arguments), "error
// CODE" for a JSON-RPC error, "accepted (TEXT)" when it ran the tool.
func Classify(m *Message) (string, error) {
	if m.Error != nil {
		return "error " + strconv.Itoa(m.Error.Code), nil
	}
	r, err := DecodeCallResult(m)
	if err != nil {
		return "", err
	}
	if r.IsError {
		return "isError", nil
	}
	text := ""
	if len(r.Content) > 0 {
		text = r.Content[0].Text
	}
	return fmt.Sprintf("accepted (%q)", text), nil
}

// Expected is the answer MCP asks for in c.
func (c BadCase) Expected() string {
	if c.RPCError {
		return "error -32602"
	}
	return "isError"
}
