//go:build unix

package runtime_test

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
)

// shutdownProcess is shutdownChild running in a child process, with pipes
// to its standard input and output.
type shutdownProcess struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *rttest.SyncBuffer
	exited chan error
}

func startShutdownChild(t *testing.T) *shutdownProcess {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), childEnv+"=shutdown")
	p := &shutdownProcess{cmd: cmd, stderr: &rttest.SyncBuffer{}, exited: make(chan error, 1)}
	cmd.Stderr = p.stderr
	if p.in, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p.out = bufio.NewReader(stdout)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		p.in.Close()
	})
	return p
}

// send writes one line to the child's standard input.
func (p *shutdownProcess) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

// initialize initializes the session and reads the answer.
func (p *shutdownProcess) initialize(t *testing.T) {
	t.Helper()
	p.send(t, requestLine(0, "initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{}, "clientInfo": map[string]string{"name": "t", "version": "0"}}))
	line, err := p.out.ReadString('\n')
	if err != nil || !strings.Contains(line, `"protocolVersion"`) {
		t.Fatalf("initialize: %q, %v; stderr:\n%s", line, err, p.stderr.String())
	}
	p.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// waitExit waits at most limit for the child to exit, and checks that it
// exited with status 0 after ServeStdio returned nil. It returns how long
// after begin the child had exited.
func (p *shutdownProcess) waitExit(t *testing.T, begin time.Time, limit time.Duration) time.Duration {
	t.Helper()
	select {
	case err := <-p.exited:
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			t.Errorf("the child exited with %v, want status 0; stderr:\n%s", err, p.stderr.String())
		} else if err != nil {
			t.Errorf("waiting for the child: %v", err)
		}
	case <-time.After(limit - time.Since(begin)):
		p.cmd.Process.Kill()
		t.Fatalf("the child was still running %v after it was asked to stop; stderr:\n%s", limit, p.stderr.String())
	}
	errText := p.stderr.String()
	if !strings.Contains(errText, servedMarker) {
		t.Errorf("ServeStdio did not return nil; stderr:\n%s", errText)
	}
	if strings.Contains(errText, "context canceled") {
		t.Errorf("a requested shutdown reported as an error; stderr:\n%s", errText)
	}
	return time.Since(begin)
}

// exitLimit bounds how long a child may take to exit once signalled: the
// grace period and a margin for a loaded machine.
const exitLimit = childGrace + 5*time.Second

// TestSignalWithInputOpen signals a child whose client keeps standard input
// open and sends nothing more: the child stops at once, though its read of
// standard input cannot be interrupted; with a call in flight that ignores
// its context, it stops once the grace period is over.
func TestSignalWithInputOpen(t *testing.T) {
	for _, tc := range []struct {
		name     string
		sig      syscall.Signal
		stubborn bool
	}{
		{"SIGTERM", syscall.SIGTERM, false},
		{"SIGINT", syscall.SIGINT, false},
		{"SIGTERM with a call that ignores its context", syscall.SIGTERM, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := startShutdownChild(t)
			p.initialize(t)
			if tc.stubborn {
				p.send(t, requestLine(1, "tools/call", map[string]any{"name": "stubborn"}))
			}
			// A ping answered shows the stubborn call was read and is
			// running.
			p.send(t, requestLine("p", "ping", nil))
			if line, err := p.out.ReadString('\n'); err != nil || !strings.Contains(line, `"id":"p"`) {
				t.Fatalf("ping: %q, %v", line, err)
			}
			begin := time.Now()
			if err := p.cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			took := p.waitExit(t, begin, exitLimit)
			if tc.stubborn && took < childGrace {
				t.Errorf("the child exited %v after the signal, before the grace period of %v for its call in flight", took, childGrace)
			}
		})
	}
}

// TestSignalWithUnreadAnswers sends hundreds of calls with long arguments
// and never reads their answers, closes standard input, then signals the
// child: it exits once the grace period is over, though every write of an
// answer is blocked.
func TestSignalWithUnreadAnswers(t *testing.T) {
	p := startShutdownChild(t)
	p.initialize(t)
	long := strings.Repeat("y", 32<<10)
	sent := make(chan int, 1)
	go func() {
		n := 0
		defer func() { sent <- n }()
		for i := range 300 {
			line := requestLine(i+1, "tools/call", map[string]any{"name": "echo", "arguments": map[string]string{"text": long}})
			if _, err := io.WriteString(p.in, line+"\n"); err != nil {
				return
			}
			n++
		}
	}()
	select {
	case n := <-sent:
		if n != 300 {
			t.Fatalf("the child read only %d calls", n)
		}
	case <-time.After(rttest.Timeout):
		t.Fatal("the child stopped reading its input")
	}
	closed := time.Now()
	if err := p.in.Close(); err != nil {
		t.Fatal(err)
	}
	// The child has read everything; its answers wait behind a full pipe.
	time.Sleep(100 * time.Millisecond)
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// The grace period runs from the end of input.
	if took := p.waitExit(t, closed, exitLimit); took < childGrace {
		t.Errorf("the child exited %v after the end of its input, before the grace period of %v for its unwritten answers", took, childGrace)
	}
}

// TestEndOfInputWithStubbornCall closes the input of a child with a call in
// flight that never returns, and sends no signal: the child exits with
// status 0 once the grace period is over, as a server must whose client has
// gone.
func TestEndOfInputWithStubbornCall(t *testing.T) {
	p := startShutdownChild(t)
	p.initialize(t)
	p.send(t, requestLine(1, "tools/call", map[string]any{"name": "stubborn"}))
	p.send(t, requestLine("p", "ping", nil))
	if line, err := p.out.ReadString('\n'); err != nil || !strings.Contains(line, `"id":"p"`) {
		t.Fatalf("ping: %q, %v", line, err)
	}
	closed := time.Now()
	if err := p.in.Close(); err != nil {
		t.Fatal(err)
	}
	if took := p.waitExit(t, closed, exitLimit); took < childGrace {
		t.Errorf("the child exited %v after the end of its input, before the grace period of %v for its call in flight", took, childGrace)
	}
}
