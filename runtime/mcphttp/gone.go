package mcphttp

// A client that goes away in the middle of a POST over Streamable HTTP
// does not cancel its calls by that alone: the specification says a
// disconnection is not a cancellation, because the client may resume the
// request's event stream with a GET naming the last event it got
// (resume.go). But when nothing could deliver the answers any more,
// running the calls on only wastes the server's time, and a client that
// drops its connections could keep any number of them busy. So a call
// whose POST is gone is cancelled unless its answer can still be resumed.

// goneUndeliverable is called when the client of r went away with requests
// of the POST still unanswered. It reports whether their answers can no
// longer reach the client: when the response was still to be a JSON body,
// or an event stream that cannot be resumed (no session), the client has
// no event id to resume from, and the answers are lost. From then on no
// event stream starts for r. A resumable event stream keeps its calls
// running; their answers wait for the client's GET. When the session ends,
// its calls are cancelled anyway (httpSession.end).
func (r *postReply) goneUndeliverable() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stream != nil {
		return false // kept for a client that resumes
	}
	r.gone = true
	return true
}
