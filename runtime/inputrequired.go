package runtime

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Multi round-trip requests (revision 2026-07-28). A server no longer
// sends requests to its client: a tools/call, prompts/get or resources/read
// that needs the client's input ([Elicit], [Sample], [Roots]) is answered
// with an InputRequiredResult naming what it needs, and the client sends
// the request again, with the answers. The handler runs again from the
// start on that retry, and the same calls, in the same order, now return
// the answers instead of asking.
//
// So a handler of a request that may need input must be deterministic up
// to its last such call: it must make the same calls in the same order on
// every run, and anything it does before one (writing a file, charging an
// account, sending a message) happens once per round. Put side effects
// after the last call that asks the client, or make them idempotent.
// Between rounds nothing of the handler survives but the answers: they
// travel, sealed, in the result's requestState, which the client echoes.

// ErrInputRequired is matched (with errors.Is) by the error [Elicit],
// [Sample] and [Roots] return, under revision 2026-07-28, when the client
// has not answered yet: the request is then answered with an
// InputRequiredResult asking for it, whatever the handler returns, and the
// handler runs again when the client retries with the answer. A handler
// should return at once on it.
var ErrInputRequired = errors.New("input required from the client: the request is answered with an InputRequiredResult and retried with the answer")

// inputRequiredError carries ErrInputRequired with the call's name.
type inputRequiredError struct{ method string }

func (e *inputRequiredError) Error() string {
	return "runtime: " + e.method + ": " + ErrInputRequired.Error()
}
func (e *inputRequiredError) Is(t error) bool { return t == ErrInputRequired }

// stateTTL is how long a requestState stays valid.
const stateTTL = time.Hour

// WithRequestStateKey sets the key that seals the requestState of
// multi round-trip requests (revision 2026-07-28) with HMAC-SHA256. Servers
// behind a load balancer must share one; by default each process draws a
// random key, so a retry must reach the process that asked.
func WithRequestStateKey(key []byte) Option {
	return func(o *options) { o.stateKey = append([]byte(nil), key...) }
}

var processStateKey = sync.OnceValue(func() []byte {
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		panic("runtime: no random key for requestState: " + err.Error())
	}
	return k
})

func (srv *Server) stateKey() []byte {
	if k := srv.opts.stateKey; len(k) > 0 {
		return k
	}
	return processStateKey()
}

// mrtrState is the multi round-trip state of one request.
type mrtrState struct {
	// target is the digest binding the state to the request; on a first
	// round it is made when the handler first asks for input.
	target string
	method string

	mu      sync.Mutex
	answers map[string]json.RawMessage // key -> the client's answer
	seq     int                        // input calls made in this run
	asked   []string                   // keys asked in this run, in order
	reqs    map[string][]byte          // key -> {"method":…,"params":…}
}

// sealedState is the payload of a requestState.
type sealedState struct {
	Target  string                     `json:"t"`
	Expires int64                      `json:"x"`
	Answers map[string]json.RawMessage `json:"a,omitempty"`
	Asked   []string                   `json:"p,omitempty"`
}

// openState reads the multi round-trip fields of a retry, a request whose
// params have a requestState member: it verifies requestState and takes
// the answers of earlier rounds from it, and this round's answers from
// inputResponses (only those the server asked for). It fills st, which
// must be new. A first round has nothing to verify, nor anything to read
// until its handler asks for input (request26.state).
func (srv *Server) openState(method string, params []byte, st *mrtrState) *Error {
	st.method = method
	var p map[string]json.RawMessage
	if err := json.Unmarshal(params, &p); err != nil {
		return &Error{Code: CodeInvalidParams, Message: "Invalid params: " + err.Error()}
	}
	rawState, rawResponses := p["requestState"], p["inputResponses"]
	st.target, st.answers = stateTarget(method, p), map[string]json.RawMessage{}
	if rawState == nil {
		return nil
	}
	var token string
	if json.Unmarshal(rawState, &token) != nil {
		return &Error{Code: CodeInvalidParams, Message: "Invalid params: params.requestState must be a string"}
	}
	sealed, err := srv.unseal(token)
	if err != nil {
		return &Error{Code: CodeInvalidParams, Message: "Invalid params: params.requestState " + err.Error()}
	}
	if sealed.Target != st.target {
		return &Error{Code: CodeInvalidParams, Message: "Invalid params: params.requestState belongs to another request; retry with the same method and arguments"}
	}
	for k, v := range sealed.Answers {
		st.answers[k] = v
	}
	var responses map[string]json.RawMessage
	if rawResponses != nil && json.Unmarshal(rawResponses, &responses) != nil {
		return &Error{Code: CodeInvalidParams, Message: "Invalid params: params.inputResponses must be an object"}
	}
	for _, k := range sealed.Asked {
		if v, ok := responses[k]; ok {
			st.answers[k] = v
		}
	}
	return nil
}

// stateTarget is the digest binding a requestState to the request of
// method with params p: the params but the _meta and the multi round-trip
// members, with sorted keys and compacted values. It deletes those from p.
func stateTarget(method string, p map[string]json.RawMessage) string {
	delete(p, "_meta")
	delete(p, "requestState")
	delete(p, "inputResponses")
	canon, _ := json.Marshal(p) // sorted keys, compacted values
	sum := sha256.Sum256(append(append([]byte(method), 0), canon...))
	return base64.RawURLEncoding.EncodeToString(sum[:16])
}

// bind makes the target of a first round from the params of the call c,
// when the handler first asks for input. Called with st.mu held.
func (st *mrtrState) bind(c *callContext) error {
	if st.target != "" {
		return nil
	}
	c.mu.Lock()
	params := c.params
	c.mu.Unlock()
	var p map[string]json.RawMessage
	if err := json.Unmarshal(params, &p); err != nil {
		return errors.New("runtime: the request's params cannot bind the input it requires: " + err.Error())
	}
	st.target = stateTarget(st.method, p)
	return nil
}

func (srv *Server) seal(s *sealedState) string {
	payload, _ := json.Marshal(s)
	body := base64.RawURLEncoding.EncodeToString(payload)
	mac := hmac.New(sha256.New, srv.stateKey())
	mac.Write([]byte(body))
	return body + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

func (srv *Server) unseal(token string) (*sealedState, error) {
	body, sig, ok := strings.Cut(token, ".")
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if !ok || err != nil {
		return nil, errors.New("is not one this server issued")
	}
	mac := hmac.New(sha256.New, srv.stateKey())
	mac.Write([]byte(body))
	if !hmac.Equal(got, mac.Sum(nil)) {
		return nil, errors.New("failed verification: it was altered, or issued by another server")
	}
	payload, err := base64.RawURLEncoding.DecodeString(body)
	s := new(sealedState)
	if err != nil || json.Unmarshal(payload, s) != nil {
		return nil, errors.New("is malformed")
	}
	if time.Now().Unix() > s.Expires {
		return nil, errors.New("has expired; send the request again without it")
	}
	return s, nil
}

// inputKey names the n-th input call of a run: the method's short name and
// the position, so that a handler that changes its calls between rounds
// never gets an answer to another question.
func inputKey(method string, n int) string {
	short := method
	switch method {
	case methodElicit:
		short = "elicit"
	case methodCreateMessage:
		short = "sample"
	case methodRootsList:
		short = "roots"
	}
	return short + "-" + strconv.Itoa(n)
}

// input is a request to the client under revision 2026-07-28: the answer
// sent on a retry, or ErrInputRequired after recording the request for the
// InputRequiredResult.
func (st *mrtrState) input(c *callContext, method string, params []byte) (json.RawMessage, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if err := st.bind(c); err != nil {
		return nil, err
	}
	st.seq++
	key := inputKey(method, st.seq)
	if a, ok := st.answers[key]; ok {
		return a, nil
	}
	b := []byte(`{"method":`)
	b = appendString(b, method)
	// Params are optional for roots/list, but clients (the Go SDK among
	// them) decode the params of every input request: send an empty object.
	if params == nil {
		params = []byte(`{}`)
	}
	b = append(b, `,"params":`...)
	b = append(b, params...)
	if st.reqs == nil {
		st.reqs = map[string][]byte{}
	}
	st.reqs[key] = append(b, '}')
	st.asked = append(st.asked, key)
	return nil, &inputRequiredError{method}
}

// inputRequired returns the InputRequiredResult of a run that asked the
// client for input, or nil.
func (srv *Server) inputRequired(st *mrtrState) []byte {
	st.mu.Lock()
	defer st.mu.Unlock()
	if len(st.asked) == 0 {
		return nil
	}
	b := []byte(`{"inputRequests":{`)
	for i, k := range st.asked {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, k)
		b = append(b, ':')
		b = append(b, st.reqs[k]...)
	}
	b = append(b, `},"requestState":`...)
	b = appendString(b, srv.seal(&sealedState{Target: st.target, Expires: time.Now().Add(stateTTL).Unix(), Answers: st.answers, Asked: st.asked}))
	return append(b, '}')
}
