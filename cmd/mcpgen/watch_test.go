package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for the watcher and the test at once.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

const watchTools = `package main

//go:generate go tool mcpgen

import "context"

// Args are greet's arguments.
type Args struct {
	// Name is who to greet.
	Name string ` + "`json:\"name\"`" + `
}

// Greet says hello.
//
//mcp:tool
func Greet(ctx context.Context, in Args) (string, error) { return "hello " + in.Name, nil }
`

const watchMain = `package main

func main() {}
`

// TestWatch runs mcpgen watch on a module with one tool and a command that
// records its pid and sleeps: a saved change regenerates and restarts the
// command (the old one is gone), a broken change is reported and keeps the
// command, and the end of the watch stops the command.
func TestWatch(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	goSum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", fmt.Sprintf("module example.com/w\n\ngo 1.26\n\nrequire github.com/mcpgen/mcpgen v0.0.0\n\nreplace github.com/mcpgen/mcpgen => %s\n", root))
	write("go.sum", string(goSum))
	write("tools.go", watchTools)
	write("main.go", watchMain)
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOWORK", "off")
	t.Chdir(dir)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr syncBuffer
	done := make(chan int, 1)
	// The command appends its pid to pids and sleeps in the same process
	// (exec), so the pid is the one to be stopped.
	go func() {
		done <- watch(ctx, []string{"-debounce", "50ms", ".", "--", "sh", "-c", "echo $$ >> pids; exec sleep 300"}, &stdout, &stderr)
	}()

	deadline := time.Now().Add(90 * time.Second)
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for !ok() {
			select {
			case status := <-done:
				t.Fatalf("watch ended (status %d) while waiting for %s; stderr:\n%s", status, what, stderr.String())
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s; stderr:\n%s", what, stderr.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	pids := func() []int {
		data, _ := os.ReadFile(filepath.Join(dir, "pids"))
		var out []int
		for _, f := range strings.Fields(string(data)) {
			n, err := strconv.Atoi(f)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, n)
		}
		return out
	}
	generated := func(s string) func() bool {
		return func() bool {
			data, _ := os.ReadFile(filepath.Join(dir, "mcp_gen.go"))
			return bytes.Contains(data, []byte(s))
		}
	}
	alive := func(pid int) bool { return syscall.Kill(pid, 0) == nil }

	waitFor("the first generation", generated(`"greet"`))
	waitFor("the command to start", func() bool { return len(pids()) == 1 })
	first := pids()[0]

	// A saved change: regenerated, and the command restarted.
	write("tools.go", watchTools+"\n// Wave waves.\n//\n//mcp:tool\nfunc Wave() error { return nil }\n")
	waitFor("regeneration with wave", generated(`"wave"`))
	waitFor("the restart", func() bool { return len(pids()) == 2 })
	waitFor("the first command to be stopped", func() bool { return !alive(first) })
	second := pids()[1]

	// A change that does not generate: reported, the command kept.
	write("tools.go", watchTools+"\n// Wave waves.\n//\n//mcp:tool bogus\nfunc Wave() error { return nil }\n")
	waitFor("the problem to be reported", func() bool { return strings.Contains(stderr.String(), `unknown key "bogus"`) })
	waitFor("the note that the command is kept", func() bool { return strings.Contains(stderr.String(), "not restarting") })
	if n := len(pids()); n != 2 || !alive(second) {
		t.Fatalf("after a failed generation: %d starts, second command alive %v; want 2, true", n, alive(second))
	}
	// A test file's change is not acted on.
	before := stderr.String()
	write("x_test.go", "package main\n")
	time.Sleep(300 * time.Millisecond)
	if got := stderr.String(); got != before {
		t.Errorf("a test file's change was acted on:\n%s", strings.TrimPrefix(got, before))
	}

	cancel()
	select {
	case status := <-done:
		if status != 0 {
			t.Errorf("watch exited with %d, want 0", status)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("watch did not end after its context")
	}
	if alive(second) {
		t.Errorf("the command (pid %d) outlived the watch", second)
	}
}
