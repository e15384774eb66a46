package runtime

import (
	"bufio"
	"io"
)

// leaveBuffer leaves the read buffer, and the buffer of long lines, to the
// call that runs on the reading goroutine, which reads its request there
// (callalias.go): the reader that takes over from it reads into new ones,
// starting with what the old buffer holds unread. It is called by that
// reader, before it reads, once the old one has stopped reading.
func (c *streamConn) leaveBuffer() {
	rest, _ := c.r.Peek(c.r.Buffered()) // no longer written: the old reader reads no more
	src := c.src
	if p, ok := src.(*prefixReader); ok && len(p.rest) == 0 {
		src = p.r // what an earlier takeover left unread is read
	}
	if len(rest) > 0 {
		src = &prefixReader{rest: rest, r: src}
	}
	c.src = src
	c.r = bufio.NewReaderSize(src, readBufferSize)
	c.scratch = nil
}

// prefixReader reads rest, then r.
type prefixReader struct {
	rest []byte
	r    io.Reader
}

func (p *prefixReader) Read(b []byte) (int, error) {
	if len(p.rest) == 0 {
		return p.r.Read(b)
	}
	n := copy(b, p.rest)
	if p.rest = p.rest[n:]; len(p.rest) == 0 {
		p.rest = nil // the old buffer is no longer kept for it
	}
	return n, nil
}
