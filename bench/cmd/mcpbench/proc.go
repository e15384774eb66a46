package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mcpgen/mcpgen/bench/internal/searchtool"
	"github.com/mcpgen/mcpgen/bench/internal/wire"
)

// proc is one server process spoken to over its stdin and stdout, as an MCP
// client host would.
type proc struct {
	name    string
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	r       *bufio.Reader
	stderr  *tailBuffer
	id      int64
	buf     []byte
	notes   int       // notifications received and skipped
	answers int64     // tools/call answers read
	arrived time.Time // when the last answer's line was read

	timedOut atomic.Bool // the watchdog killed the process
}

// tailBuffer keeps the last bytes a server wrote to stderr, for error
// messages.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > 4096 {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-4096:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.buf))
}

// startTimeout bounds the initialize handshake.
const startTimeout = 10 * time.Second

// startProc starts the binary and completes the initialize handshake. It
// returns the time from just before the process was started to the arrival
// of the initialize answer.
func startProc(name, path string) (*proc, time.Duration, error) {
	cmd := exec.Command(path)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, 0, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, 0, err
	}
	p := &proc{name: name, cmd: cmd, stdin: stdin, r: bufio.NewReaderSize(stdout, 256<<10), stderr: &tailBuffer{}}
	cmd.Stderr = p.stderr
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, 0, err
	}
	defer p.watchdog(startTimeout)()
	p.id++
	if err := p.write(wire.AppendInitialize(p.buf[:0], p.id)); err != nil {
		p.kill()
		return nil, 0, p.fail("writing initialize: %v", err)
	}
	m, err := p.readMessage()
	d := time.Since(t0)
	if err != nil {
		p.kill()
		return nil, 0, err
	}
	if _, err := wire.CheckInitialize(m, p.id); err != nil {
		p.kill()
		return nil, 0, p.fail("%v", err)
	}
	if err := p.write(wire.AppendInitialized(p.buf[:0])); err != nil {
		p.kill()
		return nil, 0, p.fail("writing notifications/initialized: %v", err)
	}
	return p, d, nil
}

func (p *proc) fail(format string, args ...any) error {
	msg := fmt.Sprintf("%s: %s", p.name, fmt.Sprintf(format, args...))
	if p.timedOut.Load() {
		msg += " (killed by the watchdog: the phase overran its time limit)"
	}
	if tail := p.stderr.String(); tail != "" {
		msg += "\n--- " + p.name + " stderr (tail) ---\n" + tail
	}
	return errors.New(msg)
}

func (p *proc) write(b []byte) error {
	_, err := p.stdin.Write(b)
	return err
}

// readLine reads one message line, skipping none.
func (p *proc) readLine() ([]byte, error) {
	line, err := wire.ReadLine(p.r)
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, p.fail("server closed its output")
		}
		return nil, p.fail("reading: %v", err)
	}
	return line, nil
}

// readMessage reads the next response, skipping server notifications. A
// server-to-client request is a protocol error here: the client declared no
// capabilities.
func (p *proc) readMessage() (*wire.Message, error) {
	for {
		line, err := p.readLine()
		if err != nil {
			return nil, err
		}
		m, err := wire.ParseMessage(line)
		if err != nil {
			return nil, p.fail("%v", err)
		}
		if m.IsNotification() {
			p.notes++
			continue
		}
		if m.IsRequest() {
			return nil, p.fail("unexpected server request %q", m.Method)
		}
		return m, nil
	}
}

// checkAnswer checks that m answers id and is the right result for c.
func (p *proc) checkAnswer(m *wire.Message, id int64, c wire.Call) error {
	got, err := m.IDInt()
	if err != nil {
		return p.fail("%v", err)
	}
	if got != id {
		return p.fail("answer carries id %d, want %d", got, id)
	}
	r, err := wire.DecodeCallResult(m)
	if err != nil {
		return p.fail("tools/call %s: %v", c.Args, err)
	}
	if err := wire.CheckCall(r, c); err != nil {
		return p.fail("%v", err)
	}
	return nil
}

// fullEvery says how often an answer that passes the cheap check is decoded
// in full all the same.
const fullEvery = 16

// readAnswer reads the answer to an outstanding tools/call and checks it.
// lookup gives the call an id was sent with, if it is outstanding. Every
// answer is checked to be well-formed JSON carrying an outstanding id and
// exactly the expected text, without isError; one in fullEvery, and any
// that fails that cheap check, is decoded in full (envelope, id, result),
// which decides.
func (p *proc) readAnswer(lookup func(int64) (wire.Call, bool)) (int64, error) {
	for {
		line, err := p.readLine()
		if err != nil {
			return 0, err
		}
		p.arrived = time.Now()
		p.answers++
		if p.answers%fullEvery != 0 {
			if id, ok := wire.FindID(line); ok {
				if c, ok := lookup(id); ok && wire.FastMatch(line, c.WantJSON) {
					return id, nil
				}
			}
		}
		m, err := wire.ParseMessage(line)
		if err != nil {
			return 0, p.fail("%v", err)
		}
		if m.IsNotification() {
			p.notes++
			continue
		}
		if m.IsRequest() {
			return 0, p.fail("unexpected server request %q", m.Method)
		}
		id, err := m.IDInt()
		if err != nil {
			return 0, p.fail("%v", err)
		}
		c, ok := lookup(id)
		if !ok {
			return 0, p.fail("answer carries id %d, which is not outstanding", id)
		}
		return id, p.checkAnswer(m, id, c)
	}
}

// call makes one tools/call round trip and returns its latency: from just
// before the request is written to the arrival of the answer's line.
func (p *proc) call() (time.Duration, error) {
	p.id++
	want := p.id
	c := wire.CallFor(want)
	p.buf = wire.AppendCall(p.buf[:0], want, searchtool.Name, c.Args)
	t0 := time.Now()
	if err := p.write(p.buf); err != nil {
		return 0, p.fail("writing: %v", err)
	}
	_, err := p.readAnswer(func(id int64) (wire.Call, bool) { return c, id == want })
	return p.arrived.Sub(t0), err
}

// sequential makes round trips for d, one at a time, and returns how many
// were made, the time taken and each latency (appended to lat).
func (p *proc) sequential(d time.Duration, lat []time.Duration) (int, time.Duration, []time.Duration, error) {
	n := 0
	t0 := time.Now()
	deadline := t0.Add(d)
	for time.Now().Before(deadline) {
		l, err := p.call()
		if err != nil {
			return 0, 0, lat, err
		}
		lat = append(lat, l)
		n++
	}
	return n, time.Since(t0), lat, nil
}

// pipelined keeps inflight calls outstanding for d: every answer read lets
// one more request go, and the requests freed by the answers already in the
// read buffer are written together. It returns the calls answered and the
// time from the first request to the last answer.
func (p *proc) pipelined(d time.Duration, inflight int) (int, time.Duration, error) {
	want := make(map[int64]wire.Call, inflight)
	var out []byte
	issue := func(k int) {
		for range k {
			p.id++
			c := wire.CallFor(p.id)
			want[p.id] = c
			out = wire.AppendCall(out, p.id, searchtool.Name, c.Args)
		}
	}
	t0 := time.Now()
	deadline := t0.Add(d)
	issue(inflight)
	if err := p.write(out); err != nil {
		return 0, 0, p.fail("writing: %v", err)
	}
	out = out[:0]
	done, pending := 0, 0
	lookup := func(id int64) (wire.Call, bool) {
		c, ok := want[id]
		return c, ok
	}
	for len(want) > 0 {
		id, err := p.readAnswer(lookup)
		if err != nil {
			return 0, 0, err
		}
		delete(want, id)
		done++
		if time.Now().Before(deadline) {
			pending++
		}
		if pending > 0 && !p.lineBuffered() {
			issue(pending)
			pending = 0
			if err := p.write(out); err != nil {
				return 0, 0, p.fail("writing: %v", err)
			}
			out = out[:0]
		}
	}
	return done, time.Since(t0), nil
}

// lineBuffered reports whether a whole line is already in the read buffer.
func (p *proc) lineBuffered() bool {
	n := p.r.Buffered()
	if n == 0 {
		return false
	}
	b, _ := p.r.Peek(n)
	return bytes.IndexByte(b, '\n') >= 0
}

// bad sends a call that must be refused and describes what the server did
// (see wire.Classify).
func (p *proc) bad(c wire.BadCase) (string, error) {
	p.id++
	if err := p.write(wire.AppendCall(p.buf[:0], p.id, c.Tool, c.Args)); err != nil {
		return "", p.fail("writing: %v", err)
	}
	m, err := p.readMessage()
	if err != nil {
		return "", err
	}
	id, err := m.IDInt()
	if err != nil {
		return "", p.fail("%v", err)
	}
	if id != p.id {
		return "", p.fail("answer carries id %d, want %d", id, p.id)
	}
	got, err := wire.Classify(m)
	if err != nil {
		return "", p.fail("%v", err)
	}
	return got, nil
}

// schemaSummary lists the tools and describes the declared input schema of
// search_files: which of the constraints it carries.
func (p *proc) schemaSummary() (string, error) {
	p.id++
	if err := p.write(wire.AppendToolsList(p.buf[:0], p.id)); err != nil {
		return "", p.fail("writing: %v", err)
	}
	m, err := p.readMessage()
	if err != nil {
		return "", err
	}
	if id, err := m.IDInt(); err != nil || id != p.id {
		return "", p.fail("tools/list answer carries id %s, want %d", m.ID, p.id)
	}
	if m.Error != nil {
		return "", p.fail("tools/list: %v", m.Error)
	}
	var res struct {
		Tools []struct {
			Name        string `json:"name"`
			InputSchema struct {
				Type       string `json:"type"`
				Required   []string
				Properties map[string]struct {
					Type    string          `json:"type"`
					Minimum *float64        `json:"minimum"`
					Maximum *float64        `json:"maximum"`
					Default json.RawMessage `json:"default"`
				} `json:"properties"`
				AdditionalProperties json.RawMessage `json:"additionalProperties"`
			} `json:"inputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(m.Result, &res); err != nil {
		return "", p.fail("malformed tools/list result: %v", err)
	}
	for _, t := range res.Tools {
		if t.Name != searchtool.Name {
			continue
		}
		s := t.InputSchema
		var parts []string
		for _, r := range s.Required {
			parts = append(parts, r+" required")
		}
		if l, ok := s.Properties["limit"]; ok {
			part := "limit " + l.Type
			if l.Minimum != nil || l.Maximum != nil {
				part += fmt.Sprintf(" %s..%s", fmtBound(l.Minimum), fmtBound(l.Maximum))
			}
			if len(l.Default) > 0 {
				part += " default " + string(l.Default)
			}
			parts = append(parts, part)
		}
		switch strings.ReplaceAll(string(s.AdditionalProperties), " ", "") {
		case "false", `{"not":{}}`:
			parts = append(parts, "closed")
		case "":
			parts = append(parts, "open")
		default:
			parts = append(parts, "additionalProperties "+string(s.AdditionalProperties))
		}
		return strings.Join(parts, ", "), nil
	}
	return "", p.fail("tools/list does not list %s", searchtool.Name)
}

func fmtBound(f *float64) string {
	if f == nil {
		return ""
	}
	return strconv.FormatFloat(*f, 'f', -1, 64)
}

// peakRSS returns the process's peak resident set size (VmHWM) in bytes.
func (p *proc) peakRSS() (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(v)
			if len(f) == 2 && f[1] == "kB" {
				n, err := strconv.ParseInt(f[0], 10, 64)
				return n << 10, err
			}
		}
	}
	return 0, errors.New("no VmHWM in /proc status")
}

// close ends the session as a client does, by closing the server's input,
// and reports whether the server then exited by itself (within a grace
// period) and whether that exit was clean.
func (p *proc) close() (exitedOnEOF, clean bool) {
	p.stdin.Close()
	waited := make(chan error, 1)
	go func() {
		_, _ = io.Copy(io.Discard, p.r) // drain what is left so the server is never blocked writing
		waited <- p.cmd.Wait()
	}()
	select {
	case err := <-waited:
		return true, err == nil
	case <-time.After(3 * time.Second):
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-waited:
	case <-time.After(2 * time.Second):
		_ = p.cmd.Process.Kill()
		<-waited
	}
	return false, false
}

func (p *proc) kill() {
	_ = p.cmd.Process.Kill()
	_, _ = io.Copy(io.Discard, p.r)
	_ = p.cmd.Wait()
}

// watchdog kills the process if a phase overruns, so that a hung server
// fails the run instead of stalling it.
func (p *proc) watchdog(d time.Duration) (stop func()) {
	t := time.AfterFunc(d, func() {
		p.timedOut.Store(true)
		_ = p.cmd.Process.Kill()
	})
	return func() { t.Stop() }
}
