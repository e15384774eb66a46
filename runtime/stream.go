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
	src    io.Reader // what r reads from
	closer io.Closer // r's underlying reader, if it can be closed
	max    int

	s        *Session
	scratch  []byte     // the reader's buffer for long lines
	readDone chan error // the reader's final error, nil at the end of input

	wmu       sync.Mutex
	w         *bufio.Writer
	dst       io.Writer    // w's underlying writer
	waiting   atomic.Int32 // writers waiting for wmu
	werr      error
	abandoned atomic.Bool // the session gave up writing: see abandon

	// Pipelined input (stream_hold.go). The reader's own: busy, held,
	// holdSince.
	hold      atomic.Bool  // answers stay in w: see pace
	busy      bool         // a further request was buffered at the last read
	held      int          // messages handled since the hold began or last wrote
	holdSince time.Time    // when the hold began or last wrote
	start     time.Time    // the clock's origin for slowUntil and running
	slowUntil atomic.Int64 // until when calls go to workers, since start; 0: never

	// The handoff timer (stream_hold.go): armed while calls run on the
	// reading goroutine, once for a run of them rather than once each.
	handoff *time.Timer
	armed   atomic.Bool  // handoff is set to fire
	running atomic.Int64 // when the reader's call began, since start, plus 1; 0: none; -1: handed off
	overdue atomic.Int64 // the last call the timer found to outlast handoffDelay (its running)
	arms    atomic.Int32 // how often readers set handoff
}

// readBufferSize is the size of a stream's read buffer.
const readBufferSize = 64 << 10

func newStreamConn(r io.Reader, w io.Writer, max int) *streamConn {
	c := &streamConn{
		r: bufio.NewReaderSize(r, readBufferSize), src: r, max: max,
		w: bufio.NewWriterSize(w, 64<<10), dst: w,
		start: time.Now(),
	}
	c.closer, _ = r.(io.Closer)
	return c
}

// lockWrite takes the write lock; it reports false, without the lock, if
// the session abandoned its writes.
func (c *streamConn) lockWrite() bool {
	c.wmu.Lock()
	if c.abandoned.Load() {
		c.wmu.Unlock()
		return false
	}
	return true
}

func (c *streamConn) unlockWrite() { c.wmu.Unlock() }

// writeMessage writes msg and a newline. The last of a run of concurrent
// writers flushes, so that pipelined responses share system calls while a
// lone response goes out at once.
func (c *streamConn) writeMessage(msg []byte) error {
	c.waiting.Add(1)
	if !c.lockWrite() {
		c.waiting.Add(-1)
		return errAbandoned
	}
	defer c.unlockWrite()
	if c.werr != nil {
		c.waiting.Add(-1)
		return c.werr
	}
	c.w.Write(msg)
	c.w.WriteByte('\n')
	if c.waiting.Add(-1) == 0 && !c.hold.Load() {
		c.werr = c.w.Flush()
	}
	return c.werr
}

// flush writes what is buffered and returns the first write error.
func (c *streamConn) flush() error {
	if !c.lockWrite() {
		return errAbandoned
	}
	defer c.unlockWrite()
	if c.werr == nil {
		c.werr = c.w.Flush()
	}
	return c.werr
}

// abandon gives up the writes not done yet: a write in progress is
// interrupted if the writer has deadlines (a socket, a pipe the runtime can
// poll), and every later write fails at once. Serve waits for none of
// them: a write that cannot be interrupted holds the write lock, and its
// goroutine and those waiting behind it, until it ends or the process
// exits.
func (c *streamConn) abandon() {
	c.abandoned.Store(true)
	if d, ok := c.dst.(interface{ SetWriteDeadline(time.Time) error }); ok {
		d.SetWriteDeadline(time.Unix(1, 0))
	}
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
		buf = appendDoubling(buf, line, c.max+1)
		if err != bufio.ErrBufferFull {
			*scratch = buf
			if err == io.EOF || err == nil {
				return buf, nil
			}
			return nil, err
		}
	}
}

// appendDoubling appends b to buf, at least doubling buf's capacity when it
// grows, up to limit: reading a long message then allocates less than
// twice its size in all, where append's gentler growth for large slices
// would allocate several times it.
func appendDoubling(buf, b []byte, limit int) []byte {
	if n := len(buf) + len(b); n > cap(buf) {
		grown := make([]byte, len(buf), max(n, min(2*cap(buf), limit)))
		copy(grown, buf)
		buf = grown
	}
	return append(buf, b...)
}

// handoffDelay is how long a call may run on the reading goroutine before
// another goroutine takes over reading, so that a slow call delays neither
// other requests nor their cancellation by more than this.
const handoffDelay = 200 * time.Microsecond

// serve runs one session over the stream until the input ends or parent is
// cancelled; see Server.Serve for what happens then.
func (c *streamConn) serve(parent context.Context, srv *Server) error {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	s := newSession(ctx, srv, c)
	defer srv.untrack(s) // session_end.go
	s.inline = c
	c.s = s
	c.readDone = make(chan error, 1)
	c.handoff = time.AfterFunc(time.Hour, c.watch)
	c.handoff.Stop()
	defer c.handoff.Stop()
	go c.readLoop()
	var rerr error
	stopped := false
	select {
	case rerr = <-c.readDone:
	case <-parent.Done():
		c.stopReading()
		stopped = true
	}
	// subscriptions/listen lasts until the input ends (listen.go).
	s.endListens()
	// Reading is over, or no longer waited for: the calls accepted have the
	// grace period to be answered.
	answered := make(chan error, 1)
	go func() {
		s.wait()
		answered <- c.flush()
	}()
	var graceOver <-chan time.Time
	if grace := srv.opts.grace; grace > 0 {
		t := time.NewTimer(grace)
		defer t.Stop()
		graceOver = t.C
	}
	cancelled := parent.Done()
	if stopped {
		cancelled = nil
	}
	var werr error
	for waiting := true; waiting; {
		select {
		case werr = <-answered:
			waiting = false
		case <-cancelled:
			// At the end of input calls may finish; a cancellation
			// cancels them, within the same grace period.
			c.stopReading()
			stopped, cancelled = true, nil
		case <-graceOver:
			if !stopped {
				c.stopReading()
			}
			c.abandon()
			srv.opts.logger.Warn("shutdown: grace period over, calls in flight cancelled and unwritten answers abandoned", "grace", srv.opts.grace, "inflight", s.inFlight())
			werr, waiting = errAbandoned, false
		}
	}
	s.workers.close(s)
	s.closed.Store(true)
	switch {
	case parent.Err() != nil:
		return nil // a shutdown the caller asked for
	case rerr != nil:
		return rerr
	case werr == errAbandoned:
		return nil // the end of input, with calls that outlasted it
	}
	return werr
}

// stopReading ends the session's input: the calls in flight are cancelled
// and the reader is closed, which interrupts a read where the platform can.
func (c *streamConn) stopReading() {
	c.s.cancelAll()
	if c.closer != nil {
		c.closer.Close()
	}
}

// readLoop reads and handles messages until the input ends, or until it
// hands reading over to another goroutine.
func (c *streamConn) readLoop() {
	s := c.s
	for {
		if s.mem.over() {
			c.release()
		}
		if s.mem.over() && !s.mem.wait(s.ctx.Done()) {
			c.readDone <- nil
			return
		}
		line, err := c.readLine(&c.scratch)
		c.pace()
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
			began := c.beginCall()
			s.runCall(call)
			if !c.endCall(began) {
				return // another goroutine reads now
			}
		}
	}
}
