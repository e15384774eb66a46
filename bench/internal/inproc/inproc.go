// Package inproc runs a server's serve loop inside the test process, over a
// pair of io.Pipes, and measures one tools/call round trip with the same
// bytes the process driver sends.
package inproc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/bench/internal/searchtool"
	"github.com/mcpgen/mcpgen/bench/internal/wire"
)

// ServeFunc serves MCP over newline-delimited JSON read from r and written
// to w until r reaches EOF or ctx is done.
type ServeFunc func(ctx context.Context, r io.Reader, w io.Writer) error

// Session is a client connected to a ServeFunc running in a goroutine.
type Session struct {
	w      *io.PipeWriter
	r      *bufio.Reader
	sr     *io.PipeReader
	sw     *io.PipeWriter
	cancel context.CancelFunc
	done   chan error
	buf    []byte
	id     int64
}

// Start runs serve and performs the initialize handshake.
func Start(serve ServeFunc) (*Session, error) {
	sr, cw := io.Pipe() // client → server
	cr, sw := io.Pipe() // server → client
	ctx, cancel := context.WithCancel(context.Background())
	s := &Session{w: cw, r: bufio.NewReaderSize(cr, 64<<10), sr: sr, sw: sw, cancel: cancel, done: make(chan error, 1)}
	go func() {
		err := serve(ctx, sr, sw)
		sw.Close()
		s.done <- err
	}()
	s.id++
	if _, err := s.w.Write(wire.AppendInitialize(nil, s.id)); err != nil {
		return nil, err
	}
	m, err := s.read()
	if err != nil {
		return nil, err
	}
	if _, err := wire.CheckInitialize(m, s.id); err != nil {
		return nil, err
	}
	if _, err := s.w.Write(wire.AppendInitialized(nil)); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Session) read() (*wire.Message, error) {
	for {
		line, err := wire.ReadLine(s.r)
		if err != nil {
			return nil, err
		}
		m, err := wire.ParseMessage(line)
		if err != nil {
			return nil, err
		}
		if m.IsNotification() {
			continue
		}
		if m.IsRequest() {
			return nil, fmt.Errorf("unexpected server request %s", m.Method)
		}
		return m, nil
	}
}

// Check sends every call of wire.Calls and checks the answers in full.
func (s *Session) Check() error {
	for _, c := range wire.Calls {
		s.id++
		if _, err := s.w.Write(wire.AppendCall(nil, s.id, searchtool.Name, c.Args)); err != nil {
			return err
		}
		m, err := s.read()
		if err != nil {
			return err
		}
		if id, err := m.IDInt(); err != nil || id != s.id {
			return fmt.Errorf("answer id %s, want %d", m.ID, s.id)
		}
		r, err := wire.DecodeCallResult(m)
		if err != nil {
			return err
		}
		if err := wire.CheckCall(r, c); err != nil {
			return err
		}
	}
	return nil
}

// Close ends the session and waits for the serve loop to return.
func (s *Session) Close() error {
	s.w.Close()
	select {
	case err := <-s.done:
		if errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) || errors.Is(err, io.ErrClosedPipe) {
			err = nil
		}
		return err
	case <-time.After(5 * time.Second):
		// A server that does not stop at EOF is stopped through ctx.
		s.cancel()
		s.sr.Close()
		select {
		case <-s.done:
		case <-time.After(5 * time.Second):
		}
		return errors.New("serve did not return at end of input")
	}
}

// Bench measures one tools/call round trip through serve.
func Bench(b *testing.B, serve ServeFunc) {
	s, err := Start(serve)
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Check(); err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 0, 256)
	id := s.id
	b.ReportAllocs()
	for b.Loop() {
		id++
		k := id % int64(len(wire.Calls))
		buf = wire.AppendCall(buf[:0], id, searchtool.Name, wire.Calls[k].Args)
		if _, err := s.w.Write(buf); err != nil {
			b.Fatal(err)
		}
		line, err := wire.ReadLine(s.r)
		if err != nil {
			b.Fatal(err)
		}
		if err := wire.QuickCheck(line, id, wire.Calls[k].WantJSON); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	s.id = id
	if err := s.Check(); err != nil {
		b.Fatal(err)
	}
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
}

// Bad sends an invalid call and describes the answer (see wire.Classify).
func (s *Session) Bad(c wire.BadCase) (string, error) {
	s.id++
	if _, err := s.w.Write(wire.AppendCall(nil, s.id, c.Tool, c.Args)); err != nil {
		return "", err
	}
	m, err := s.read()
	if err != nil {
		return "", err
	}
	if id, err := m.IDInt(); err != nil || id != s.id {
		return "", fmt.Errorf("answer id %s, want %d", m.ID, s.id)
	}
	return wire.Classify(m)
}

// Conformance checks a server the way the benchmarks use it: the handshake,
// valid calls, every invalid call of wire.BadCases, and valid calls again.
// With strict set, an invalid call answered otherwise than MCP asks fails
// the test; without it, the answer is only logged (peers are measured as
// they are).
func Conformance(t *testing.T, serve ServeFunc, strict bool) {
	t.Helper()
	s, err := Start(serve)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	for _, c := range wire.BadCases {
		got, err := s.Bad(c)
		if err != nil {
			t.Fatalf("%s: %v", c.Label, err)
		}
		switch {
		case got == c.Expected():
		case strict:
			t.Errorf("%s: got %s, want %s", c.Label, got, c.Expected())
		default:
			t.Logf("%s: got %s (MCP asks for %s)", c.Label, got, c.Expected())
		}
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	for _, c := range wire.LargeCalls() {
		if err := s.checkLarge(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

// BenchLarge measures one call of each large-message case through serve,
// as sub-benchmarks named by the case (in=1MiB, out=64KiB, items=10000).
func BenchLarge(b *testing.B, serve ServeFunc) {
	s, err := Start(serve)
	if err != nil {
		b.Fatal(err)
	}
	defer func() {
		if err := s.Close(); err != nil {
			b.Error(err)
		}
	}()
	for _, c := range wire.LargeCalls() {
		b.Run(c.Label, func(b *testing.B) {
			if err := s.checkLarge(c); err != nil {
				b.Fatal(err)
			}
			buf := wire.AppendCall(nil, 0, c.Tool, c.Args)
			b.SetBytes(int64(c.Bytes))
			b.ReportAllocs()
			var long []byte
			for b.Loop() {
				s.id++
				buf = wire.AppendCall(buf[:0], s.id, c.Tool, c.Args)
				if _, err := s.w.Write(buf); err != nil {
					b.Fatal(err)
				}
				line, err := wire.ReadLineInto(s.r, long)
				if err != nil {
					b.Fatal(err)
				}
				if err := c.QuickCheck(line, s.id); err != nil {
					b.Fatal(err)
				}
				if cap(line) > cap(long) {
					long = line
				}
			}
			b.StopTimer()
			if err := s.checkLarge(c); err != nil {
				b.Fatal(err)
			}
		})
	}
}

// checkLarge sends one large-message call and checks the answer in full.
func (s *Session) checkLarge(c wire.LargeCall) error {
	s.id++
	if _, err := s.w.Write(wire.AppendCall(nil, s.id, c.Tool, c.Args)); err != nil {
		return err
	}
	m, err := s.read()
	if err != nil {
		return err
	}
	if id, err := m.IDInt(); err != nil || id != s.id {
		return fmt.Errorf("answer id %s, want %d", m.ID, s.id)
	}
	return c.Check(m)
}
