package runtime

import (
	"context"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// maxCompletions is the most values completion/complete may return.
const maxCompletions = 100

// CompleteFunc completes the value of a prompt argument or a resource
// template variable: it returns the candidates for req.Value, best first.
// The runtime sends at most 100 of them, with the total count. Errors are
// handled as a [PromptHandler]'s are.
type CompleteFunc func(ctx context.Context, req *CompleteRequest) ([]string, error)

// CompleteRequest is one completion/complete request. It is valid only
// while the CompleteFunc runs.
type CompleteRequest struct {
	// Prompt is the name of the prompt whose argument is completed, or "".
	Prompt string
	// URITemplate is the template whose variable is completed, or "".
	URITemplate string
	// Argument is the name of the argument or variable.
	Argument string
	// Value is what the user has typed so far.
	Value string
	// Context holds the values of the other arguments already resolved
	// (revision 2025-06-18+); never nil.
	Context map[string]string
	// Session is the session the request came from.
	Session *Session
}

// EnumCompletion returns a CompleteFunc offering, in order, the values
// that start with what the user typed, ignoring case.
func EnumCompletion(values ...string) CompleteFunc {
	values = append([]string(nil), values...)
	return func(_ context.Context, req *CompleteRequest) ([]string, error) {
		var out []string
		for _, v := range values {
			if len(v) >= len(req.Value) && strings.EqualFold(v[:len(req.Value)], req.Value) {
				out = append(out, v)
			}
		}
		return out, nil
	}
}

// complete answers completion/complete.
func (s *Session) complete(c *callContext, buf []byte) ([]byte, *Error) {
	params := c.params
	if len(params) == 0 {
		params = emptyObject
	}
	d := mcpimpl.NewDecoder(params, "params")
	req := &CompleteRequest{Context: map[string]string{}, Session: s}
	var refType, refName string
	hasRef, hasArg, hasArgName := false, false, false
	if d.Object() {
		for {
			key, ok := d.Field()
			if !ok {
				break
			}
			switch string(key) {
			case "ref":
				hasRef = true
				refType, refName = readRef(d)
			case "argument":
				hasArg = true
				if d.Object() {
					hasValue := false
					for {
						k, ok := d.Field()
						if !ok {
							break
						}
						switch string(k) {
						case "name":
							req.Argument, hasArgName = d.String()
						case "value":
							req.Value, hasValue = d.String()
						default:
							d.Skip()
						}
					}
					if !hasArgName {
						d.Missing("name")
					}
					if !hasValue {
						d.Missing("value")
					}
				}
			case "context":
				if !s.rev.has(featureCompletionContext) || !d.Object() {
					d.Skip()
					continue
				}
				for {
					k, ok := d.Field()
					if !ok {
						break
					}
					if string(k) != "arguments" || !d.Object() {
						d.Skip()
						continue
					}
					for {
						name, ok := d.Field()
						if !ok {
							break
						}
						n := string(name)
						if v, ok := d.String(); ok {
							req.Context[n] = v
						}
					}
				}
			default:
				d.Skip()
			}
		}
		if !hasRef {
			d.Missing("ref")
		}
		if !hasArg {
			d.Missing("argument")
		}
	}
	if err := d.Err(); err != nil {
		return nil, invalidParams(err)
	}
	p := &s.srv.prims
	var fn CompleteFunc
	switch refType {
	case "ref/prompt":
		pr := p.prompt(refName)
		if pr == nil {
			return nil, p.unknownPrompt(refName)
		}
		a := pr.argument(req.Argument)
		if a == nil {
			return nil, &Error{Code: CodeInvalidParams, Message: "Invalid params: prompt " + strconv.Quote(pr.Name) + " has no argument " + strconv.Quote(req.Argument) + " (arguments: " + pr.argNames() + ")"}
		}
		req.Prompt, fn = pr.Name, a.Complete
	case "ref/resource":
		p.mu.RLock()
		t := p.tmplIndex[refName]
		p.mu.RUnlock()
		if t == nil {
			return nil, p.unknownTemplate(refName)
		}
		found := false
		for _, n := range t.tmpl.names {
			found = found || n == req.Argument
		}
		if !found {
			return nil, &Error{Code: CodeInvalidParams, Message: "Invalid params: resource template " + strconv.Quote(t.URITemplate) + " has no variable " + strconv.Quote(req.Argument) + " (variables: " + strings.Join(t.tmpl.names, ", ") + ")"}
		}
		req.URITemplate, fn = t.URITemplate, t.Complete[req.Argument]
	default:
		return nil, &Error{Code: CodeInvalidParams, Message: `Invalid params: ref.type must be "ref/prompt" or "ref/resource", got ` + strconv.Quote(refType)}
	}
	var values []string
	if fn != nil {
		var err *Error
		if values, err = s.srv.runComplete(c, fn, req); err != nil {
			return nil, err
		}
	}
	buf = appendResponseHead(buf, c.id)
	buf = append(buf, `"result":{"completion":{"values":`...)
	total := len(values)
	if total > maxCompletions {
		values = values[:maxCompletions]
	}
	if values == nil {
		values = []string{}
	}
	buf = appendStrings(buf, values)
	buf = append(buf, `,"total":`...)
	buf = strconv.AppendInt(buf, int64(total), 10)
	buf = append(buf, `,"hasMore":`...)
	buf = appendBool(buf, total > maxCompletions)
	buf = endResult26(c, append(buf, '}'), false) // result26.go
	return append(buf, "}}"...), nil
}

// readRef reads the ref of completion/complete: its type and its name
// (prompt) or uri (resource).
func readRef(d *mcpimpl.Decoder) (typ, name string) {
	if !d.Object() {
		return "", ""
	}
	hasName := false
	for {
		k, ok := d.Field()
		if !ok {
			break
		}
		switch string(k) {
		case "type":
			typ, _ = d.String()
		case "name", "uri":
			name, hasName = d.String()
		default:
			d.Skip()
		}
	}
	if !hasName {
		switch typ {
		case "ref/prompt":
			d.Missing("name")
		case "ref/resource":
			d.Missing("uri")
		}
	}
	return typ, name
}

func (p *primitives) unknownTemplate(uri string) *Error {
	p.mu.RLock()
	names := make([]string, len(p.templates))
	for i, t := range p.templates {
		names[i] = t.URITemplate
	}
	p.mu.RUnlock()
	data := appendStrings([]byte(`{"available":`), names)
	return &Error{Code: CodeInvalidParams, Message: "Unknown resource template: " + uri, Data: append(data, '}')}
}

// runComplete calls a CompleteFunc, turning its error or panic into an
// error response.
func (srv *Server) runComplete(ctx context.Context, fn CompleteFunc, req *CompleteRequest) (out []string, rerr *Error) {
	name := req.Prompt + req.URITemplate + " " + req.Argument
	defer srv.recoverRun("completion", name, &rerr)
	out, err := fn(ctx, req)
	if err != nil {
		return nil, handlerError(err)
	}
	return out, nil
}
