package runtime

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// streamConn carries newline-delimited JSON-RPC messages over a byte
// stream: stdio, a pipe, a socket.
type streamConn struct {
	r      *bufio.Reader
	closer io.Closer // r's underlying reader, if it can be closed
	max    int

	s        *Session
	scratch  []byte     // the reader's buffer for long lines
	readDone chan error // the reader's final error, nil at the end of input

	wmu     sync.Mutex
	w       *bufio.Writer
	waiting atomic.Int32 // writers waiting for wmu
	werr    error
}

func newStreamConn(r io.Reader, w io.Writer, max int) *streamConn {
	c := &streamConn{r: bufio.NewReaderSize(r, 64<<10), w: bufio.NewWriterSize(w, 64<<10), max: max}
	c.closer, _ = r.(io.Closer)
	return c
}

// writeMessage writes msg and a newline. The last of a run of concurrent
// writers flushes, so that pipelined responses share system calls while a
// lone response goes out at once.
func (c *streamConn) writeMessage(msg []byte) error {
	c.waiting.Add(1)
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.werr != nil {
		c.waiting.Add(-1)
		return c.werr
	}
	c.w.Write(msg)
	c.w.WriteByte('\n')
	if c.waiting.Add(-1) == 0 {
		c.werr = c.w.Flush()
	}
	return c.werr
}

// errTooLarge is returned by readLine for a line over the size limit; the
// line has been consumed.
var errTooLarge = errors.New("message too large")

var newline = []byte{'\n'}

// readLine returns the next line without its newline. The slice is valid
// until the next call.
func (c *streamConn) readLine(scratch *[]byte) ([]byte, error) {
	line, err := c.r.ReadSlice('\n')
	if err == nil || err == io.EOF && len(line) > 0 { // the last line may lack its newline
		if len(bytes.TrimSuffix(line, newline)) > c.max {
			return nil, errTooLarge
		}
		return line, nil
	}
	if err != bufio.ErrBufferFull {
		return nil, err
	}
	buf := append((*scratch)[:0], line...)
	for {
		line, err = c.r.ReadSlice('\n')
		if len(buf)+len(bytes.TrimSuffix(line, newline)) > c.max {
			buf = buf[:0]
			for err == bufio.ErrBufferFull {
				_, err = c.r.ReadSlice('\n')
			}
			*scratch = buf
			if err != nil && err != io.EOF {
				return nil, err
			}
			return nil, errTooLarge
		}
		buf = append(buf, line...)
		if err != bufio.ErrBufferFull {
			*scratch = buf
			if err == io.EOF || err == nil {
				return buf, nil
			}
			return nil, err
		}
	}
}

// handoffDelay is how long a call may run on the reading goroutine before
// another goroutine takes over reading, so that a slow call delays neither
// other requests nor their cancellation by more than this.
const handoffDelay = 200 * time.Microsecond

// idle reports whether no further input is buffered: the client waits for
// an answer rather than pipelining requests.
func (c *streamConn) idle() bool { return c.r.Buffered() == 0 }

// serve runs one session over the stream until the input ends or ctx is
// cancelled; then it waits for the requests in flight to be answered.
func (c *streamConn) serve(parent context.Context, srv *Server) error {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	s := newSession(ctx, srv, c)
	s.inline = c
	c.s = s
	c.readDone = make(chan error, 1)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		select {
		case <-ctx.Done():
			s.cancelAll()
			if c.closer != nil {
				c.closer.Close()
			}
		case <-stop:
		}
	}()
	go c.readLoop()
	rerr := <-c.readDone
	s.endListens() // subscriptions/listen lasts until the input ends (listen.go)
	s.wait()
	s.workers.close(s)
	s.closed.Store(true)
	c.wmu.Lock()
	werr := c.w.Flush()
	c.wmu.Unlock()
	switch {
	case parent.Err() != nil:
		return parent.Err()
	case rerr != nil && ctx.Err() == nil:
		return rerr
	case c.werr != nil:
		return c.werr
	}
	return werr
}

// readLoop reads and handles messages until the input ends, or until it
// hands reading over to another goroutine.
func (c *streamConn) readLoop() {
	s := c.s
	// The timer starts the next reader if a call run here outlasts
	// handoffDelay; it belongs to this reader alone, so that whether it
	// fired tells this reader, and only it, to stop reading.
	handoff := time.AfterFunc(time.Hour, c.readLoop)
	handoff.Stop()
	for {
		line, err := c.readLine(&c.scratch)
		if err == errTooLarge {
			s.replyError(direct{s}, nil, &Error{Code: CodeInvalidRequest, Message: "Invalid Request: message larger than " + strconv.Itoa(c.max) + " bytes"})
			continue
		}
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			c.readDone <- err
			return
		}
		if s.ctx.Err() != nil {
			c.readDone <- nil
			return
		}
		if call := s.handle(bytes.TrimSuffix(line, []byte{'\n'})); call != nil {
			handoff.Reset(handoffDelay)
			s.runCall(call)
			if !handoff.Stop() {
				return // another goroutine reads now
			}
		}
	}
}
