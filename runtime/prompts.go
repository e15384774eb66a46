package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// Prompt is a prompt template as registered with [Server.AddPrompt].
type Prompt struct {
	Name        string // unique
	Title       string // human-readable name (revision 2025-06-18+)
	Description string
	Arguments   []PromptArgument
	// Meta, if not nil, is the raw JSON object sent as _meta (revision
	// 2025-06-18+).
	Meta    json.RawMessage
	Handler PromptHandler
	// Timeout, if positive, bounds the time of a prompts/get: at the
	// deadline the handler's context ends and the client gets an internal
	// error saying the get timed out. 0 or negative: no bound.
	Timeout time.Duration
}

// PromptArgument is an argument of a prompt. Prompt arguments are strings.
type PromptArgument struct {
	Name        string
	Title       string // human-readable name (revision 2025-06-18+)
	Description string
	Required    bool
	// Complete, if not nil, completes the argument's values
	// (completion/complete).
	Complete CompleteFunc
}

// PromptHandler renders a prompt. The runtime has checked the arguments
// against the prompt's declared ones before it runs: each is a string,
// none is unknown, every required one is present.
//
// A non-nil error becomes a JSON-RPC error response: an [*Error] as it is;
// the error of a generated decoder an invalid-params error naming each bad
// argument; anything else an internal error carrying its text. A panic is
// recovered and logged.
type PromptHandler func(ctx context.Context, req *PromptRequest) (*GetPromptResult, error)

// PromptRequest is one prompts/get request. It is valid only while the
// handler runs.
type PromptRequest struct {
	// Name is the prompt's name.
	Name string
	// Arguments holds the arguments given; never nil.
	Arguments map[string]string
	// Session is the session the request came from.
	Session *Session
}

// GetPromptResult is the result of prompts/get.
type GetPromptResult struct {
	Description string
	Messages    []PromptMessage
}

// PromptMessage is one message of a prompt: Role is "user" or
// "assistant", Content any block ([TextContent], [ImageContent],
// [AudioContent], [EmbeddedResource], [ResourceLink]).
type PromptMessage struct {
	Role    string
	Content Content
}

// UserMessage returns a message from the user holding text.
func UserMessage(text string) PromptMessage {
	return PromptMessage{Role: "user", Content: TextContent{Text: text}}
}

// AssistantMessage returns a message from the assistant holding text.
func AssistantMessage(text string) PromptMessage {
	return PromptMessage{Role: "assistant", Content: TextContent{Text: text}}
}

// AddPrompt registers a prompt. It panics on a programming error: an empty
// or duplicate name, a missing handler, an argument without a name or
// declared twice, invalid Meta.
func (s *Server) AddPrompt(pr Prompt) {
	if pr.Name == "" {
		panic("runtime: AddPrompt: empty name")
	}
	if pr.Handler == nil {
		panic(fmt.Sprintf("runtime: AddPrompt %q: nil Handler", pr.Name))
	}
	seen := map[string]bool{}
	for _, a := range pr.Arguments {
		if a.Name == "" {
			panic(fmt.Sprintf("runtime: AddPrompt %q: an argument has no name", pr.Name))
		}
		if seen[a.Name] {
			panic(fmt.Sprintf("runtime: AddPrompt %q: argument %q declared twice", pr.Name, a.Name))
		}
		seen[a.Name] = true
	}
	pr.Meta = checkMeta("AddPrompt", pr.Name, pr.Meta)
	pr.Arguments = slices.Clone(pr.Arguments)
	p := &s.prims
	p.mu.Lock()
	if p.promptIndex == nil {
		p.promptIndex = map[string]*Prompt{}
	}
	if _, dup := p.promptIndex[pr.Name]; dup {
		p.mu.Unlock()
		panic(fmt.Sprintf("runtime: AddPrompt: duplicate prompt name %q", pr.Name))
	}
	np := pr
	p.prompts = append(p.prompts, &np)
	p.promptIndex[pr.Name] = &np
	p.completable += np.completers()
	p.mu.Unlock()
	s.changed(&p.promptPages, notifyPromptsListChanged)
}

// RemovePrompt removes the prompt with the given name and reports whether
// there was one.
func (s *Server) RemovePrompt(name string) bool {
	p := &s.prims
	p.mu.Lock()
	pr := p.promptIndex[name]
	if pr != nil {
		delete(p.promptIndex, name)
		p.prompts = slices.DeleteFunc(slices.Clone(p.prompts), func(x *Prompt) bool { return x == pr })
		p.completable -= pr.completers()
	}
	p.mu.Unlock()
	if pr != nil {
		s.changed(&p.promptPages, notifyPromptsListChanged)
	}
	return pr != nil
}

func (pr *Prompt) completers() int {
	n := 0
	for _, a := range pr.Arguments {
		if a.Complete != nil {
			n++
		}
	}
	return n
}

func (pr *Prompt) argNames() string {
	names := make([]string, len(pr.Arguments))
	for i, a := range pr.Arguments {
		names[i] = a.Name
	}
	return strings.Join(names, ", ")
}

func (pr *Prompt) argument(name string) *PromptArgument {
	for i := range pr.Arguments {
		if pr.Arguments[i].Name == name {
			return &pr.Arguments[i]
		}
	}
	return nil
}

func (p *primitives) prompt(name string) *Prompt {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.promptIndex[name]
}

func (p *primitives) unknownPrompt(name string) *Error {
	p.mu.RLock()
	names := make([]string, len(p.prompts))
	for i, pr := range p.prompts {
		names[i] = pr.Name
	}
	p.mu.RUnlock()
	data := appendStrings([]byte(`{"available":`), names)
	return &Error{Code: CodeInvalidParams, Message: "Unknown prompt: " + name, Data: append(data, '}')}
}

// getPrompt answers prompts/get.
func (s *Session) getPrompt(c *callContext, buf []byte) ([]byte, *Error) {
	params := c.params
	if len(params) == 0 {
		params = emptyObject
	}
	d := mcpimpl.NewDecoder(params, "params")
	var name string
	hasName := false
	var raw []byte
	args := map[string]string{}
	if d.Object() {
		for {
			key, ok := d.Field()
			if !ok {
				break
			}
			switch string(key) {
			case "name":
				name, hasName = d.String()
			case "arguments":
				if d.Peek() == mcpimpl.NullValue {
					d.Skip()
					continue
				}
				raw, _ = d.Raw()
			default:
				d.Skip()
			}
		}
	}
	if err := d.Err(); err != nil {
		return nil, invalidParams(err)
	}
	if !hasName {
		return nil, &Error{Code: CodeInvalidParams, Message: "Invalid params: params.name (the prompt name) is required"}
	}
	pr := s.srv.prims.prompt(name)
	if pr == nil {
		return nil, s.srv.prims.unknownPrompt(name)
	}
	if err := checkPromptArgs(pr, raw, args); err != nil {
		return nil, err
	}
	req := &PromptRequest{Name: pr.Name, Arguments: args, Session: s}
	res, err := runPrimTimed(s, c, pr.Timeout, "prompts/get of "+quote(pr.Name), func(ctx context.Context) (*GetPromptResult, *Error) {
		return s.srv.runPrompt(ctx, pr, req)
	}) // timeout_prims.go
	if err != nil {
		return nil, err
	}
	buf = appendResponseHead(buf, c.id)
	buf = append(buf, `"result":`...)
	buf = res.appendJSON(buf, s.rev)
	buf = endResult26(c, buf[:len(buf)-1], false) // result26.go
	return append(buf, "}}"...), nil
}

// checkPromptArgs checks the arguments of prompts/get against the
// prompt's declared ones and fills args.
func checkPromptArgs(pr *Prompt, raw []byte, args map[string]string) *Error {
	if raw == nil {
		raw = emptyObject
	}
	d := mcpimpl.NewDecoder(raw, "arguments")
	given := map[string]bool{}
	if d.Object() {
		for {
			key, ok := d.Field()
			if !ok {
				break
			}
			a := pr.argument(string(key))
			if a != nil {
				given[a.Name] = true
			}
			if a == nil {
				if len(pr.Arguments) == 0 {
					d.Violation("unknown argument (the prompt takes none)")
				} else {
					d.Violation("unknown argument (arguments: " + pr.argNames() + ")")
				}
				d.Skip()
				continue
			}
			if v, ok := d.String(); ok {
				args[a.Name] = v
			}
		}
		for _, a := range pr.Arguments {
			if !given[a.Name] && a.Required {
				d.MemberViolation(a.Name, "required argument is missing")
			}
		}
	}
	if err := d.Err(); err != nil {
		return invalidParams(err)
	}
	return nil
}

// runPrompt calls a prompt handler, turning its error or panic into an
// error response and checking what it returned.
func (srv *Server) runPrompt(ctx context.Context, pr *Prompt, req *PromptRequest) (res *GetPromptResult, rerr *Error) {
	defer srv.recoverRun("prompt", pr.Name, &rerr)
	res, err := pr.Handler(ctx, req)
	if err != nil {
		if e := missingCapability(ctx, err); e != nil {
			return nil, e
		}
		return nil, handlerError(err)
	}
	if res == nil {
		res = &GetPromptResult{}
	}
	for i, m := range res.Messages {
		if m.Role != "user" && m.Role != "assistant" {
			srv.opts.logger.Error("prompt returned a message with an invalid role", "prompt", pr.Name, "message", i, "role", m.Role)
			return nil, &Error{Code: CodeInternalError, Message: "Internal error: message " + strconv.Itoa(i) + " of the prompt has role " + strconv.Quote(m.Role) + `; want "user" or "assistant"`}
		}
	}
	return res, nil
}

func (r *GetPromptResult) appendJSON(dst []byte, rev revision) []byte {
	dst = append(dst, '{')
	if r.Description != "" {
		dst = append(dst, `"description":`...)
		dst = appendString(dst, r.Description)
		dst = append(dst, ',')
	}
	dst = append(dst, `"messages":[`...)
	for i, m := range r.Messages {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"role":`...)
		dst = appendString(dst, m.Role)
		dst = append(dst, `,"content":`...)
		dst = appendContent(dst, m.Content, rev)
		dst = append(dst, '}')
	}
	return append(dst, "]}"...)
}

// promptPage builds prompts/list pages; called with prims.mu held.
func (srv *Server) promptPage(dst []byte, rev revision, start, end int) ([]byte, int) {
	list := srv.prims.prompts
	if end < 0 {
		return dst, len(list)
	}
	dst = append(dst, `{"prompts":[`...)
	for i, pr := range list[start:end] {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"name":`...)
		dst = appendString(dst, pr.Name)
		if rev.has(featureToolTitle) {
			dst = appendOptional(dst, "title", pr.Title)
		}
		dst = appendOptional(dst, "description", pr.Description)
		if len(pr.Arguments) > 0 {
			dst = append(dst, `,"arguments":[`...)
			for j, a := range pr.Arguments {
				if j > 0 {
					dst = append(dst, ',')
				}
				dst = append(dst, `{"name":`...)
				dst = appendString(dst, a.Name)
				if rev.has(featureToolTitle) {
					dst = appendOptional(dst, "title", a.Title)
				}
				dst = appendOptional(dst, "description", a.Description)
				if a.Required {
					dst = append(dst, `,"required":true`...)
				}
				dst = append(dst, '}')
			}
			dst = append(dst, ']')
		}
		if pr.Meta != nil && rev.has(featureToolTitle) {
			dst = append(dst, `,"_meta":`...)
			dst = append(dst, pr.Meta...)
		}
		dst = append(dst, '}')
	}
	return append(dst, ']'), len(list)
}
