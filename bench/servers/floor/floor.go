// Package floor is the benchmark's floor: a hand-written MCP server serving
// search_files with a bare read, decode, validate, encode loop on one
// goroutine. Every other server in the suite does at least this much work
// per call. Command stdio serves it over stdio; command http is the floor
// over HTTP: one net/http handler doing the same work per POST, without
// sessions.
package floor

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/mcpgen/mcpgen/bench/internal/largetool"
	"github.com/mcpgen/mcpgen/bench/internal/searchtool"
)

// The floor speaks just enough MCP for the benchmark: initialize,
// notifications/initialized, ping, tools/list and tools/call of one tool. It
// is the least any stdio server has to do per message: read a line, decode
// it with encoding/json, validate the arguments, encode the answer and write
// it. One goroutine, no concurrency.

type request struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

type initializeParams struct {
	ProtocolVersion string `json:"protocolVersion"`
}

type implementation struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type initializeResult struct {
	ProtocolVersion string          `json:"protocolVersion"`
	Capabilities    json.RawMessage `json:"capabilities"`
	ServerInfo      implementation  `json:"serverInfo"`
}

type callParams struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

type textContent struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type callResult struct {
	Content           []textContent `json:"content"`
	StructuredContent any           `json:"structuredContent,omitempty"`
	IsError           bool          `json:"isError,omitempty"`
}

// searchArgs uses pointers to tell an absent property from a zero value.
type searchArgs struct {
	Pattern   *string `json:"pattern"`
	Limit     *int    `json:"limit"`
	Recursive bool    `json:"recursive"`
}

var supportedVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

var capabilities = json.RawMessage(`{"tools":{}}`)

var toolsList = json.RawMessage(`{"tools":[{"name":"` + searchtool.Name + `","description":"` + searchtool.Description + `",` +
	`"inputSchema":{"type":"object","properties":{` +
	`"pattern":{"type":"string","description":"A glob."},` +
	`"limit":{"type":"integer","minimum":1,"maximum":100,"default":10},` +
	`"recursive":{"type":"boolean"}},` +
	`"required":["pattern"],"additionalProperties":false},` +
	`"annotations":{"readOnlyHint":true}},` +
	`{"name":"` + largetool.MeasureName + `","description":"` + largetool.MeasureDescription + `",` +
	`"inputSchema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}},` +
	`{"name":"` + largetool.MakeName + `","description":"` + largetool.MakeDescription + `",` +
	`"inputSchema":{"type":"object","properties":{"size":{"type":"integer","minimum":0,"maximum":16777216}},"required":["size"],"additionalProperties":false}},` +
	`{"name":"` + largetool.ItemsName + `","description":"` + largetool.ItemsDescription + `",` +
	`"inputSchema":{"type":"object","properties":{"count":{"type":"integer","minimum":0,"maximum":100000}},"required":["count"],"additionalProperties":false},` +
	`"outputSchema":{"type":"object","properties":{"items":{"type":"array","items":{"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"}},"required":["id","name"]}}},"required":["items"]}}]}`)

var emptyObject = json.RawMessage(`{}`)

// Serve answers requests read from r on w until r reaches EOF.
func Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	br := bufio.NewReaderSize(r, 64<<10)
	enc := json.NewEncoder(w)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long := append([]byte(nil), line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if err != nil {
			if errors.Is(err, io.EOF) && len(bytes.TrimSpace(line)) == 0 {
				return nil
			}
			if !errors.Is(err, io.EOF) {
				return err
			}
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if resp, ok := handle(line); ok {
			if err := enc.Encode(resp); err != nil {
				return err
			}
		}
	}
}

// handle answers one message; ok is false for notifications.
// Handle answers one message: the response to encode as JSON, or ok false
// for a notification.
func Handle(line []byte) (resp any, ok bool) { return handle(line) }

func handle(line []byte) (resp response, ok bool) {
	resp.JSONRPC = "2.0"
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		resp.ID = json.RawMessage("null")
		resp.Error = &rpcError{-32700, "parse error: " + err.Error()}
		return resp, true
	}
	if len(req.ID) == 0 {
		return resp, false // notifications/initialized and any other notification
	}
	resp.ID = req.ID
	if req.JSONRPC != "2.0" || req.Method == "" {
		resp.Error = &rpcError{-32600, "invalid request"}
		return resp, true
	}
	switch req.Method {
	case "initialize":
		var p initializeParams
		if err := json.Unmarshal(req.Params, &p); err != nil {
			resp.Error = &rpcError{-32602, "invalid params: " + err.Error()}
			return resp, true
		}
		v := supportedVersions[0]
		for _, s := range supportedVersions {
			if s == p.ProtocolVersion {
				v = s
			}
		}
		resp.Result = initializeResult{v, capabilities, implementation{"bench-floor", "0.0.1"}}
	case "ping":
		resp.Result = emptyObject
	case "tools/list":
		resp.Result = toolsList
	case "tools/call":
		var p callParams
		if err := json.Unmarshal(req.Params, &p); err != nil {
			resp.Error = &rpcError{-32602, "invalid params: " + err.Error()}
			return resp, true
		}
		var res callResult
		var err error
		switch p.Name {
		case searchtool.Name:
			var text string
			text, err = call(p.Arguments)
			res.Content = []textContent{{"text", text}}
		case largetool.MeasureName, largetool.MakeName, largetool.ItemsName:
			res, err = callLarge(p.Name, p.Arguments)
		default:
			resp.Error = &rpcError{-32602, fmt.Sprintf("unknown tool %q", p.Name)}
			return resp, true
		}
		if err != nil {
			res = callResult{Content: []textContent{{"text", err.Error()}}, IsError: true}
		}
		resp.Result = res
	default:
		resp.Error = &rpcError{-32601, "method not found: " + req.Method}
	}
	return resp, true
}

// call validates the arguments of search_files and runs it.
func call(raw json.RawMessage) (string, error) {
	var a searchArgs
	if len(raw) > 0 && string(raw) != "null" {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&a); err != nil {
			return "", fmt.Errorf("invalid arguments: %v", err)
		}
	}
	if a.Pattern == nil {
		return "", errors.New("invalid arguments: pattern is required")
	}
	limit := searchtool.DefaultLimit
	if a.Limit != nil {
		limit = *a.Limit
		if limit < searchtool.MinLimit || limit > searchtool.MaxLimit {
			return "", fmt.Errorf("invalid arguments: limit must be between %d and %d, got %d", searchtool.MinLimit, searchtool.MaxLimit, limit)
		}
	}
	return searchtool.Result(*a.Pattern, limit, a.Recursive), nil
}

// largeArgs are the arguments of the large-message tools; pointers tell an
// absent property from a zero value.
type largeArgs struct {
	Text  *string `json:"text"`
	Size  *int    `json:"size"`
	Count *int    `json:"count"`
}

// callLarge validates the arguments of a large-message tool and runs it.
func callLarge(name string, raw json.RawMessage) (callResult, error) {
	var a largeArgs
	if len(raw) > 0 && string(raw) != "null" {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&a); err != nil {
			return callResult{}, fmt.Errorf("invalid arguments: %v", err)
		}
	}
	text := func(s string) callResult { return callResult{Content: []textContent{{"text", s}}} }
	switch name {
	case largetool.MeasureName:
		if a.Text == nil || a.Size != nil || a.Count != nil {
			return callResult{}, errors.New("invalid arguments: want text only")
		}
		return text(largetool.Measure(*a.Text)), nil
	case largetool.MakeName:
		if a.Size == nil || *a.Size < 0 || *a.Size > largetool.MaxSize || a.Text != nil || a.Count != nil {
			return callResult{}, errors.New("invalid arguments: want size in 0..16777216 only")
		}
		return text(largetool.Make(*a.Size)), nil
	}
	if a.Count == nil || *a.Count < 0 || *a.Count > largetool.MaxCount || a.Text != nil || a.Size != nil {
		return callResult{}, errors.New("invalid arguments: want count in 0..100000 only")
	}
	items := largetool.List(*a.Count)
	b, err := json.Marshal(items)
	if err != nil {
		return callResult{}, err
	}
	return callResult{Content: []textContent{{"text", string(b)}}, StructuredContent: items}, nil
}
