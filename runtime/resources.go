package runtime

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// Resource is a resource with a fixed URI, as registered with
// [Server.AddResource]; it is listed by resources/list.
type Resource struct {
	URI         string // unique among resources
	Name        string // required; defaults to the URI when empty
	Title       string // human-readable name (revision 2025-06-18+)
	Description string
	MIMEType    string // the default MIME type of the contents read
	Size        int64  // in bytes, before any encoding; sent when > 0
	Annotations *Annotations
	// Meta, if not nil, is the raw JSON object sent as _meta (revision
	// 2025-06-18+).
	Meta    json.RawMessage
	Handler ResourceHandler
	// CacheHint, if not nil, is the caching hint of the resource's
	// resources/read results for clients of revision 2026-07-28, in place
	// of the server's ([WithCacheHint]).
	CacheHint *CacheHint
	// Timeout, if positive, bounds the time of a read: at the deadline
	// the handler's context ends and the client gets an internal error
	// saying the read timed out. 0 or negative: no bound.
	Timeout time.Duration
}

// ResourceTemplate is a family of resources whose URIs match an RFC 6570
// template, as registered with [Server.AddResourceTemplate]; it is listed
// by resources/templates/list. See [URITemplate] for how URIs match.
type ResourceTemplate struct {
	URITemplate string // unique among templates
	Name        string // required; defaults to the template when empty
	Title       string // human-readable name (revision 2025-06-18+)
	Description string
	MIMEType    string // the default MIME type of the contents read
	Annotations *Annotations
	// Meta, if not nil, is the raw JSON object sent as _meta (revision
	// 2025-06-18+).
	Meta    json.RawMessage
	Handler ResourceHandler
	// Complete, keyed by variable name, completes the values of the
	// template's variables (completion/complete).
	Complete map[string]CompleteFunc
	// CacheHint, if not nil, is the caching hint of the resources/read
	// results of the resources the template matches, for clients of
	// revision 2026-07-28, in place of the server's ([WithCacheHint]).
	CacheHint *CacheHint
	// Timeout, if positive, bounds the time of a read, as
	// [Resource.Timeout] does.
	Timeout time.Duration

	tmpl *URITemplate
}

// ResourceHandler reads a resource. The contents it returns with an empty
// URI are sent with the URI read, and those with an empty MIMEType with the
// resource's MIME type; the slice itself is not modified.
//
// A non-nil error becomes a JSON-RPC error response: an [*Error] as it is;
// an error wrapping [ErrResourceNotFound] the "Resource not found" error
// with the URI; the error of a generated decoder an invalid-params error
// naming each bad variable; anything else an internal error carrying its
// text. A panic is recovered and logged.
type ResourceHandler func(ctx context.Context, req *ResourceRequest) ([]ResourceContents, error)

// ErrResourceNotFound, returned (or wrapped) by a [ResourceHandler], makes
// resources/read answer "Resource not found" for the requested URI.
var ErrResourceNotFound = errors.New("resource not found")

// ResourceRequest is one resources/read request. It is valid only while
// the handler runs.
type ResourceRequest struct {
	// URI is the URI read.
	URI string
	// Template is the URI template the URI matched, or "" for a resource
	// with a fixed URI.
	Template string
	// Vars holds the values of the template's variables that the URI
	// sets, percent-decoded; nil for a fixed URI.
	Vars map[string]string
	// Session is the session the request came from.
	Session *Session
}

// ResourceContents is the contents of a resource: Text, or Blob when Blob
// is not nil (sent base64-encoded).
type ResourceContents struct {
	URI      string
	MIMEType string
	Text     string
	Blob     []byte
	// Meta, if not nil, is the raw JSON object sent as _meta (revision
	// 2025-06-18+).
	Meta json.RawMessage
}

// TextContents returns text contents of the resource read.
func TextContents(mimeType, text string) ResourceContents {
	return ResourceContents{MIMEType: mimeType, Text: text}
}

// BlobContents returns binary contents of the resource read.
func BlobContents(mimeType string, data []byte) ResourceContents {
	if data == nil {
		data = []byte{}
	}
	return ResourceContents{MIMEType: mimeType, Blob: data}
}

// AddResource registers a resource with a fixed URI. It panics on a
// programming error: an empty or duplicate URI, a URI with template
// expressions, a missing handler, invalid Meta.
func (s *Server) AddResource(r Resource) {
	if r.URI == "" {
		panic("runtime: AddResource: empty URI")
	}
	if t, err := ParseURITemplate(r.URI); err == nil && !t.IsLiteral() {
		panic(fmt.Sprintf("runtime: AddResource %q: the URI has variables; use AddResourceTemplate", r.URI))
	}
	if r.Handler == nil {
		panic(fmt.Sprintf("runtime: AddResource %q: nil Handler", r.URI))
	}
	if r.Name == "" {
		r.Name = r.URI
	}
	r.Meta = checkMeta("AddResource", r.URI, r.Meta)
	p := &s.prims
	p.mu.Lock()
	if p.resIndex == nil {
		p.resIndex = map[string]*Resource{}
	}
	if _, dup := p.resIndex[r.URI]; dup {
		p.mu.Unlock()
		panic(fmt.Sprintf("runtime: AddResource: duplicate resource URI %q", r.URI))
	}
	res := r
	p.resources = append(p.resources, &res)
	p.resIndex[r.URI] = &res
	p.mu.Unlock()
	s.changed(&p.resourcePages, notifyResourcesListChanged)
}

// RemoveResource removes the resource with the given URI and reports
// whether there was one.
func (s *Server) RemoveResource(uri string) bool {
	p := &s.prims
	p.mu.Lock()
	r := p.resIndex[uri]
	if r != nil {
		delete(p.resIndex, uri)
		p.resources = slices.DeleteFunc(slices.Clone(p.resources), func(x *Resource) bool { return x == r })
	}
	p.mu.Unlock()
	if r != nil {
		s.changed(&p.resourcePages, notifyResourcesListChanged)
	}
	return r != nil
}

// AddResourceTemplate registers a resource template. It panics on a
// programming error: a template that does not parse or has no variable, a
// duplicate template, a missing handler, a completion for a variable the
// template does not have, invalid Meta.
func (s *Server) AddResourceTemplate(t ResourceTemplate) {
	tmpl, err := ParseURITemplate(t.URITemplate)
	if err != nil {
		panic("runtime: AddResourceTemplate: " + err.Error())
	}
	if tmpl.IsLiteral() {
		panic(fmt.Sprintf("runtime: AddResourceTemplate %q: the template has no variables; use AddResource", t.URITemplate))
	}
	if t.Handler == nil {
		panic(fmt.Sprintf("runtime: AddResourceTemplate %q: nil Handler", t.URITemplate))
	}
	for name := range t.Complete {
		if !slices.Contains(tmpl.names, name) {
			panic(fmt.Sprintf("runtime: AddResourceTemplate %q: Complete names %q, which is not a variable of the template", t.URITemplate, name))
		}
	}
	if t.Name == "" {
		t.Name = t.URITemplate
	}
	t.Meta = checkMeta("AddResourceTemplate", t.URITemplate, t.Meta)
	t.Complete = maps(t.Complete)
	t.tmpl = tmpl
	p := &s.prims
	p.mu.Lock()
	if p.tmplIndex == nil {
		p.tmplIndex = map[string]*ResourceTemplate{}
	}
	if _, dup := p.tmplIndex[t.URITemplate]; dup {
		p.mu.Unlock()
		panic(fmt.Sprintf("runtime: AddResourceTemplate: duplicate resource template %q", t.URITemplate))
	}
	rt := t
	p.templates = append(p.templates, &rt)
	p.tmplIndex[t.URITemplate] = &rt
	p.completable += countCompleters(rt.Complete)
	p.sortTemplates()
	p.mu.Unlock()
	s.changed(&p.templatePages, notifyResourcesListChanged)
}

// RemoveResourceTemplate removes the template written exactly as
// uriTemplate and reports whether there was one.
func (s *Server) RemoveResourceTemplate(uriTemplate string) bool {
	p := &s.prims
	p.mu.Lock()
	t := p.tmplIndex[uriTemplate]
	if t != nil {
		delete(p.tmplIndex, uriTemplate)
		p.templates = slices.DeleteFunc(slices.Clone(p.templates), func(x *ResourceTemplate) bool { return x == t })
		p.completable -= countCompleters(t.Complete)
		p.sortTemplates()
	}
	p.mu.Unlock()
	if t != nil {
		s.changed(&p.templatePages, notifyResourcesListChanged)
	}
	return t != nil
}

func maps[V any](m map[string]V) map[string]V {
	if m == nil {
		return nil
	}
	c := make(map[string]V, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

func countCompleters(m map[string]CompleteFunc) int {
	n := 0
	for _, f := range m {
		if f != nil {
			n++
		}
	}
	return n
}

// sortTemplates orders the templates for matching, most specific first:
// the longer literal prefix, then more literal characters, then fewer
// variables, then registration order. Called with p.mu held.
func (p *primitives) sortTemplates() {
	order := slices.Clone(p.templates)
	slices.SortStableFunc(order, func(a, b *ResourceTemplate) int {
		x, y := a.tmpl, b.tmpl
		switch {
		case x.prefix != y.prefix:
			return y.prefix - x.prefix
		case x.literal != y.literal:
			return y.literal - x.literal
		}
		return len(x.names) - len(y.names)
	})
	p.matchOrder = order
}

// checkMeta compacts a _meta value, panicking unless it is a JSON object.
func checkMeta(fn, key string, meta json.RawMessage) json.RawMessage {
	if meta == nil {
		return nil
	}
	m, err := compactJSON(meta)
	if err != nil || len(m) == 0 || m[0] != '{' {
		panic(fmt.Sprintf("runtime: %s %q: Meta must be a JSON object", fn, key))
	}
	return m
}

// ResourceUpdated tells the sessions subscribed to uri (resources/subscribe)
// that the resource changed: they get notifications/resources/updated.
func (s *Server) ResourceUpdated(uri string) {
	p := &s.prims
	p.subMu.Lock()
	subs := make([]*Session, 0, len(p.subs[uri]))
	for sess := range p.subs[uri] {
		subs = append(subs, sess)
	}
	p.subMu.Unlock()
	params := appendString([]byte(`{"uri":`), uri)
	params = append(params, '}')
	s.listeners.deliver(notifyResourceUpdated, params, uri) // revision 2026-07-28 (listen.go)
	if len(subs) == 0 {
		return
	}
	for _, sess := range subs {
		if sess.closed.Load() || sess.ctx.Err() != nil {
			continue
		}
		if err := sess.Notify(notifyResourceUpdated, params); err != nil {
			s.opts.logger.Debug("notification not sent", "method", notifyResourceUpdated, "err", err)
		}
	}
}

// unsubscribeAll drops the subscriptions of a session that ended.
func (p *primitives) unsubscribeAll(s *Session) {
	p.subMu.Lock()
	defer p.subMu.Unlock()
	for uri, set := range p.subs {
		delete(set, s)
		if len(set) == 0 {
			delete(p.subs, uri)
		}
	}
}

// subscribe answers resources/subscribe (on) and resources/unsubscribe.
// Subscribing needs a URI the server can read.
func (s *Session) subscribe(params []byte, on bool) ([]byte, *Error) {
	uri, err := readURI(&s.dec, params)
	if err != nil {
		return nil, err
	}
	p := &s.srv.prims
	if on {
		if r, t, _ := p.lookup(uri); r == nil && t == nil {
			return nil, resourceNotFound(uri)
		}
	}
	p.subMu.Lock()
	defer p.subMu.Unlock()
	if on {
		if p.subs == nil {
			p.subs = map[string]map[*Session]struct{}{}
		}
		set := p.subs[uri]
		if set == nil {
			set = map[*Session]struct{}{}
			p.subs[uri] = set
		}
		set[s] = struct{}{}
	} else if set := p.subs[uri]; set != nil {
		delete(set, s)
		if len(set) == 0 {
			delete(p.subs, uri)
		}
	}
	return emptyResult, nil
}

// readURI reads the required uri of resources/read or subscribe params.
func readURI(d *mcpimpl.Decoder, params []byte) (string, *Error) {
	if len(params) == 0 {
		params = emptyObject
	}
	d.Reset(params, "params")
	uri, has := "", false
	if d.Object() {
		for {
			key, ok := d.Field()
			if !ok {
				break
			}
			if string(key) == "uri" {
				uri, has = d.String()
			} else {
				d.Skip()
			}
		}
		if !has && !d.Failed() {
			d.Missing("uri")
		}
	}
	if err := d.Err(); err != nil {
		return "", invalidParams(err)
	}
	return uri, nil
}

func resourceNotFound(uri string) *Error {
	data := appendString([]byte(`{"uri":`), uri)
	return &Error{Code: CodeResourceNotFound, Message: "Resource not found", Data: append(data, '}')}
}

// lookup finds what serves uri: a resource with that URI, else the most
// specific template that matches it, with its variables.
func (p *primitives) lookup(uri string) (*Resource, *ResourceTemplate, map[string]string) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if r := p.resIndex[uri]; r != nil {
		return r, nil, nil
	}
	for _, t := range p.matchOrder {
		if vars, ok := t.tmpl.Match(uri); ok {
			return nil, t, vars
		}
	}
	return nil, nil, nil
}

// readResource answers resources/read.
func (s *Session) readResource(c *callContext, buf []byte) (resp []byte, rerr *Error) {
	uri, perr := readURI(new(mcpimpl.Decoder), c.params)
	if perr != nil {
		return nil, perr
	}
	res, tmpl, vars := s.srv.prims.lookup(uri)
	if res == nil && tmpl == nil {
		return nil, resourceNotFound(uri)
	}
	req := &ResourceRequest{URI: uri, Vars: vars, Session: s}
	handler, mime, name, hint, timeout := ResourceHandler(nil), "", uri, (*CacheHint)(nil), time.Duration(0)
	if res != nil {
		handler, mime, hint, timeout = res.Handler, res.MIMEType, res.CacheHint, res.Timeout
	} else {
		handler, mime, name, hint, timeout = tmpl.Handler, tmpl.MIMEType, tmpl.URITemplate, tmpl.CacheHint, tmpl.Timeout
		req.Template = tmpl.URITemplate
	}
	contents, err := runPrimTimed(s, c, timeout, "resources/read of "+quote(uri), func(ctx context.Context) ([]ResourceContents, *Error) {
		return s.srv.runResource(ctx, name, handler, req)
	}) // timeout_prims.go
	if err != nil {
		return nil, err
	}
	buf = appendResponseHead(buf, c.id)
	buf = append(buf, `"result":{"contents":[`...)
	for i := range contents {
		if i > 0 {
			buf = append(buf, ',')
		}
		rc := contents[i] // a copy: the handler may share its slice
		if rc.URI == "" {
			rc.URI = uri
		}
		if rc.MIMEType == "" {
			rc.MIMEType = mime
		}
		buf = rc.appendJSON(buf, s.rev)
	}
	buf = append(buf, ']')
	buf = readCacheHint(c, buf, hint)
	buf = endResult26(c, buf, hint == nil) // result26.go
	return append(buf, "}}"...), nil
}

// runResource calls a resource handler, turning its error or panic into
// an error response.
func (srv *Server) runResource(ctx context.Context, name string, h ResourceHandler, req *ResourceRequest) (out []ResourceContents, rerr *Error) {
	defer srv.recoverRun("resource", name, &rerr)
	out, err := h(ctx, req)
	if err != nil {
		if errors.Is(err, ErrResourceNotFound) {
			return nil, resourceNotFound(req.URI)
		}
		if e := missingCapability(ctx, err); e != nil {
			return nil, e
		}
		return nil, handlerError(err)
	}
	for i := range out {
		if m := out[i].Meta; m != nil && !json.Valid(m) {
			srv.opts.logger.Error("resource returned invalid _meta", "resource", name)
			return nil, &Error{Code: CodeInternalError, Message: "Internal error: the resource handler produced invalid _meta"}
		}
	}
	return out, nil
}

func (rc *ResourceContents) appendJSON(dst []byte, rev revision) []byte {
	dst = append(dst, `{"uri":`...)
	dst = appendString(dst, rc.URI)
	dst = appendOptional(dst, "mimeType", rc.MIMEType)
	if rc.Blob != nil {
		dst = append(dst, `,"blob":"`...)
		dst = base64.StdEncoding.AppendEncode(dst, rc.Blob)
		dst = append(dst, '"')
	} else {
		dst = append(dst, `,"text":`...)
		dst = appendString(dst, rc.Text)
	}
	if rc.Meta != nil && rev.has(featureToolTitle) {
		dst = append(dst, `,"_meta":`...)
		dst = append(dst, rc.Meta...)
	}
	return append(dst, '}')
}

// appendDescriptor appends the members shared by resources and templates.
func appendDescriptor(dst []byte, rev revision, name, title, desc, mime string, ann *Annotations, meta []byte) []byte {
	dst = append(dst, `,"name":`...)
	dst = appendString(dst, name)
	if title != "" && rev.has(featureToolTitle) {
		dst = appendOptional(dst, "title", title)
	}
	dst = appendOptional(dst, "description", desc)
	dst = appendOptional(dst, "mimeType", mime)
	dst = ann.appendJSON(dst, rev)
	if meta != nil && rev.has(featureToolTitle) {
		dst = append(dst, `,"_meta":`...)
		dst = append(dst, meta...)
	}
	return dst
}

// resourcePage builds resources/list pages; called with prims.mu held.
func (srv *Server) resourcePage(dst []byte, rev revision, start, end int) ([]byte, int) {
	list := srv.prims.resources
	if end < 0 {
		return dst, len(list)
	}
	dst = append(dst, `{"resources":[`...)
	for i, r := range list[start:end] {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"uri":`...)
		dst = appendString(dst, r.URI)
		dst = appendDescriptor(dst, rev, r.Name, r.Title, r.Description, r.MIMEType, r.Annotations, r.Meta)
		if r.Size > 0 {
			dst = append(dst, `,"size":`...)
			dst = strconv.AppendInt(dst, r.Size, 10)
		}
		dst = append(dst, '}')
	}
	return append(dst, ']'), len(list)
}

// templatePage builds resources/templates/list pages; called with
// prims.mu held.
func (srv *Server) templatePage(dst []byte, rev revision, start, end int) ([]byte, int) {
	list := srv.prims.templates
	if end < 0 {
		return dst, len(list)
	}
	dst = append(dst, `{"resourceTemplates":[`...)
	for i, t := range list[start:end] {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"uriTemplate":`...)
		dst = appendString(dst, t.URITemplate)
		dst = appendDescriptor(dst, rev, t.Name, t.Title, t.Description, t.MIMEType, t.Annotations, t.Meta)
		dst = append(dst, '}')
	}
	return append(dst, ']'), len(list)
}
