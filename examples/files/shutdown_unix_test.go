//go:build unix

package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// lockedBuffer is a bytes.Buffer safe for concurrent use.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestShutdownOnSignal runs the server and signals it in the situations
// that must not keep it alive: its client keeps standard input open, or
// never reads the answers to hundreds of calls. Each time it must exit with
// status 0 within the default grace period of 2 seconds and a margin; a
// second signal during the grace period ends it at once.
func TestShutdownOnSignal(t *testing.T) {
	bin := buildServer(t)
	for _, tc := range []struct {
		name   string
		sig    syscall.Signal
		unread int  // calls whose answers the client never reads
		twice  bool // a second signal follows the first
	}{
		{"SIGTERM, input open", syscall.SIGTERM, 0, false},
		{"SIGINT, input open", syscall.SIGINT, 0, false},
		{"SIGTERM, answers unread, input closed", syscall.SIGTERM, 300, false},
		{"SIGTERM twice, answers unread", syscall.SIGTERM, 300, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bin, "-root", t.TempDir())
			var stderr lockedBuffer
			cmd.Stderr = &stderr
			in, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			out := bufio.NewReader(stdout)
			send := func(line string) {
				t.Helper()
				if _, err := io.WriteString(in, line+"\n"); err != nil {
					t.Fatal(err)
				}
			}
			send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
			if line, err := out.ReadString('\n'); err != nil || !strings.Contains(line, `"serverInfo"`) {
				t.Fatalf("initialize: %q, %v; stderr:\n%s", line, err, stderr.String())
			}
			send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			if tc.unread > 0 {
				// Each answer repeats its pattern: 32 KiB, so that the
				// answers fill the pipe and the server's writes block.
				pattern := strings.Repeat("z", 32<<10)
				for i := range tc.unread {
					send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"search_files","arguments":{"pattern":%q}}}`, i+1, pattern))
				}
				if err := in.Close(); err != nil {
					t.Fatal(err)
				}
				time.Sleep(100 * time.Millisecond)
			}
			if err := cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			signalled := time.Now()
			if tc.twice {
				time.Sleep(200 * time.Millisecond)
				if err := cmd.Process.Signal(tc.sig); err != nil {
					t.Fatal(err)
				}
			}
			select {
			case err := <-exited:
				var exit *exec.ExitError
				if tc.twice {
					// Killed by the second signal, before the grace
					// period was over.
					status, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
					if !ok || !status.Signaled() || status.Signal() != tc.sig {
						t.Errorf("after a second signal the server ended with %v, want death by %v", err, tc.sig)
					}
					if d := time.Since(signalled); d > 1500*time.Millisecond {
						t.Errorf("the server ended %v after the first signal: the second did not end it at once", d)
					}
				} else if errors.As(err, &exit) {
					t.Errorf("the server exited with %v, want status 0; stderr:\n%s", err, stderr.String())
				} else if err != nil {
					t.Fatal(err)
				}
			case <-time.After(2*time.Second + 8*time.Second):
				t.Fatalf("the server was still running 10s after %v; stderr:\n%s", tc.sig, stderr.String())
			}
			if s := stderr.String(); strings.Contains(s, "context canceled") {
				t.Errorf("a requested shutdown was reported as an error:\n%s", s)
			}
		})
	}
}
