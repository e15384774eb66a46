package runtime

import (
	"sync"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// Method names.
const (
	methodInitialize  = "initialize"
	methodPing        = "ping"
	methodToolsList   = "tools/list"
	methodToolsCall   = "tools/call"
	notifyInitialized = "notifications/initialized"
	notifyCancelled   = "notifications/cancelled"
)

// supportedMethods is sent as data with "method not found".
var supportedMethods = []byte(`{"supported":["initialize","ping","logging/setLevel","tools/list","tools/call"]}`)

// A replier takes the responses to the requests of one incoming message:
// the transport for a single message, a collector for a batch. It is an
// [Exchange] (transport.go): Related writes a message that belongs to a
// request's exchange but is not its response: a notification (progress,
// a log message) or a request to the client, sent while the request is
// handled. Over a stream it goes out at once; a transport with a stream
// per request (Streamable HTTP) sends it there, before the response. Begin
// and End bracket an asynchronous request. A transport's Exchange is the
// replier of its messages as it is, without an adapter.
type replier = Exchange

// direct replies straight through the session's transport.
type direct struct{ s *Session }

func (r direct) Reply(msg []byte)         { r.s.send(msg) }
func (r direct) Related(msg []byte) error { return r.s.out.writeMessage(msg) }
func (direct) Begin()                     {}
func (direct) End()                       {}

// handle processes one incoming message, a JSON-RPC message or a batch. It
// is called from the transport's read loop, one message at a time; data may
// be reused once it returns. When it returns a call, the transport runs it
// on the reading goroutine (see inliner).
func (s *Session) handle(data []byte) *callContext { return s.handleFor(data, direct{s}) }

// handleFor is handle with the answers to data going to r instead of the
// session's transport: a transport that answers each incoming message on
// its own channel (an HTTP POST) passes a replier of its own. Calls of
// handleFor must not overlap.
func (s *Session) handleFor(data []byte, r replier) *callContext {
	data = trimSpace(data)
	if len(data) == 0 {
		return nil
	}
	if data[0] == '[' {
		s.handleBatch(data, r)
		return nil
	}
	var m message
	if err := parseMessage(&s.dec, data, &m); err != nil {
		s.replyError(r, m.id, err)
		return nil
	}
	s.route(&m, r)
	c := s.inlineCall
	s.inlineCall = nil
	return c
}

func (s *Session) route(m *message, r replier) {
	switch {
	case m.isRequest():
		s.handleRequest(m, r)
	case m.isNotification():
		s.handleNotification(m)
	default:
		// A response to a request the server sent.
		s.routeResponse(m)
	}
}

func (s *Session) replyError(r replier, id []byte, e *Error) {
	buf := getBuffer()
	*buf = appendError((*buf)[:0], id, e)
	r.Reply(*buf)
	putBuffer(buf)
}

func (s *Session) replyResult(r replier, id, result []byte) {
	buf := getBuffer()
	*buf = appendResult((*buf)[:0], id, result)
	r.Reply(*buf)
	putBuffer(buf)
}

var emptyResult = []byte("{}")

func (s *Session) handleRequest(m *message, r replier) {
	if !s.initialized || s.assumed {
		var done bool
		if r, done = s.enter2026(m, r); done {
			return // answered as revision 2026-07-28 has it (rev2026.go)
		}
	}
	switch m.method {
	case methodInitialize:
		res, err := s.initialize(m.params)
		if err != nil {
			s.replyError(r, m.id, err)
			return
		}
		s.replyResult(r, m.id, res)
		return
	case methodPing:
		s.replyResult(r, m.id, emptyResult)
		return
	case methodSetLevel:
		if s.initialized {
			if err := s.setLevel(m.params); err != nil {
				s.replyError(r, m.id, err)
				return
			}
			s.replyResult(r, m.id, emptyResult)
			return
		}
	}
	isTools := m.method == methodToolsList || m.method == methodToolsCall
	if !isTools && m.method != methodSetLevel && s.routePrimitive(m, r) {
		return
	}
	known := m.method == methodSetLevel || isTools && s.srv.hasTools()
	switch {
	case !known:
		s.replyError(r, m.id, &Error{Code: CodeMethodNotFound, Message: "Method not found: " + m.method, Data: s.srv.supportedMethodsData()})
	case !s.initialized:
		s.replyError(r, m.id, &Error{Code: CodeInvalidRequest, Message: "Invalid Request: the session is not initialized; send initialize first"})
	case m.method == methodToolsList:
		res, err := s.listTools(m.params)
		if err != nil {
			s.replyError(r, m.id, err)
			return
		}
		s.replyPage(r, m.id, res) // list26.go
	default:
		s.startCall(m, r)
	}
}

// startCall runs a tools/call on a goroutine of its own, cancellable by
// notifications/cancelled.
func (s *Session) startCall(m *message, r replier) { s.startRun(m, r, nil) }

// startRun runs a request as a tools/call runs, answering it with run (nil
// for tools/call). The message's id and params alias the read buffer: a
// call that runs elsewhere gets a copy of its own (see useRead).
func (s *Session) startRun(m *message, r replier, run runFunc) {
	c := takeCall(r) // rev2026.go
	*c = callContext{s: s, key: keyOf(m.id), r: r, run: run, tool: m.tool}
	s.mu.Lock()
	if s.draining {
		s.mu.Unlock()
		return // the session is ending and answers nothing new
	}
	if s.inflight.get(c.key) != nil {
		s.mu.Unlock()
		s.replyError(r, m.id, &Error{Code: CodeInvalidRequest, Message: "Invalid Request: id " + string(m.id) + " is already in use by a request in flight"})
		return
	}
	s.inflight.put(c.key, c)
	s.wg.Add(1) // under s.mu: see track
	s.mu.Unlock()
	if s.ctx.Err() != nil {
		c.cancel(false)
	}
	s.workers.acquire(s)
	s.mem.take(len(m.id) + len(m.params))
	r.Begin()
	if s.inlines(r) {
		s.inlineCall = c // handle runs it once routing is done
		c.useRead(r, m)  // callalias.go
		return
	}
	c.own(m.id, m.params)
	s.workers.run(s, c)
}

// inlines reports whether a call answered through r may run on the
// goroutine that handed its message in: for a single message of the
// session's own transport, the transport decides; a replier that is an
// inliner decides for itself; a batch's calls never do; and those of a
// transport's Exchange always do: the caller of Handle runs the Call it
// returns (transport.go).
func (s *Session) inlines(r replier) bool {
	switch r := r.(type) {
	case direct:
		return s.inline != nil && s.inline.idle()
	case *batch:
		return false
	case inliner:
		return r.idle()
	}
	return true
}

// cancelFor cancels the calls in flight that answer through r, whose
// answers can no longer be delivered (an HTTP client went away).
func (s *Session) cancelFor(r replier) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.inflight.each(func(c *callContext) {
		if answersThrough(c.r, r) { // transport.go
			c.cancel(true)
		}
	})
}

// runCall answers one tools/call.
func (s *Session) runCall(c *callContext) {
	defer s.wg.Done()
	defer c.r.End()
	out := getBuffer()
	var resp []byte
	var err *Error
	if c.run != nil {
		resp, err = c.run(s, c, (*out)[:0])
	} else {
		resp, err = s.callTool(c, c.params, (*out)[:0], c.id)
	}
	s.mu.Lock()
	s.inflight.remove(c.key)
	s.mu.Unlock()
	if err != nil {
		resp = appendError(resp[:0], c.id, err)
	}
	// The call's context ends, and the request is no longer needed: the
	// answer holds its id. Nothing may keep the request alive while the
	// answer waits to be written: it is no longer counted. The replier
	// is let go under the lock too, where the helpers of a context that
	// outlives its call look for it (request26Of).
	c.mu.Lock()
	c.endLocked()
	in, size := c.in, len(c.id)+len(c.params)
	c.in, c.id, c.params = nil, nil, nil
	cancelled := c.cancelled
	r := c.r
	c.r = nil
	c.mu.Unlock()
	// Until it is written, the answer counts against the memory budget
	// instead of the request.
	s.mem.take(len(resp))
	if !c.overran {
		s.mem.give(size)
		if in != nil {
			putBuffer(in)
		}
	}
	if !cancelled {
		r.Reply(resp)
	}
	s.mem.give(len(resp))
	*out = resp
	putBuffer(out)
	c.run = nil
	if !c.overran {
		s.workers.release()
	}
}

func (s *Session) handleNotification(m *message) {
	switch m.method {
	case notifyInitialized:
		// Requests are accepted as soon as initialize is answered; list
		// changes are announced from now on.
		s.talk.ready.Store(true)
	case notifyCancelled:
		s.cancelRequest(m.params)
	case notifyRootsChanged:
		s.talk.rootsChanged()
	}
	// Unknown notifications are ignored, as JSON-RPC asks.
}

// cancelRequest handles notifications/cancelled: the request's handler is
// cancelled and its response is not sent.
func (s *Session) cancelRequest(params []byte) {
	if params == nil {
		return
	}
	d := &s.dec
	d.Reset(params, "params")
	var id []byte
	if d.Object() {
		for {
			key, ok := d.Field()
			if !ok {
				break
			}
			if string(key) == "requestId" {
				id, _ = d.RawView()
			} else {
				d.Skip()
			}
		}
	}
	if id == nil {
		return
	}
	s.mu.Lock()
	c := s.inflight.get(keyOf(id))
	s.mu.Unlock()
	if c != nil {
		c.cancel(true)
	}
}

// initialize answers the initialize request and fixes the revision.
func (s *Session) initialize(params []byte) ([]byte, *Error) {
	if s.initialized && !s.assumed {
		return nil, &Error{Code: CodeInvalidRequest, Message: "Invalid Request: the session is already initialized"}
	}
	var version string
	hasVersion := false
	d := &s.dec
	if params == nil {
		params = emptyObject // absent or null: no protocolVersion
	}
	d.Reset(params, "params")
	if d.Object() {
		for {
			key, ok := d.Field()
			if !ok {
				break
			}
			switch string(key) {
			case "protocolVersion":
				version, hasVersion = d.String()
			case "clientInfo":
				s.readClientInfo(d)
			case "capabilities":
				caps, _ := d.Raw()
				s.talk.caps = parseClientCapabilities(caps)
			default:
				d.Skip()
			}
		}
	}
	if err := d.Err(); err != nil {
		return nil, invalidParams(err)
	}
	if !hasVersion {
		return nil, &Error{Code: CodeInvalidParams, Message: "Invalid params: params.protocolVersion is required"}
	}
	s.rev = negotiate(version)
	s.initialized = true
	s.srv.track(s)

	srv := s.srv
	b := []byte(`{"protocolVersion":`)
	b = appendString(b, s.rev.String())
	b = append(b, `,"capabilities":{`...)
	b = append(b, `"logging":{}`...)
	if srv.hasTools() {
		b = append(b, `,"tools":{"listChanged":true}`...)
	}
	b = srv.appendCapabilities(b, b[len(b)-1] != '{', s.rev)
	b = append(b, `},"serverInfo":{"name":`...)
	b = appendString(b, srv.name)
	b = append(b, `,"version":`...)
	b = appendString(b, srv.version)
	if srv.opts.title != "" && s.rev.has(featureToolTitle) {
		b = append(b, `,"title":`...)
		b = appendString(b, srv.opts.title)
	}
	b = append(b, '}')
	if srv.opts.instructions != "" {
		b = append(b, `,"instructions":`...)
		b = appendString(b, srv.opts.instructions)
	}
	return append(b, '}'), nil
}

func (s *Session) readClientInfo(d *mcpimpl.Decoder) {
	if !d.Object() {
		return
	}
	for {
		key, ok := d.Field()
		if !ok {
			return
		}
		switch string(key) {
		case "name":
			s.clientName, _ = d.String()
		case "version":
			s.clientVer, _ = d.String()
		case "title":
			s.talk.clientTitle, _ = d.String()
		default:
			d.Skip()
		}
	}
}

// batch collects the responses to one JSON-RPC batch.
type batch struct {
	s         *Session
	r         replier // where the batch came from
	mu        sync.Mutex
	responses [][]byte
	held      int // bytes of responses, counted in the session's budget
	wg        sync.WaitGroup
}

func (b *batch) Reply(msg []byte) {
	b.s.mem.take(len(msg))
	b.mu.Lock()
	b.responses = append(b.responses, append([]byte(nil), msg...))
	b.held += len(msg)
	b.mu.Unlock()
}

// related sends at once: a batch's answer is one message, so what belongs
// before a response cannot wait inside it.
func (b *batch) Related(msg []byte) error { return b.r.Related(msg) }
func (b *batch) Begin()                   { b.wg.Add(1) }
func (b *batch) End()                     { b.wg.Done() }

// handleBatch handles a JSON-RPC batch: accepted only in revision 2025-03-26,
// the one revision that has them.
func (s *Session) handleBatch(data []byte, r replier) {
	var d mcpimpl.Decoder
	d.Reset(data, "")
	var elems [][]byte
	if d.Array() {
		for d.Elem() {
			raw, _ := d.Raw()
			elems = append(elems, raw)
		}
	}
	if err := d.Err(); err != nil {
		s.replyError(r, nil, &Error{Code: CodeParseError, Message: "Parse error: " + err.Error()})
		return
	}
	if !s.initialized || !s.rev.has(featureBatch) {
		v := "before initialize"
		if s.initialized {
			v = "in protocol revision " + s.rev.String()
		}
		s.replyError(r, nil, &Error{Code: CodeInvalidRequest, Message: "Invalid Request: JSON-RPC batches are not supported " + v})
		return
	}
	if len(elems) == 0 {
		s.replyError(r, nil, &Error{Code: CodeInvalidRequest, Message: "Invalid Request: empty batch"})
		return
	}
	b := &batch{s: s, r: r}
	for _, raw := range elems {
		var m message
		if err := parseMessage(&s.dec, raw, &m); err != nil {
			s.replyError(b, m.id, err)
			continue
		}
		if m.method == methodInitialize {
			s.replyError(b, m.id, &Error{Code: CodeInvalidRequest, Message: "Invalid Request: initialize must not be part of a batch"})
			continue
		}
		s.route(&m, b)
	}
	if !s.track() {
		return
	}
	r.Begin()
	go func() {
		defer s.wg.Done()
		defer r.End()
		b.wg.Wait()
		if len(b.responses) == 0 {
			return // only notifications
		}
		out := []byte{'['}
		for i, resp := range b.responses {
			if i > 0 {
				out = append(out, ',')
			}
			out = append(out, resp...)
		}
		r.Reply(append(out, ']'))
		s.mem.give(b.held)
	}()
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
