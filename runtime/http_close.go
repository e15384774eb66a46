package runtime

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// ErrNoStream is matched (with errors.Is) by the error of [CloseStream]
// when the request has no event stream that its client could resume.
var ErrNoStream = errors.New("the request has no resumable event stream")

// streamCloser is a replier whose request's event stream can be ended
// while the request is handled, for the client to resume it later.
type streamCloser interface {
	closeStream(retry time.Duration) error
}

// CloseStream ends the event stream that carries the answer to the request
// of ctx, a handler's context, while the handler goes on (polling, as
// revision 2025-11-25 allows): the client reconnects after retry (when
// retry > 0; otherwise after the delay the stream's first event gave),
// with GET and Last-Event-ID, and receives what the handler sent from then
// on, its result included. A long call thus holds no connection.
//
// Only a request of a Streamable HTTP session at revision 2025-11-25 or
// later, over HTTP/1.1, has such a stream; elsewhere (stdio, WebSocket, a
// stateless server, HTTP/2, an earlier revision) it
// returns an error matching [ErrNoStream], and the handler goes on as if
// it had not been called.
func CloseStream(ctx context.Context, retry time.Duration) error {
	c, _ := ctx.Value(callKey{}).(*callContext)
	if c == nil {
		return errors.New("runtime: CloseStream: the context is not a handler's context of a request")
	}
	c.mu.Lock()
	err, r := c.err, c.r
	c.mu.Unlock()
	if err != nil {
		return fmt.Errorf("runtime: CloseStream: %w", err)
	}
	sc, ok := r.(streamCloser)
	if !ok {
		return fmt.Errorf("runtime: CloseStream: %w: the transport has none", ErrNoStream)
	}
	if s := SessionFromContext(ctx); s != nil && s.rev < rev20251125 {
		// Earlier revisions ask servers to keep the stream open until the
		// response: their clients need not resume it.
		return fmt.Errorf("runtime: CloseStream: %w: clients of protocol revision %s do not expect a stream to end before its response", ErrNoStream, s.rev)
	}
	return sc.closeStream(retry)
}

// closeStream turns the response into an event stream, if it is not one
// yet, and ends it; what the request sends from then on is kept for the
// client that resumes the stream. net/http ends a response only when its
// handler returns, and the handler is running the call, so the connection
// is taken over: the chunked body is ended by hand and the connection
// closed.
func (r *postReply) closeStream(retry time.Duration) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.streams == nil:
		return fmt.Errorf("runtime: CloseStream: %w: a stateless server keeps no stream to resume", ErrNoStream)
	case r.gone:
		return fmt.Errorf("runtime: CloseStream: %w", errExchangeOver)
	case r.closed:
		return nil
	}
	if !r.events {
		r.startEventsLocked()
	}
	if retry > 0 {
		// A retry field alone dispatches no event.
		writeRaw(r.w, r.rc, append(strconv.AppendInt([]byte("retry: "), retry.Milliseconds(), 10), "\n\n"...))
	}
	flush(r.rc)
	conn, buf, err := r.rc.Hijack()
	if err != nil { // HTTP/2
		return fmt.Errorf("runtime: CloseStream: %w: %v", ErrNoStream, err)
	}
	r.closed = true
	r.stream.detach(r.w)
	// The last chunk of the body, so that the client sees the stream end
	// rather than break. (On HTTP/1.0, where the body ends with the
	// connection, it reads as an unknown event field and is ignored.)
	conn.SetWriteDeadline(time.Now().Add(eventWriteTimeout))
	buf.WriteString("0\r\n\r\n")
	buf.Flush()
	conn.Close()
	return nil
}
