package mcphttp

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// Resumable event streams. Every event a session's streams carry has an id
// "<stream>_<seq>": stream 0 is the server stream a GET opened, the others
// are the event streams of POSTs. A stream starts with a priming event (an
// id, a retry delay and no data) so that a client that loses the
// connection knows where to resume: it sends GET with the Last-Event-ID
// header, and the server replays what the client missed of that POST's
// stream and goes on with the rest of it on the GET.

// retryMillis is the delay before reconnecting that a stream's priming
// event suggests.
const retryMillis = 1000

// Bounds on what a session keeps for resuming.
const (
	maxKeptEvents  = 1024 // per stream; older events are forgotten
	maxKeptStreams = 16   // finished streams, most recent
)

// postStreams are a session's POST event streams, kept for resuming.
type postStreams struct {
	mu       sync.Mutex
	last     int // the last stream id given
	byID     map[int]*postStream
	finished []int // ids of finished streams, oldest first
}

// postStream is one POST's event stream: the events sent so far and the
// connection that currently carries it, if any.
type postStream struct {
	id    int
	owner *postStreams

	mu       sync.Mutex
	events   [][]byte // encoded events, the last maxKeptEvents
	seq      int      // the last event's number
	w        http.ResponseWriter
	rc       *http.ResponseController
	replaced chan struct{} // closed when another connection takes over
	done     bool
	finished chan struct{} // closed when the stream's last event is sent
}

// open starts a stream on w, whose event-stream headers are written, and
// sends its priming event.
func (t *postStreams) open(w http.ResponseWriter, rc *http.ResponseController) *postStream {
	t.mu.Lock()
	t.last++
	p := &postStream{id: t.last, owner: t, w: w, rc: rc, replaced: make(chan struct{}), finished: make(chan struct{})}
	if t.byID == nil {
		t.byID = map[int]*postStream{}
	}
	t.byID[p.id] = p
	t.mu.Unlock()
	p.mu.Lock()
	writeRaw(w, rc, appendPriming(nil, p.id, 0))
	p.mu.Unlock()
	return p
}

// find returns the stream and event number a Last-Event-ID names.
func (t *postStreams) find(lastEventID string) (*postStream, int, bool) {
	sid, seq, ok := strings.Cut(lastEventID, "_")
	if !ok {
		return nil, 0, false
	}
	id, err1 := strconv.Atoi(sid)
	n, err2 := strconv.Atoi(seq)
	if err1 != nil || err2 != nil {
		return nil, 0, false
	}
	t.mu.Lock()
	p := t.byID[id]
	t.mu.Unlock()
	return p, n, p != nil
}

// retire forgets the oldest finished streams beyond maxKeptStreams.
func (t *postStreams) retire(id int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.finished = append(t.finished, id)
	for len(t.finished) > maxKeptStreams {
		delete(t.byID, t.finished[0])
		t.finished = t.finished[1:]
	}
}

// send writes msg as the stream's next event to the connection carrying
// it, if any, and keeps it for a client that resumes.
func (p *postStream) send(msg []byte) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.seq++
	ev := appendEventID(nil, p.id, p.seq)
	ev = appendEvent(ev, msg)
	p.events = append(p.events, ev)
	if len(p.events) > maxKeptEvents {
		p.events = p.events[1:]
	}
	if p.w == nil {
		return nil // kept for a resuming client
	}
	if err := writeRaw(p.w, p.rc, ev); err != nil {
		p.w, p.rc = nil, nil
	}
	return nil
}

// finish marks the stream complete: its last event is sent.
func (p *postStream) finish() {
	p.mu.Lock()
	if !p.done {
		p.done = true
		close(p.finished)
	}
	p.mu.Unlock()
	p.owner.retire(p.id)
}

// detach stops writing to w, which is going away.
func (p *postStream) detach(w http.ResponseWriter) {
	p.mu.Lock()
	if p.w == w {
		p.w, p.rc = nil, nil
	}
	p.mu.Unlock()
}

// resume carries the stream on a GET that names event after as the last
// one its client got: the events after it are replayed, the rest follow
// until the stream is complete, the client goes away or another
// connection takes over.
func (p *postStream) resume(w http.ResponseWriter, req *http.Request, after int) {
	rc := http.NewResponseController(w)
	p.mu.Lock()
	startEvents(w)
	first := p.seq - len(p.events) + 1 // number of p.events[0]
	for i, ev := range p.events {
		if first+i > after {
			if writeRaw(w, rc, ev) != nil {
				p.mu.Unlock()
				return
			}
		}
	}
	if p.done {
		p.mu.Unlock()
		return
	}
	close(p.replaced)
	replaced := make(chan struct{})
	p.w, p.rc, p.replaced = w, rc, replaced
	p.mu.Unlock()
	select {
	case <-p.finished:
	case <-replaced:
	case <-req.Context().Done():
	}
	p.detach(w)
}

// appendEventID appends the id line of event seq of stream id.
func appendEventID(dst []byte, id, seq int) []byte {
	dst = append(dst, "id: "...)
	dst = strconv.AppendInt(dst, int64(id), 10)
	dst = append(dst, '_')
	dst = strconv.AppendInt(dst, int64(seq), 10)
	return append(dst, '\n')
}

// appendPriming appends a priming event: an id, the retry delay, no data.
func appendPriming(dst []byte, id, seq int) []byte {
	dst = appendEventID(dst, id, seq)
	dst = append(dst, "retry: "...)
	dst = strconv.AppendInt(dst, retryMillis, 10)
	return append(dst, "\ndata: \n\n"...)
}
