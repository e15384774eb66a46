package runtime

import (
	"sync"
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
var supportedMethods = []byte(`{"supported":["initialize","ping","tools/list","tools/call"]}`)

// A replier takes the responses to the requests of one incoming message:
// the transport for a single message, a collector for a batch.
type replier interface {
	reply(msg []byte)
	// related writes a message that belongs to a request's exchange but is
	// not its response: a notification (progress, a log message) or a
	// request to the client, sent while the request is handled. Over a
	// stream it goes out at once; a transport with a stream per request
	// (Streamable HTTP) sends it there, before the response.
	related(msg []byte) error
	// begin and end bracket an asynchronous request.
	begin()
	end()
}

// direct replies straight through the session's transport.
type direct struct{ s *Session }

func (r direct) reply(msg []byte)         { r.s.send(msg) }
func (r direct) related(msg []byte) error { return r.s.out.writeMessage(msg) }
func (direct) begin()                     {}
func (direct) end()                       {}

// handle processes one incoming message, a JSON-RPC message or a batch. It
// is called from the transport's read loop, one message at a time; data may
// be reused once it returns. When it returns a call, the transport runs it
// on the reading goroutine (see inliner).
func (s *Session) handle(data []byte) *callContext {
	data = trimSpace(data)
	if len(data) == 0 {
		return nil
	}
	if data[0] == '[' {
		s.handleBatch(data)
		return nil
	}
	var m message
	if err := parseMessage(&s.dec, data, &m); err != nil {
		s.replyError(direct{s}, m.id, err)
		return nil
	}
	s.route(&m, direct{s})
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
		// A response to a request the server sent. The server sends none
		// yet; a stray response is not an error the client can act on.
		s.srv.opts.logger.Debug("unexpected response", "id", string(m.id))
	}
}

func (s *Session) replyError(r replier, id []byte, e *Error) {
	buf := getBuffer()
	*buf = appendError((*buf)[:0], id, e)
	r.reply(*buf)
	putBuffer(buf)
}

func (s *Session) replyResult(r replier, id, result []byte) {
	buf := getBuffer()
	*buf = appendResult((*buf)[:0], id, result)
	r.reply(*buf)
	putBuffer(buf)
}

var emptyResult = []byte("{}")

func (s *Session) handleRequest(m *message, r replier) {
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
	}
	known := (m.method == methodToolsList || m.method == methodToolsCall) && s.srv.hasTools()
	switch {
	case !known:
		s.replyError(r, m.id, &Error{Code: CodeMethodNotFound, Message: "Method not found: " + m.method, Data: supportedMethods})
	case !s.initialized:
		s.replyError(r, m.id, &Error{Code: CodeInvalidRequest, Message: "Invalid Request: the session is not initialized; send initialize first"})
	case m.method == methodToolsList:
		res, err := s.listTools(m.params)
		if err != nil {
			s.replyError(r, m.id, err)
			return
		}
		s.replyResult(r, m.id, res)
	default:
		s.startCall(m, r)
	}
}

// startCall runs a tools/call on a goroutine of its own, cancellable by
// notifications/cancelled. The message's id and params alias the read
// buffer, so they are copied into a buffer the call owns.
func (s *Session) startCall(m *message, r replier) {
	c := &callContext{parent: s.ctx, key: keyOf(m.id), r: r}
	s.mu.Lock()
	if s.draining {
		s.mu.Unlock()
		return // the session is ending and answers nothing new
	}
	if _, dup := s.inflight[c.key]; dup {
		s.mu.Unlock()
		s.replyError(r, m.id, &Error{Code: CodeInvalidRequest, Message: "Invalid Request: id " + string(m.id) + " is already in use by a request in flight"})
		return
	}
	s.inflight[c.key] = c
	s.wg.Add(1) // under s.mu: see track
	s.mu.Unlock()
	if s.ctx.Err() != nil {
		c.cancel(false)
	}
	s.workers.acquire(s)
	c.in = getBuffer()
	*c.in = append(append((*c.in)[:0], m.id...), m.params...)
	c.id, c.params = (*c.in)[:len(m.id)], (*c.in)[len(m.id):]
	s.mem.take(len(*c.in))
	r.begin()
	if _, single := r.(direct); single && s.inline != nil && s.inline.idle() {
		s.inlineCall = c // handle runs it once routing is done
		return
	}
	s.workers.run(s, c)
}

// runCall answers one tools/call.
func (s *Session) runCall(c *callContext) {
	defer s.wg.Done()
	defer c.r.end()
	out := getBuffer()
	resp, err := s.callTool(c, c.params, (*out)[:0], c.id)
	s.mu.Lock()
	delete(s.inflight, c.key)
	s.mu.Unlock()
	c.cancel(false)
	if err != nil {
		resp = appendError(resp[:0], c.id, err)
	}
	// The request is no longer needed: the answer holds its id. Until it
	// is written, the answer counts against the memory budget instead.
	s.mem.take(len(resp))
	s.mem.give(len(*c.in))
	putBuffer(c.in)
	if !c.wasCancelled() {
		c.r.reply(resp)
	}
	s.mem.give(len(resp))
	*out = resp
	putBuffer(out)
	c.in, c.id, c.params, c.r = nil, nil, nil, nil
	s.workers.release()
}

func (s *Session) handleNotification(m *message) {
	switch m.method {
	case notifyInitialized:
		// Requests are accepted as soon as initialize is answered.
	case notifyCancelled:
		s.cancelRequest(m.params)
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
				id, _ = d.rawView()
			} else {
				d.Skip()
			}
		}
	}
	if id == nil {
		return
	}
	s.mu.Lock()
	c := s.inflight[keyOf(id)]
	s.mu.Unlock()
	if c != nil {
		c.cancel(true)
	}
}

// initialize answers the initialize request and fixes the revision.
func (s *Session) initialize(params []byte) ([]byte, *Error) {
	if s.initialized {
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

	srv := s.srv
	b := []byte(`{"protocolVersion":`)
	b = appendString(b, s.rev.String())
	b = append(b, `,"capabilities":{`...)
	if srv.hasTools() {
		b = append(b, `"tools":{}`...)
	}
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

func (s *Session) readClientInfo(d *Decoder) {
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
		default:
			d.Skip()
		}
	}
}

// batch collects the responses to one JSON-RPC batch.
type batch struct {
	s         *Session
	mu        sync.Mutex
	responses [][]byte
	held      int // bytes of responses, counted in the session's budget
	wg        sync.WaitGroup
}

func (b *batch) reply(msg []byte) {
	b.s.mem.take(len(msg))
	b.mu.Lock()
	b.responses = append(b.responses, append([]byte(nil), msg...))
	b.held += len(msg)
	b.mu.Unlock()
}

// related sends at once: a batch's answer is one message, so what belongs
// before a response cannot wait inside it.
func (b *batch) related(msg []byte) error { return b.s.out.writeMessage(msg) }
func (b *batch) begin()                   { b.wg.Add(1) }
func (b *batch) end()                     { b.wg.Done() }

// handleBatch handles a JSON-RPC batch: accepted only in revision 2025-03-26,
// the one revision that has them.
func (s *Session) handleBatch(data []byte) {
	var d Decoder
	d.Reset(data, "")
	var elems [][]byte
	if d.Array() {
		for d.Elem() {
			raw, _ := d.Raw()
			elems = append(elems, raw)
		}
	}
	if err := d.Err(); err != nil {
		s.replyError(direct{s}, nil, &Error{Code: CodeParseError, Message: "Parse error: " + err.Error()})
		return
	}
	if !s.initialized || !s.rev.has(featureBatch) {
		v := "before initialize"
		if s.initialized {
			v = "in protocol revision " + s.rev.String()
		}
		s.replyError(direct{s}, nil, &Error{Code: CodeInvalidRequest, Message: "Invalid Request: JSON-RPC batches are not supported " + v})
		return
	}
	if len(elems) == 0 {
		s.replyError(direct{s}, nil, &Error{Code: CodeInvalidRequest, Message: "Invalid Request: empty batch"})
		return
	}
	b := &batch{s: s}
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
	go func() {
		defer s.wg.Done()
		b.wg.Wait()
		if len(b.responses) == 0 {
			return // only notifications
		}
		out := []byte{'['}
		for i, r := range b.responses {
			if i > 0 {
				out = append(out, ',')
			}
			out = append(out, r...)
		}
		s.send(append(out, ']'))
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
