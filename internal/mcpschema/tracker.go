package mcpschema

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"
)

// Tracker validates a server's messages in the context of a session. It is
// fed, in order, the messages the client sent ([Tracker.Client]) and those
// the server wrote ([Tracker.Server]); it matches each response to the
// request with its id to pick the result definition, and takes the
// protocol revision from the initialize exchange. Before a revision is
// negotiated, a server message must be valid in every revision of
// [Revisions]. A Tracker is safe for concurrent use.
type Tracker struct {
	mu        sync.Mutex
	rev       string              // negotiated revision; "" before
	initKey   string              // id key of the initialize request awaiting its response
	pending   map[string][]string // id key -> methods of requests in flight, oldest first
	ids       map[string]string   // id key -> id as JSON text
	cancelled map[string]bool     // id keys the client cancelled
}

// NewTracker returns a Tracker for a new session.
func NewTracker() *Tracker {
	return &Tracker{pending: map[string][]string{}, ids: map[string]string{}, cancelled: map[string]bool{}}
}

// Revision returns the negotiated revision, or "" before initialize has
// been answered.
func (t *Tracker) Revision() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.rev
}

// idKey returns a key identifying a JSON-RPC id, and whether v is a valid
// id (a string or a number).
func idKey(v any) (string, bool) {
	switch id := v.(type) {
	case string:
		return "s" + id, true
	case json.Number:
		return "n" + id.String(), true
	}
	return "", false
}

func idText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// Client records a message the client sent: the requests it holds (so that
// responses can be matched to methods), an initialize request, and
// cancellations. Messages that are not JSON are ignored, as are members the
// server cannot read.
func (t *Tracker) Client(msg []byte) {
	v, err := parse(msg)
	if err != nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if arr, ok := v.([]any); ok {
		for _, e := range arr {
			t.client(e)
		}
		return
	}
	t.client(v)
}

func (t *Tracker) client(v any) {
	obj, ok := v.(map[string]any)
	if !ok {
		return
	}
	_, hasResult := obj["result"]
	_, hasError := obj["error"]
	if hasResult || hasError {
		return // a response to a server request
	}
	method, _ := obj["method"].(string)
	rawID, hasID := obj["id"]
	if !hasID {
		if method == "notifications/cancelled" {
			params, _ := obj["params"].(map[string]any)
			if key, ok := idKey(params["requestId"]); ok {
				t.cancelled[key] = true
			}
		}
		return
	}
	key, ok := idKey(rawID)
	if !ok {
		return // answered, if at all, with a null id
	}
	if t.rev == "" {
		// Revision 2026-07-28 has no initialize: the request names it.
		params, _ := obj["params"].(map[string]any)
		meta, _ := params["_meta"].(map[string]any)
		if meta["io.modelcontextprotocol/protocolVersion"] == Stateless {
			t.rev = Stateless
		}
	}
	t.pending[key] = append(t.pending[key], method)
	t.ids[key] = idText(rawID)
	if method == "initialize" && t.rev == "" {
		t.initKey = key
	}
}

// Pending returns the ids (as JSON text) of the requests not yet answered,
// sorted.
func (t *Tracker) Pending() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	for key, methods := range t.pending {
		for range methods {
			out = append(out, t.ids[key])
		}
	}
	slices.Sort(out)
	return out
}

// Cancelled reports whether the client cancelled the request with the
// given id (as JSON text, e.g. `7` or `"a"`).
func (t *Tracker) Cancelled(id string) bool {
	v, err := parse([]byte(id))
	if err != nil {
		return false
	}
	key, ok := idKey(v)
	t.mu.Lock()
	defer t.mu.Unlock()
	return ok && t.cancelled[key]
}

// Server validates msg, a message the server wrote, and records the
// requests it answers. It reports a message that is not valid for the
// negotiated revision (or, before negotiation, for any revision), a
// response to an id no request in flight has, an array where the revision
// has no batches, and an initialize result naming an unknown revision.
func (t *Tracker) Server(msg []byte) error {
	v, err := parse(msg)
	if err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	schemas, err := t.schemas()
	if err != nil {
		return err
	}
	if arr, ok := v.([]any); ok {
		if t.rev == "" {
			return fmt.Errorf("mcpschema: the server sent a batch before a revision was negotiated: %.200s", msg)
		}
		if err := schemas[0].checkBatch(arr); err != nil {
			return err
		}
		for i, e := range arr {
			if err := t.response(schemas, e.(map[string]any)); err != nil {
				return fmt.Errorf("batch element %d: %w", i, err)
			}
		}
		return nil
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("mcpschema: a message must be a JSON object or an array: %.200s", msg)
	}
	if _, ok := obj["method"]; ok {
		for _, s := range schemas {
			if err := s.validateServerCall(obj); err != nil {
				return err
			}
		}
		return nil
	}
	return t.response(schemas, obj)
}

// schemas returns the schemas a message is validated against: the
// negotiated revision's, or all of them.
func (t *Tracker) schemas() ([]*Schemas, error) {
	revs := Revisions
	if t.rev != "" {
		revs = []string{t.rev}
	}
	out := make([]*Schemas, 0, len(revs))
	for _, r := range revs {
		s, err := Load(r)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// response matches a response to its request and validates it.
func (t *Tracker) response(schemas []*Schemas, obj map[string]any) error {
	rawID, hasID := obj["id"]
	_, isError := obj["error"]
	method := ""
	if hasID && rawID == nil && isError {
		// An error about a message whose id could not be read.
	} else {
		key, ok := idKey(rawID)
		if !ok {
			return fmt.Errorf("mcpschema: a response needs a string or number id, got %s", idText(rawID))
		}
		methods := t.pending[key]
		if len(methods) == 0 {
			return fmt.Errorf("mcpschema: response with id %s, which no request in flight has", idText(rawID))
		}
		method = methods[0]
		if len(methods) == 1 {
			delete(t.pending, key)
		} else {
			t.pending[key] = methods[1:]
		}
		if key == t.initKey && method == "initialize" {
			t.initKey = ""
			if !isError {
				res, _ := obj["result"].(map[string]any)
				rev, _ := res["protocolVersion"].(string)
				if !slices.Contains(Revisions, rev) {
					return fmt.Errorf("mcpschema: initialize result has protocolVersion %s, not a known revision", idText(res["protocolVersion"]))
				}
				t.rev = rev
				s, err := Load(rev)
				if err != nil {
					return err
				}
				schemas = []*Schemas{s}
			}
		}
	}
	for _, s := range schemas {
		if err := s.validateResponse(method, obj); err != nil {
			return err
		}
	}
	return nil
}
