package runtime

// A call's id and params alias the buffer its message was read into, which
// the reader reuses for the next message. A call handed to a worker gets a
// copy of its own. A tools/call run on the stream's reading goroutine needs
// none: the reader reads nothing more until the call returns, and a reader
// that takes over from a call outlasting handoffDelay reads into a buffer
// of its own (streamConn.leaveBuffer), leaving the old one to the call.
// Only a call answered at its tool's timeout, which returns while its
// handler runs on, is then given a copy (ownForDeadline).

// useRead gives the call its request: in place for a tools/call on the
// stream's reading goroutine (r is direct only for the session's own
// transport, and a session's inline call runs on its reader only when the
// transport is a stream), a copy otherwise.
func (c *callContext) useRead(r replier, m *message) {
	if _, single := r.(direct); single && c.run == nil {
		c.id, c.params = m.id, m.params
		return
	}
	c.own(m.id, m.params)
}

// own gives the call a copy of id and params in a buffer of its own.
func (c *callContext) own(id, params []byte) {
	c.in = getBuffer()
	*c.in = append(append((*c.in)[:0], id...), params...)
	c.id, c.params = (*c.in)[:len(id)], (*c.in)[len(id):]
}

// ownForDeadline gives a call that reads its request in place a copy
// before its handler starts under a timeout, and returns args, a part of
// the call's params, as the same part of the copy. At the deadline the
// call is answered and its reader reads on, reusing the buffer, while the
// handler may still read its arguments.
func (c *callContext) ownForDeadline(args []byte) []byte {
	if c.in != nil {
		return args
	}
	off := cap(c.params) - cap(args) // args is a part of params
	c.own(c.id, c.params)
	if args == nil {
		return nil
	}
	if off < 0 || off+len(args) > len(c.params) {
		return append([]byte(nil), args...) // not a part of params after all
	}
	return c.params[off : off+len(args)]
}
