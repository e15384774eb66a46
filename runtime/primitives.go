package runtime

import (
	"bytes"
	"fmt"
	"runtime/debug"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// Method names of resources, prompts and completion.
const (
	methodResourcesList      = "resources/list"
	methodResourceTemplates  = "resources/templates/list"
	methodResourcesRead      = "resources/read"
	methodResourcesSubscribe = "resources/subscribe"
	methodResourcesUnsub     = "resources/unsubscribe"
	methodPromptsList        = "prompts/list"
	methodPromptsGet         = "prompts/get"
	methodComplete           = "completion/complete"

	notifyResourcesListChanged = "notifications/resources/list_changed"
	notifyResourceUpdated      = "notifications/resources/updated"
	notifyPromptsListChanged   = "notifications/prompts/list_changed"
)

// CodeResourceNotFound is the JSON-RPC error code of resources/read for a
// URI the server has no resource for.
const CodeResourceNotFound = -32002

// primitives holds a server's resources, resource templates and prompts.
type primitives struct {
	mu          sync.RWMutex
	resources   []*Resource
	resIndex    map[string]*Resource
	templates   []*ResourceTemplate // in registration order, for listing
	matchOrder  []*ResourceTemplate // most specific first, for reading
	tmplIndex   map[string]*ResourceTemplate
	prompts     []*Prompt
	promptIndex map[string]*Prompt
	completable int // prompt arguments and template variables with a Complete

	subscribe bool // WithResourceSubscriptions
	subMu     sync.Mutex
	subs      map[string]map[*Session]struct{} // URI → subscribed sessions

	resourcePages, templatePages, promptPages listCache
}

// WithResourceSubscriptions lets clients subscribe to resources
// (resources/subscribe) and advertises the capability; see
// [Server.ResourceUpdated].
func WithResourceSubscriptions() Option { return func(o *options) { o.subscribe = true } }

// hasResources reports whether resources or templates are registered.
func (p *primitives) hasResources() bool {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return len(p.resources) > 0 || len(p.templates) > 0
}

func (p *primitives) hasPrompts() bool {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return len(p.prompts) > 0
}

func (p *primitives) hasCompletions() bool {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.completable > 0
}

// appendCapabilities appends the capabilities of what the server offers
// beside tools; comma says whether a member precedes them.
func (srv *Server) appendCapabilities(b []byte, comma bool, rev revision) []byte {
	p := &srv.prims
	sep := func() {
		if comma {
			b = append(b, ',')
		}
		comma = true
	}
	if p.hasResources() {
		sep()
		b = append(b, `"resources":{`...)
		if srv.opts.subscribe {
			b = append(b, `"subscribe":true,`...)
		}
		b = append(b, `"listChanged":true}`...)
	}
	if p.hasPrompts() {
		sep()
		b = append(b, `"prompts":{"listChanged":true}`...)
	}
	if p.hasCompletions() && rev.has(featureCompletions) {
		sep()
		b = append(b, `"completions":{}`...)
	}
	return b
}

// primitiveMethods returns the methods of resources, prompts and completion
// the server answers now.
func (srv *Server) primitiveMethods() []string {
	var m []string
	if srv.prims.hasResources() {
		m = append(m, methodResourcesList, methodResourceTemplates, methodResourcesRead)
		if srv.opts.subscribe {
			m = append(m, methodResourcesSubscribe, methodResourcesUnsub)
		}
	}
	if srv.prims.hasPrompts() {
		m = append(m, methodPromptsList, methodPromptsGet)
	}
	if srv.prims.hasCompletions() {
		m = append(m, methodComplete)
	}
	return m
}

// supportedMethodsData returns the data of a "method not found" error.
func (srv *Server) supportedMethodsData() []byte {
	more := srv.primitiveMethods()
	if len(more) == 0 {
		return supportedMethods
	}
	all := append([]string{methodInitialize, methodPing, methodSetLevel, methodToolsList, methodToolsCall}, more...)
	b := appendStrings([]byte(`{"supported":`), all)
	return append(b, '}')
}

// routePrimitive answers a request for a resource, prompt or completion
// method, and reports whether m was one the server has.
func (s *Session) routePrimitive(m *message, r replier) bool {
	srv := s.srv
	var run runFunc
	switch m.method {
	case methodResourcesList, methodResourceTemplates, methodResourcesRead:
		if !srv.prims.hasResources() {
			return false
		}
	case methodResourcesSubscribe, methodResourcesUnsub:
		if !srv.prims.hasResources() || !srv.opts.subscribe {
			return false
		}
	case methodPromptsList, methodPromptsGet:
		if !srv.prims.hasPrompts() {
			return false
		}
	case methodComplete:
		if !srv.prims.hasCompletions() {
			return false
		}
	default:
		return false
	}
	if !s.initialized {
		s.replyError(r, m.id, &Error{Code: CodeInvalidRequest, Message: "Invalid Request: the session is not initialized; send initialize first"})
		return true
	}
	var res []byte
	var err *Error
	switch m.method {
	case methodResourcesList:
		res, err = s.listPage(m.params, &srv.prims.resourcePages, srv.resourcePage, "resources")
	case methodResourceTemplates:
		res, err = s.listPage(m.params, &srv.prims.templatePages, srv.templatePage, "resource templates")
	case methodPromptsList:
		res, err = s.listPage(m.params, &srv.prims.promptPages, srv.promptPage, "prompts")
	case methodResourcesSubscribe:
		res, err = s.subscribe(m.params, true)
	case methodResourcesUnsub:
		res, err = s.subscribe(m.params, false)
	case methodResourcesRead:
		run = (*Session).readResource
	case methodPromptsGet:
		run = (*Session).getPrompt
	case methodComplete:
		run = (*Session).complete
	}
	if run != nil {
		s.startRun(m, r, run)
		return true
	}
	switch {
	case err != nil:
		s.replyError(r, m.id, err)
	case m.method == methodResourcesList || m.method == methodResourceTemplates || m.method == methodPromptsList:
		s.replyPage(r, m.id, res) // list26.go
	default:
		s.replyResult(r, m.id, res)
	}
	return true
}

// A runFunc answers a request that runs like a tool call: on a goroutine
// of its own (or inline), cancellable, its panics recovered. It appends the
// whole response to buf, or returns an error to send instead.
type runFunc func(s *Session, c *callContext, buf []byte) ([]byte, *Error)

// pageBuilder appends the items of one list page, [start, end), and
// returns how many items the list has; called with end < 0 to count.
type pageBuilder func(dst []byte, rev revision, start, end int) ([]byte, int)

// listPage answers a paginated list request, of the list of what, from
// pages cached per revision in c.
func (s *Session) listPage(params []byte, c *listCache, build pageBuilder, what string) ([]byte, *Error) {
	cursor, perr := readCursor(&s.dec, params)
	if perr != nil {
		return nil, perr
	}
	pages, gen := s.srv.pages(c, s.rev, build)
	return s.srv.pageAt(pages, gen, cursor, what)
}

// pages returns the encoded pages of a list for rev and the list's
// generation, building them on first use, as toolPages does for tools.
func (srv *Server) pages(c *listCache, rev revision, build pageBuilder) ([][]byte, uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p := c.pages[rev]; p != nil {
		return p, c.gen
	}
	p := &srv.prims
	p.mu.RLock()
	defer p.mu.RUnlock()
	_, n := build(nil, rev, 0, -1)
	size := srv.opts.pageSize
	if size < 1 || size > n {
		size = max(n, 1)
	}
	var pages [][]byte
	var scratch []byte // grown by append once, to the longest page, not for every page
	for start := 0; start < n || start == 0; start += size {
		end := min(start+size, n)
		b, _ := build(scratch[:0], rev, start, end)
		if end < n {
			b = append(b, `,"nextCursor":`...)
			b = appendString(b, encodeCursor(c.gen, end))
		}
		scratch = append(b, '}')
		if rev == rev20260728 {
			pages = append(pages, srv.complete26(bytes.Clone(scratch), "complete", true)) // list26.go
		} else {
			pages = append(pages, bytes.Clone(scratch))
		}
		if end == n {
			break
		}
	}
	c.pages[rev] = pages
	return pages, c.gen
}

// recoverRun turns a panic of a handler into an internal error; what is
// the kind of handler, for the log.
func (srv *Server) recoverRun(what, name string, err **Error) {
	if p := recover(); p != nil {
		srv.opts.logger.Error(what+" panicked", what, name, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		*err = &Error{Code: CodeInternalError, Message: "Internal error: the " + what + " failed unexpectedly; the server logged the details"}
	}
}

// handlerError turns the error of a resource, prompt or completion
// handler into the error response: an [*Error] as it is, the error of a
// generated decoder (an [mcpimpl.ValidationError] or
// [mcpimpl.SyntaxError]) as invalid params, anything else as an internal
// error carrying its text.
func handlerError(err error) *Error {
	switch e := err.(type) {
	case *Error:
		return e
	case *mcpimpl.ValidationError, *mcpimpl.SyntaxError:
		return invalidParams(e)
	}
	return &Error{Code: CodeInternalError, Message: "Internal error: " + err.Error()}
}

// changed drops the cached pages of c and tells the live sessions that
// the list changed.
func (srv *Server) changed(c *listCache, notification string) {
	c.reset()
	srv.notifyAll(notification, nil, nil)
}
