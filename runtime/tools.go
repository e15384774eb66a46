package runtime

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// Tool is a tool as registered with [Server.AddTool].
type Tool struct {
	Name        string // unique; 1 to 128 of A-Z a-z 0-9 _ - .
	Title       string // human-readable name (revision 2025-06-18+)
	Description string
	// InputSchema is the JSON Schema of the arguments, a JSON object.
	InputSchema json.RawMessage
	// OutputSchema, if not nil, is the JSON Schema of StructuredContent
	// (revision 2025-06-18+).
	OutputSchema json.RawMessage
	Annotations  *ToolAnnotations
	Handler      ToolHandler
	// Timeout, if positive, bounds the time of a call (see
	// [WithToolTimeout], the server's default, which 0 keeps); a negative
	// Timeout means no bound.
	Timeout time.Duration
}

// ToolAnnotations are hints about a tool's behaviour (revision 2025-03-26+).
// A nil field is not sent.
type ToolAnnotations struct {
	ReadOnlyHint    *bool
	DestructiveHint *bool
	IdempotentHint  *bool
	OpenWorldHint   *bool
}

// ToolHandler runs a tool. A non-nil error becomes an isError result
// carrying the error's text (the model reads it and may retry), except an
// [*Error], which becomes a JSON-RPC error response.
type ToolHandler func(ctx context.Context, req *ToolRequest) (*CallToolResult, error)

// ToolRequest is one tools/call request. It is valid only while the handler
// runs.
type ToolRequest struct {
	// Name is the tool's name.
	Name string
	// Arguments is the raw JSON of the arguments; nil when the client sent
	// none or null.
	Arguments []byte
	// Session is the session the call came from.
	Session *Session

	dec mcpimpl.Decoder // reads params
}

var toolRequests = sync.Pool{New: func() any { return new(ToolRequest) }}

// Bool returns a pointer to b, for [ToolAnnotations].
func Bool(b bool) *bool { return &b }

// listCache holds encoded tools/list pages per revision; reset when the
// tools change. Each reset starts a new generation, which cursors carry, so
// that a cursor into an older list is refused rather than answered with a
// page of the new one.
type listCache struct {
	mu    sync.Mutex
	gen   uint64
	pages [len(revisions)][][]byte
}

func (c *listCache) reset() {
	c.mu.Lock()
	c.gen++
	c.pages = [len(revisions)][][]byte{}
	c.mu.Unlock()
}

// toolPages returns the encoded tools/list results for rev, building them on
// first use, and the generation of the list they show.
func (s *Server) toolPages(rev revision) ([][]byte, uint64) {
	s.lists.mu.Lock()
	defer s.lists.mu.Unlock()
	gen := s.lists.gen
	if p := s.lists.pages[rev]; p != nil {
		return p, gen
	}
	s.mu.RLock()
	tools := s.tools
	s.mu.RUnlock()
	size := s.opts.pageSize
	if size < 1 || size > len(tools) {
		size = max(len(tools), 1)
	}
	var pages [][]byte
	for start := 0; start < len(tools) || start == 0; start += size {
		end := min(start+size, len(tools))
		// Sized up front: grown by append, a page of 100 large tools was
		// copied some 25 times over, five times its size in garbage.
		n := len(`{"tools":[],"nextCursor":""}`) + 32
		if rev == rev20260728 {
			n += 256 + len(s.name) + len(s.version) + len(s.opts.title)
		}
		for _, t := range tools[start:end] {
			n += t.sizeHint()
		}
		cursor := ""
		if end < len(tools) {
			cursor = encodeCursor(gen, end)
		}
		b := make([]byte, 0, n)
		if rev == rev20260728 {
			b = s.appendPageStart26(b, cursor) // list26.go
			b = append(b, `"tools":[`...)
		} else {
			b = append(b, `{"tools":[`...)
		}
		for i, t := range tools[start:end] {
			if i > 0 {
				b = append(b, ',')
			}
			b = t.appendJSON(b, rev)
		}
		b = append(b, ']')
		switch {
		case rev == rev20260728:
			b = s.appendPageEnd26(b)
		case cursor != "":
			b = append(b, `,"nextCursor":`...)
			b = append(appendString(b, cursor), '}')
		default:
			b = append(b, '}')
		}
		pages = append(pages, b)
		if end == len(tools) {
			break
		}
	}
	s.lists.pages[rev] = pages
	return pages, gen
}

// sizeHint is about the length of t's JSON in a list, at least as long
// unless its strings need escapes.
func (t *Tool) sizeHint() int {
	n := len(`{"name":"","title":"","description":"","inputSchema":,"outputSchema":}`) + len(t.Name) + len(t.Title) + len(t.Description) + len(t.InputSchema) + len(t.OutputSchema)
	if t.Annotations != nil {
		n += len(`,"annotations":{"readOnlyHint":false,"destructiveHint":false,"idempotentHint":false,"openWorldHint":false}`)
	}
	return n + 1 // its comma
}

func (t *Tool) appendJSON(dst []byte, rev revision) []byte {
	dst = append(dst, `{"name":`...)
	dst = appendString(dst, t.Name)
	if t.Title != "" && rev.has(featureToolTitle) {
		dst = append(dst, `,"title":`...)
		dst = appendString(dst, t.Title)
	}
	if t.Description != "" {
		dst = append(dst, `,"description":`...)
		dst = appendString(dst, t.Description)
	}
	dst = append(dst, `,"inputSchema":`...)
	dst = append(dst, t.InputSchema...)
	if t.OutputSchema != nil && rev.has(featureStructuredContent) {
		dst = append(dst, `,"outputSchema":`...)
		dst = append(dst, t.OutputSchema...)
	}
	if a := t.Annotations; a != nil && rev.has(featureToolAnnotations) {
		dst = append(dst, `,"annotations":{`...)
		n := 0
		for _, h := range [...]struct {
			key string
			v   *bool
		}{{"readOnlyHint", a.ReadOnlyHint}, {"destructiveHint", a.DestructiveHint}, {"idempotentHint", a.IdempotentHint}, {"openWorldHint", a.OpenWorldHint}} {
			if h.v == nil {
				continue
			}
			if n > 0 {
				dst = append(dst, ',')
			}
			n++
			dst = appendString(dst, h.key)
			dst = append(dst, ':')
			dst = appendBool(dst, *h.v)
		}
		dst = append(dst, '}')
	}
	return append(dst, '}')
}

// Cursors are opaque to clients; inside they are a base64 list offset and
// the generation of the list.
func encodeCursor(gen uint64, offset int) string {
	b := strconv.AppendInt([]byte("o"), int64(offset), 10)
	b = strconv.AppendUint(append(b, 'g'), gen, 10)
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeCursor(c string) (gen uint64, offset int, ok bool) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || len(b) < 2 || b[0] != 'o' {
		return 0, 0, false
	}
	off, g, found := strings.Cut(string(b[1:]), "g")
	if !found {
		return 0, 0, false
	}
	n, err1 := strconv.Atoi(off)
	gen, err2 := strconv.ParseUint(g, 10, 64)
	return gen, n, err1 == nil && err2 == nil && n > 0
}

// listTools answers tools/list.
func (s *Session) listTools(params []byte) ([]byte, *Error) {
	cursor, perr := readCursor(&s.dec, params)
	if perr != nil {
		return nil, perr
	}
	pages, gen := s.srv.toolPages(s.rev)
	return s.srv.pageAt(pages, gen, cursor, "tools")
}

// pageAt returns the page of a list that cursor points to, the first for
// "". pages show generation gen of the list of what ("tools"); a cursor
// from another generation is refused, not answered with a page of a list
// it was not issued for.
func (srv *Server) pageAt(pages [][]byte, gen uint64, cursor, what string) ([]byte, *Error) {
	if cursor == "" {
		return pages[0], nil
	}
	cgen, off, ok := decodeCursor(cursor)
	size := srv.opts.pageSize
	if !ok || size < 1 || off%size != 0 || cgen > gen || cgen == gen && off/size >= len(pages) {
		return nil, &Error{Code: CodeInvalidParams, Message: "Invalid params: invalid cursor"}
	}
	if cgen != gen {
		return nil, &Error{Code: CodeInvalidParams, Message: "Invalid params: the list of " + what + " changed since this cursor was issued; list again without a cursor"}
	}
	return pages[off/size], nil
}

// readCursor reads the cursor of a list request's params.
func readCursor(d *mcpimpl.Decoder, params []byte) (string, *Error) {
	if params == nil {
		return "", nil
	}
	d.Reset(params, "params")
	var cursor string
	if d.Object() {
		for {
			key, ok := d.Field()
			if !ok {
				break
			}
			if string(key) == "cursor" && d.Peek() != mcpimpl.NullValue {
				cursor, _ = d.String()
			} else {
				d.Skip()
			}
		}
	}
	if err := d.Err(); err != nil {
		return "", invalidParams(err)
	}
	return cursor, nil
}

// callTool answers tools/call; it runs on its own goroutine.
func (s *Session) callTool(ctx context.Context, params []byte, buf []byte, id []byte) ([]byte, *Error) {
	req := toolRequests.Get().(*ToolRequest)
	abandoned := false // the handler runs on past its timeout and owns req
	defer func() {
		if abandoned {
			return
		}
		req.Name, req.Arguments, req.Session = "", nil, nil
		req.dec.Reset(nil, "") // a pooled request must not keep the arguments alive
		toolRequests.Put(req)
	}()
	if len(params) == 0 {
		params = emptyObject // absent or null: no name
	}
	name, args, hasName, ok := toolParams(ctx, params) // callparams.go
	if !ok {
		var err error
		name, args, hasName, err = decodeToolParams(&req.dec, params)
		if err != nil {
			return nil, invalidParams(err)
		}
	}
	req.Arguments = args
	if !hasName {
		return nil, &Error{Code: CodeInvalidParams, Message: "Invalid params: params.name (the tool name) is required"}
	}
	s.srv.mu.RLock()
	tool := s.srv.index[string(name)]
	s.srv.mu.RUnlock()
	if tool == nil {
		return nil, s.srv.unknownTool(string(name))
	}
	req.Name = tool.Name
	req.Session = s
	res, err, abandoned := s.runToolTimed(ctx, tool, req) // timeout.go
	if err != nil {
		if e, ok := err.(*Error); ok {
			return nil, e
		}
		if e := missingCapability(ctx, err); e != nil {
			return nil, e
		}
		res = ErrorResult(err.Error())
	}
	if res == nil {
		res = &CallToolResult{}
	}
	if res.StructuredContent != nil && !res.validStructured() {
		s.srv.opts.logger.Error("tool returned invalid structured content", "tool", tool.Name)
		res = ErrorResult("internal error: the tool produced invalid structured output")
	}
	buf = appendResponseHead(buf, id)
	buf = append(buf, `"result":`...)
	buf = s.appendCallResult(ctx, buf, res) // result26.go
	return append(buf, '}'), nil
}

// runTool calls the handler, turning a panic into an isError result.
func runTool(ctx context.Context, srv *Server, tool *Tool, req *ToolRequest) (res *CallToolResult, err error) {
	defer func() {
		if p := recover(); p != nil {
			srv.opts.logger.Error("tool panicked", "tool", tool.Name, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			res, err = ErrorResult("internal error: the tool failed unexpectedly; the server logged the details"), nil
		}
	}()
	return tool.Handler(ctx, req)
}

func (s *Server) unknownTool(name string) *Error {
	s.mu.RLock()
	names := make([]string, len(s.tools))
	for i, t := range s.tools {
		names[i] = t.Name
	}
	s.mu.RUnlock()
	data := appendStrings([]byte(`{"available":`), names)
	return &Error{Code: CodeInvalidParams, Message: "Unknown tool: " + name, Data: append(data, '}')}
}

var emptyObject = []byte("{}")
