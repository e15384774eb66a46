package runtime

import (
	"context"
	"encoding/json"
	"sync"
)

// subscriptions/listen (revision 2026-07-28) replaces resources/subscribe
// and the HTTP GET stream: a long-lived request on whose exchange the
// server sends the change notifications the client opted in to, each
// tagged with the request's id as subscriptionId. It ends when the client
// cancels it (notifications/cancelled, or closing the HTTP response), or,
// with a result, when the server shuts the session down.

const notifyAcknowledged = "notifications/subscriptions/acknowledged"

// listeners are a server's open subscriptions/listen requests.
type listeners struct {
	mu     sync.Mutex
	set    map[*listener]struct{}
	ending map[*Session]bool // sessions whose input ended
}

// listener is one open subscriptions/listen request.
type listener struct {
	c      *callContext
	meta   []byte
	sendMu sync.Mutex // held while acknowledging: nothing goes before it // `"_meta":{"io.modelcontextprotocol/subscriptionId":ID}`

	tools, prompts, resources bool
	uris                      map[string]bool
}

// listenFilter is the notifications member of the request.
type listenFilter struct {
	ToolsListChanged      bool     `json:"toolsListChanged,omitempty"`
	PromptsListChanged    bool     `json:"promptsListChanged,omitempty"`
	ResourcesListChanged  bool     `json:"resourcesListChanged,omitempty"`
	ResourceSubscriptions []string `json:"resourceSubscriptions,omitempty"`
}

// listen answers subscriptions/listen: it runs as a call that lasts until
// it is cancelled.
func (s *Session) listen(m *message, q *request26) {
	s.startRun(m, q, (*Session).runListen)
}

func (s *Session) runListen(c *callContext, buf []byte) ([]byte, *Error) {
	var p struct {
		Notifications *listenFilter `json:"notifications"`
	}
	if err := json.Unmarshal(c.params, &p); err != nil || p.Notifications == nil {
		return nil, &Error{Code: CodeInvalidParams, Message: "Invalid params: params.notifications, the filter of the notifications to send, is required"}
	}
	srv := s.srv
	// The agreed subset: what the server can ever send.
	f := p.Notifications
	agreed := listenFilter{
		ToolsListChanged:     f.ToolsListChanged,
		PromptsListChanged:   f.PromptsListChanged && srv.prims.hasPrompts(),
		ResourcesListChanged: f.ResourcesListChanged && srv.prims.hasResources(),
	}
	if srv.prims.hasResources() {
		agreed.ResourceSubscriptions = f.ResourceSubscriptions
	}
	l := &listener{c: c, tools: agreed.ToolsListChanged, prompts: agreed.PromptsListChanged, resources: agreed.ResourcesListChanged, uris: map[string]bool{}}
	for _, u := range agreed.ResourceSubscriptions {
		l.uris[u] = true
	}
	l.meta = append(append([]byte(`"_meta":{"`+metaSubscriptionID+`":`), c.id...), '}')

	ack, _ := json.Marshal(agreed)
	params := append([]byte{'{'}, l.meta...)
	params = append(params, `,"notifications":`...)
	params = append(append(params, ack...), '}')
	t := talker{s: s, c: c}
	l.sendMu.Lock()
	srv.listeners.add(l, s) // before the acknowledgment, so that the end of input finds it
	err := t.notify(notifyAcknowledged, params)
	l.sendMu.Unlock()
	if err != nil {
		srv.listeners.remove(l)
		return nil, &Error{Code: CodeInternalError, Message: "Internal error: the subscription could not be acknowledged: " + err.Error()}
	}
	// A subscription does not count against the limit of calls in flight.
	s.workers.release()
	<-c.Done()
	s.workers.acquire(s)
	srv.listeners.remove(l)
	// Cancelled by the client: runCall sends nothing. Ended by the server:
	// a result closes the subscription gracefully.
	res := append([]byte{'{'}, l.meta...)
	return appendResult(buf, c.id, append(res, '}')), nil
}

// add registers l, or cancels its call when its session's input ended.
func (ls *listeners) add(l *listener, s *Session) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.ending[s] {
		l.c.cancel(false)
		return
	}
	if ls.set == nil {
		ls.set = map[*listener]struct{}{}
	}
	ls.set[l] = struct{}{}
}

func (ls *listeners) remove(l *listener) {
	ls.mu.Lock()
	delete(ls.set, l)
	ls.mu.Unlock()
}

// deliver sends a change notification to the listeners that opted in to
// it. params is nil or a JSON object; uri names the resource of
// notifications/resources/updated.
func (ls *listeners) deliver(method string, params []byte, uri string) {
	ls.mu.Lock()
	if len(ls.set) == 0 {
		ls.mu.Unlock()
		return
	}
	var to []*listener
	for l := range ls.set {
		var want bool
		switch method {
		case notifyToolsChanged:
			want = l.tools
		case notifyPromptsListChanged:
			want = l.prompts
		case notifyResourcesListChanged:
			want = l.resources
		case notifyResourceUpdated:
			want = l.uris[uri]
		}
		if want {
			to = append(to, l)
		}
	}
	ls.mu.Unlock()
	for _, l := range to {
		p := append([]byte{'{'}, l.meta...)
		if len(params) > 2 {
			p = append(append(p, ','), params[1:]...)
		} else {
			p = append(p, '}')
		}
		s := SessionFromContext(l.c)
		if s == nil {
			continue
		}
		l.sendMu.Lock()
		err := (talker{s: s, c: l.c}).notify(method, p)
		l.sendMu.Unlock()
		if err != nil {
			s.srv.opts.logger.Debug("notification not sent", "method", method, "err", err)
		}
	}
}

// endListens ends the subscriptions of s, whose input ended: each is
// answered with a result that closes it.
func (s *Session) endListens() {
	if s.rev != rev20260728 {
		return
	}
	ls := &s.srv.listeners
	ls.mu.Lock()
	if ls.ending == nil {
		ls.ending = map[*Session]bool{}
	}
	ls.ending[s] = true
	context.AfterFunc(s.ctx, func() {
		ls.mu.Lock()
		delete(ls.ending, s)
		ls.mu.Unlock()
	})
	var end []*callContext
	for l := range ls.set {
		if SessionFromContext(l.c) == s {
			end = append(end, l.c)
		}
	}
	ls.mu.Unlock()
	for _, c := range end {
		c.cancel(false)
	}
}
