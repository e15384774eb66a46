package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Revision 2026-07-28 has no initialize: every request carries the
// protocol version, the client's capabilities and its identity in
// params._meta, and every result says what it is (resultType) and who
// answers (_meta serverInfo). A session answers such requests as long as it
// was not initialized with an older revision; one server thus answers
// clients of every revision, on every transport.

// The _meta keys of revision 2026-07-28.
const (
	metaProtocolVersion = "io.modelcontextprotocol/protocolVersion"
	metaClientCaps      = "io.modelcontextprotocol/clientCapabilities"
	metaClientInfo      = "io.modelcontextprotocol/clientInfo"
	metaLogLevel        = "io.modelcontextprotocol/logLevel"
	metaServerInfo      = "io.modelcontextprotocol/serverInfo"
	metaSubscriptionID  = "io.modelcontextprotocol/subscriptionId"
)

// Methods of revision 2026-07-28.
const (
	methodDiscover = "server/discover"
	methodListen   = "subscriptions/listen"
)

// Error codes of revision 2026-07-28.
const (
	// CodeHeaderMismatch: an HTTP header (Mcp-Method, Mcp-Name,
	// MCP-Protocol-Version) disagrees with the message body.
	CodeHeaderMismatch = -32020
	// CodeMissingClientCapability: the request needs a client capability
	// the request's _meta did not declare.
	CodeMissingClientCapability = -32021
	// CodeUnsupportedProtocolVersion: the request's protocol version is not
	// one the server speaks; the data lists those it does.
	CodeUnsupportedProtocolVersion = -32022
)

// The cache scopes of list and read results (revision 2026-07-28).
const (
	CachePublic  = "public"  // holds no user-specific data: shared caches may keep it
	CachePrivate = "private" // may be cached within one authorization context only
)

// cacheHint is what list and read results say about caching them.
type cacheHint struct {
	ttlMs int64
	scope string
}

// WithCacheHint sets the caching hint of the server's list results
// (tools/list, prompts/list, resources/list, resources/templates/list),
// resources/read and server/discover for clients of revision 2026-07-28:
// how long a client may keep a result (ttl, rounded down to milliseconds)
// and who may share it (CachePublic or CachePrivate). The default is 0 and
// CachePrivate: a result is stale at once and never shared. A resource or
// template may set the hint of its own reads ([Resource.CacheHint]); a tool
// cannot (see [CacheHint]).
func WithCacheHint(ttl time.Duration, scope string) Option {
	return func(o *options) {
		if scope != CachePublic {
			scope = CachePrivate
		}
		o.cache = cacheHint{ttlMs: max(ttl.Milliseconds(), 0), scope: scope}
	}
}

// cacheable reports whether the result of method carries ttlMs and
// cacheScope.
func cacheable(method string) bool {
	switch method {
	case methodToolsList, methodPromptsList, methodResourcesList, methodResourceTemplates, methodResourcesRead, methodDiscover:
		return true
	}
	return false
}

// removedIn2026 are the methods revision 2026-07-28 dropped.
func removedIn2026(method string) bool {
	switch method {
	case methodInitialize, methodPing, methodSetLevel, methodResourcesSubscribe, methodResourcesUnsub:
		return true
	}
	return false
}

// request26 is one request of revision 2026-07-28: what its _meta said,
// and the replier that turns its answer into a 2026-07-28 result. It wraps
// the transport's replier.
type request26 struct {
	r      replier
	s      *Session
	method string

	// c is the context of the request's call: allocated with the request
	// for one that runs as a call (call26), else made when it runs as one
	// (takeCall); nil for a request answered at once.
	c *callContext

	// The raw capabilities and clientInfo, read only when a handler asks
	// for them, are where the request's params hold them: the call's
	// params, which it holds until it is answered; in *own when the
	// params do not hold them as they are (decodeMeta26 read them).
	capsAt, infoAt metaSpan
	own            *[]byte

	level LogLevel // levelOff without logLevel

	// mrtr is the multi round-trip state of a request that has one
	// (hasState26): made when its handler first asks for input, or when
	// the request is a retry (state).
	mrtr atomic.Pointer[mrtrState]

	declared declaredCaps // the capabilities the request declares
	capStore capStore     // what its Capabilities point to

	// written is set when the result was written complete, as revision
	// 2026-07-28 has it, by its encoder (see appendCallResult); the
	// goroutine that writes it replies.
	written bool
}

// metaSpan is where a request's params (or own) hold a raw _meta value,
// as offsets, so that it holds for a copy of the params too.
type metaSpan struct{ off, n uint32 }

// spanIn returns where params holds v, and reports false when v is not a
// part of params.
func spanIn(params, v []byte) (metaSpan, bool) {
	if len(v) == 0 {
		return metaSpan{}, true
	}
	off := cap(params) - cap(v)
	if len(params) > maxSpan || off < 0 || off+len(v) > len(params) || &params[off] != &v[0] {
		return metaSpan{}, false
	}
	return metaSpan{uint32(off), uint32(len(v))}, true
}

// call26 is a request of revision 2026-07-28 that runs as a call (see
// runs26): the request and the context of its call in one allocation, so
// that such a request costs what a call of an older revision costs.
type call26 struct {
	q request26
	c callContext
}

// runs26 reports whether a request of method runs as a call (startRun),
// which outlasts the handling of its message.
func runs26(method string) bool {
	switch method {
	case methodToolsCall, methodPromptsGet, methodResourcesRead, methodComplete, methodListen:
		return true
	}
	return false
}

// hasState26 reports whether a request of method has multi round-trip
// state.
func hasState26(method string) bool {
	switch method {
	case methodToolsCall, methodPromptsGet, methodResourcesRead:
		return true
	}
	return false
}

// newRequest26 allocates the request m, answered through r, whose _meta
// says mt. A request that runs as a call gets its call's context in the
// same allocation.
func (s *Session) newRequest26(m *message, r replier, mt *meta26) *request26 {
	var q *request26
	if runs26(m.method) {
		qc := new(call26)
		q, qc.q.c = &qc.q, &qc.c
	} else {
		q = new(request26)
	}
	q.r, q.s, q.method, q.level = r, s, m.method, mt.level
	var inCaps, inInfo bool
	q.capsAt, inCaps = spanIn(m.params, mt.caps)
	q.infoAt, inInfo = spanIn(m.params, mt.info)
	if !inCaps || !inInfo { // read by decodeMeta26
		own := append(append(make([]byte, 0, len(mt.caps)+len(mt.info)), mt.caps...), mt.info...)
		q.own = &own
		q.capsAt, q.infoAt = metaSpan{0, uint32(len(mt.caps))}, metaSpan{uint32(len(mt.caps)), uint32(len(mt.info))}
	}
	if mt.capsRead {
		q.declared = mt.declared
	} else if len(mt.caps) > 0 {
		q.declared = capsDeclared(mt.caps)
	}
	q.declared.store(&q.capStore)
	return q
}

// capsDeclared returns the capabilities raw declares, as
// parseClientCapabilities reads them.
func capsDeclared(raw []byte) declaredCaps {
	var st capStore
	caps := parseCapsInto(raw, &st)
	return declaredCaps{
		sampling: caps.Sampling != nil, samplingContext: st.sampling.Context, samplingTools: st.sampling.Tools,
		elicitation: caps.Elicitation != nil, form: st.elicitation.Form, url: st.elicitation.URL,
		roots: caps.Roots != nil, listChanged: st.roots.ListChanged,
	}
}

// takeCall returns the context for the call answering through r: the one
// allocated with its request, or a new one.
func takeCall(r replier) *callContext {
	q, ok := r.(*request26)
	if !ok {
		return new(callContext)
	}
	if q.c == nil {
		q.c = new(callContext) // a request not expected to run as a call (runs26)
	}
	return q.c
}

// state returns the multi round-trip state of the request, which must
// have one (hasState26), making it on first use.
func (q *request26) state() *mrtrState {
	if st := q.mrtr.Load(); st != nil {
		return st
	}
	q.mrtr.CompareAndSwap(nil, &mrtrState{method: q.method})
	return q.mrtr.Load()
}

// capabilities returns the capabilities the request declares, pointing
// into it; Raw is left out (see rawMeta).
func (q *request26) capabilities() Capabilities {
	var caps Capabilities
	q.declared.point(&caps, &q.capStore)
	return caps
}

// rawMeta calls f with the raw capabilities and clientInfo of the
// request, aliasing its params: nil once its call is answered, which
// releases them, and for a request that is not a call.
func (q *request26) rawMeta(f func(caps, info []byte)) {
	if q.own != nil {
		own := *q.own
		f(own[q.capsAt.off:][:q.capsAt.n], own[q.infoAt.off:][:q.infoAt.n])
		return
	}
	if q.c == nil {
		f(nil, nil)
		return
	}
	q.c.mu.Lock()
	defer q.c.mu.Unlock()
	var caps, info []byte
	if p := q.c.params; p != nil {
		if q.capsAt.n > 0 {
			caps = p[q.capsAt.off:][:q.capsAt.n]
		}
		if q.infoAt.n > 0 {
			info = p[q.infoAt.off:][:q.infoAt.n]
		}
	}
	f(caps, info)
}

// info returns what the request's clientInfo says; self-reported, for
// display only, so what does not read as an Implementation is left out.
func (q *request26) info() Implementation {
	var info Implementation
	q.rawMeta(func(_, raw []byte) {
		if len(raw) > 0 {
			_ = json.Unmarshal(raw, &info)
		}
	})
	return info
}

// decodeMeta26 reads params._meta with encoding/json, for the shapes the
// parse of a message leaves to it (meta26.go).
func decodeMeta26(params []byte) (meta26, *Error) {
	mt := meta26{level: levelOff}
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return mt, &Error{Code: CodeInvalidParams, Message: "Invalid params: " + err.Error()}
	}
	if raw, ok := p.Meta[metaProtocolVersion]; ok {
		if json.Unmarshal(raw, &mt.version) != nil {
			return mt, &Error{Code: CodeInvalidParams, Message: "Invalid params: params._meta[" + strconv.Quote(metaProtocolVersion) + "] must be a string"}
		}
		mt.hasVersion = true
	}
	mt.caps = p.Meta[metaClientCaps]
	mt.info = p.Meta[metaClientInfo]
	if raw, ok := p.Meta[metaLogLevel]; ok {
		var name string
		_ = json.Unmarshal(raw, &name)
		lvl, ok := parseLogLevel(name)
		if !ok {
			return mt, &Error{Code: CodeInvalidParams, Message: "Invalid params: params._meta[" + strconv.Quote(metaLogLevel) + "] " + string(raw) + " is not a log level"}
		}
		mt.level = lvl
	}
	return mt, nil
}

// parseLogLevel returns the level named name.
func parseLogLevel(name string) (LogLevel, bool) {
	for l := LevelDebug; l <= LevelEmergency; l++ {
		if l.String() == name {
			return l, true
		}
	}
	return levelOff, false
}

// unsupportedVersion is the error for a request of a version the server
// does not speak.
func unsupportedVersion(v string) *Error {
	data := []byte(`{"supported":`)
	vs := SupportedVersions()
	for i, j := 0, len(vs)-1; i < j; i, j = i+1, j-1 {
		vs[i], vs[j] = vs[j], vs[i] // newest first
	}
	data = appendStrings(data, vs)
	data = append(data, `,"requested":`...)
	data = appendString(data, v)
	return &Error{Code: CodeUnsupportedProtocolVersion, Message: "Unsupported protocol version: " + strconv.Quote(v), Data: append(data, '}')}
}

// enter2026 takes a request of a session not initialized with an older
// revision. A request whose _meta names a protocol version is answered as
// revision 2026-07-28 asks: it returns the replier to answer it through (a
// *request26), or done when it answered the request itself. Other requests
// go on as they came.
func (s *Session) enter2026(m *message, r replier) (_ replier, done bool) {
	mt, err := meta26Of(m) // meta26.go
	if err == nil && !mt.hasVersion {
		if s.initialized && s.rev == rev20260728 && m.method != methodInitialize {
			if removedIn2026(m.method) {
				s.replyError(r, m.id, &Error{Code: CodeMethodNotFound, Message: "Method not found: " + m.method + " is not part of protocol revision 2026-07-28"})
				return r, true
			}
			s.replyError(r, m.id, &Error{Code: CodeInvalidParams, Message: "Invalid params: params._meta[" + strconv.Quote(metaProtocolVersion) + "] is required in protocol revision 2026-07-28"})
			return r, true
		}
		return r, false
	}
	if err != nil {
		s.replyError(r, m.id, err)
		return r, true
	}
	if rev, ok := headerRevision(mt.version); !ok || mt.version == "" || rev < rev20260728 {
		if ok && mt.version != "" && s.initialized && s.rev == rev {
			return r, false // an older client that names its version anyway
		}
		s.replyError(r, m.id, unsupportedVersion(mt.version))
		return r, true
	}
	if s.initialized && s.rev != rev20260728 {
		s.replyError(r, m.id, unsupportedVersion(mt.version))
		return r, true
	}
	if s.assumed && s.rev != rev20260728 {
		// Stateless HTTP: the header named an older revision.
		s.replyError(r, m.id, &Error{Code: CodeHeaderMismatch, Message: "Header mismatch: the MCP-Protocol-Version header " + strconv.Quote(s.rev.String()) + " does not match params._meta " + strconv.Quote(mt.version)})
		return r, true
	}
	if !s.initialized {
		s.rev, s.initialized, s.assumed = rev20260728, true, true
	}
	if removedIn2026(m.method) {
		s.replyError(r, m.id, &Error{Code: CodeMethodNotFound, Message: "Method not found: " + m.method + " is not part of protocol revision 2026-07-28"})
		return r, true
	}
	if mt.caps == nil {
		s.replyError(r, m.id, &Error{Code: CodeInvalidParams, Message: "Invalid params: params._meta[" + strconv.Quote(metaClientCaps) + "] is required"})
		return r, true
	}
	q := s.newRequest26(m, r, mt)
	switch m.method {
	case methodDiscover:
		// Written complete, as revision 2026-07-28 has it.
		s.replyResult(r, m.id, s.srv.finishResult26(s.srv.discover(s.rev), "complete", true))
		return q, true
	case methodListen:
		s.listen(m, q)
		return q, true
	case methodToolsCall, methodPromptsGet, methodResourcesRead:
		if m.meta.retry {
			st := new(mrtrState)
			if err := s.srv.openState(m.method, m.params, st); err != nil {
				s.replyError(r, m.id, err)
				return r, true
			}
			q.mrtr.Store(st)
		}
	}
	return q, false
}

// discover answers server/discover.
func (srv *Server) discover(rev revision) []byte {
	b := []byte(`{"supportedVersions":`)
	vs := SupportedVersions()
	b = appendStrings(b, vs[rev20260728:])
	b = append(b, `,"capabilities":{`...)
	b = append(b, `"logging":{}`...)
	if srv.hasTools() {
		b = append(b, `,"tools":{"listChanged":true}`...)
	}
	b = srv.appendCapabilities(b, true, rev)
	b = append(b, '}')
	if srv.opts.instructions != "" {
		b = append(b, `,"instructions":`...)
		b = appendString(b, srv.opts.instructions)
	}
	return append(b, '}')
}

// serverInfo appends the server's Implementation object.
func (srv *Server) appendServerInfo(b []byte) []byte {
	b = append(b, `{"name":`...)
	b = appendString(b, srv.name)
	b = append(b, `,"version":`...)
	b = appendString(b, srv.version)
	if srv.opts.title != "" {
		b = append(b, `,"title":`...)
		b = appendString(b, srv.opts.title)
	}
	return append(b, '}')
}

// reply rewrites a response as revision 2026-07-28 has it: a result gets
// resultType, the server's identity in _meta and, for list and read
// results, the cache hint; a call that asked for input is answered with an
// InputRequiredResult instead, whatever its handler returned. A result
// its encoder wrote complete goes out as it is, any other is spliced
// (result26.go), and only what cannot be is rewritten whole.
func (q *request26) Reply(msg []byte) {
	if st := q.mrtr.Load(); st != nil {
		if res := q.s.srv.inputRequired(st); res != nil {
			if id, _, ok := responseID(msg); ok {
				q.r.Reply(appendResult(nil, id, q.s.srv.finishResult26(res, "input_required", false)))
				return
			}
		}
	}
	if q.written {
		q.r.Reply(msg)
		return
	}
	buf := getBuffer()
	out, ok := q.spliceResponse((*buf)[:0], msg)
	if !ok {
		putBuffer(buf)
		q.r.Reply(q.rewrite(msg))
		return
	}
	q.r.Reply(out)
	*buf = out
	putBuffer(buf)
}

func (q *request26) Related(msg []byte) error { return q.r.Related(msg) }
func (q *request26) Begin()                   { q.r.Begin() }
func (q *request26) End()                     { q.r.End() }

// idle lets a call run in place as it would without the wrapper.
// A subscription, which lasts, never runs in place.
func (q *request26) idle() bool { return q.method != methodListen && q.s.inlines(q.r) }

// rewrite is the general path of reply: it decodes the response.
func (q *request26) rewrite(msg []byte) []byte {
	var env struct {
		ID     json.RawMessage `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int             `json:"code"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data"`
		} `json:"error"`
	}
	if json.Unmarshal(msg, &env) != nil {
		return msg
	}
	if env.Error != nil {
		if env.Error.Code == CodeResourceNotFound {
			// Revision 2026-07-28 reports an unknown resource as invalid
			// params.
			return appendError(nil, env.ID, &Error{Code: CodeInvalidParams, Message: env.Error.Message, Data: env.Error.Data})
		}
		return msg
	}
	if env.Result == nil {
		return msg
	}
	return appendResult(nil, env.ID, q.complete(env.Result, "complete"))
}

// complete adds resultType, serverInfo and the cache hint to result.
func (q *request26) complete(result []byte, kind string) []byte {
	return q.s.srv.complete26(result, kind, kind == "complete" && cacheable(q.method))
}

// complete26 adds resultType (kind) and serverInfo to result, and with
// cache the cache hint, unless the result has its own.
func (srv *Server) complete26(result []byte, kind string, cache bool) []byte {
	if out, ok := srv.spliceResult(nil, result, kind, cache); ok {
		return out
	}
	return srv.completeDecoded(result, kind, cache)
}

// completeDecoded is complete26 by decoding result and encoding it again,
// for results the splice does not take: the members come out sorted.
func (srv *Server) completeDecoded(result []byte, kind string, cache bool) []byte {
	var obj map[string]json.RawMessage
	if json.Unmarshal(result, &obj) != nil || obj == nil {
		return result
	}
	obj["resultType"] = json.RawMessage(strconv.Quote(kind))
	var meta map[string]json.RawMessage
	if raw, ok := obj["_meta"]; ok {
		_ = json.Unmarshal(raw, &meta)
	}
	if meta == nil {
		meta = map[string]json.RawMessage{}
	}
	meta[metaServerInfo] = srv.appendServerInfo(nil)
	obj["_meta"], _ = marshalRaw(meta)
	if _, own := obj["ttlMs"]; cache && !own {
		scope := srv.opts.cache.scope
		if scope == "" {
			scope = CachePrivate
		}
		obj["ttlMs"] = strconv.AppendInt(nil, srv.opts.cache.ttlMs, 10)
		obj["cacheScope"] = json.RawMessage(strconv.Quote(scope))
	}
	out, err := marshalRaw(obj)
	if err != nil {
		return result
	}
	return out
}

// marshalRaw encodes a map of raw JSON values, sorted by key, leaving the
// text of the values as it is (no HTML escaping).
func marshalRaw(m map[string]json.RawMessage) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// request26Of returns the 2026-07-28 request a handler's context answers,
// or nil.
func request26Of(ctx context.Context) *request26 {
	c, _ := ctx.Value(callKey{}).(*callContext)
	if c == nil {
		return nil
	}
	c.mu.Lock()
	r := c.r
	c.mu.Unlock()
	q, _ := r.(*request26)
	return q
}

// request26 returns the 2026-07-28 request the talker's call answers, or
// nil.
func (t talker) request26() *request26 {
	if t.c == nil {
		return nil
	}
	t.c.mu.Lock()
	r := t.c.r
	t.c.mu.Unlock()
	q, _ := r.(*request26)
	return q
}

// caps returns the client capabilities in force for the talker: those of
// its request in revision 2026-07-28, else the session's.
func (t talker) caps() Capabilities {
	if q := t.request26(); q != nil {
		return q.capabilities()
	}
	return t.s.talk.caps
}

// clientLevel returns the least severe level the client wants messages
// of: in revision 2026-07-28 the request's logLevel (none outside a
// request), else the session's.
func (t talker) clientLevel() LogLevel {
	if q := t.request26(); q != nil {
		return q.level
	}
	if t.s.rev == rev20260728 {
		return levelOff
	}
	return t.s.clientLevel()
}

// unwrap returns the transport's replier under r.
func unwrap(r replier) replier {
	if q, ok := r.(*request26); ok {
		return q.r
	}
	return r
}

// MissingCapability returns the error a handler returns when its request
// cannot be served without client capabilities the request did not declare
// (revision 2026-07-28 names it MissingRequiredClientCapability, -32021):
// each of caps is a capability name such as "elicitation", "sampling" or
// "roots", or a dotted path to a part of one such as "elicitation.url" or
// "sampling.tools", listed in the error's data as requiredCapabilities.
func MissingCapability(caps ...string) *Error {
	var tops []string
	subs := map[string][]string{}
	for _, c := range caps {
		top, sub, _ := strings.Cut(c, ".")
		if _, seen := subs[top]; !seen {
			tops = append(tops, top)
			subs[top] = nil
		}
		if sub != "" {
			subs[top] = append(subs[top], sub)
		}
	}
	data := []byte(`{"requiredCapabilities":{`)
	for i, top := range tops {
		if i > 0 {
			data = append(data, ',')
		}
		data = append(appendString(data, top), `:{`...)
		for j, sub := range subs[top] {
			if j > 0 {
				data = append(data, ',')
			}
			data = append(appendString(data, sub), `:{}`...)
		}
		data = append(data, '}')
	}
	msg := "Missing required client capability"
	if len(caps) > 0 {
		msg = "Server requires the " + strings.Join(caps, ", ") + " capability for this request"
	}
	return &Error{Code: CodeMissingClientCapability, Message: msg, Data: append(data, "}}"...)}
}
