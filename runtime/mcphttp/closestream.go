package mcphttp

import (
	"fmt"
	"strconv"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// CloseStream, which [runtime.CloseStream] calls, turns the response into an event stream, if it is not one
// yet, and ends it; what the request sends from then on is kept for the
// client that resumes the stream. net/http ends a response only when its
// handler returns, and the handler is running the call, so the connection
// is taken over: the chunked body is ended by hand and the connection
// closed.
func (r *postReply) CloseStream(retry time.Duration) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.streams == nil:
		return fmt.Errorf("runtime: CloseStream: %w: a stateless server keeps no stream to resume", runtime.ErrNoStream)
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
		return fmt.Errorf("runtime: CloseStream: %w: %v", runtime.ErrNoStream, err)
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
