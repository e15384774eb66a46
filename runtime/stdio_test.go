package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/mcpschema"
	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
)

// childEnv, when set to "stdio" or "shutdown" in the environment of the
// test binary, makes it run stdioChild or shutdownChild instead of the
// tests.
const childEnv = "MCPGEN_RUNTIME_TEST_CHILD"

// restoredMarker is what the child prints to standard output after
// ServeStdio returns, when standard output is its own again.
const restoredMarker = "STDOUT RESTORED"

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "stdio":
		os.Exit(stdioChild())
	case "talk":
		os.Exit(talkChild())
	case "shutdown":
		os.Exit(shutdownChild())
	}
	os.Exit(m.Run())
}

// stdioChild serves a tool that writes to standard output over stdio.
func stdioChild() int {
	srv := rt.NewServer("child", "1.0.0") // logs to standard error
	srv.AddTool(rttest.Tool("stray", func(context.Context, *rt.ToolRequest) (*rt.CallToolResult, error) {
		fmt.Println("stray Println")
		os.Stdout.Write([]byte("stray os.Stdout.Write\n"))
		fmt.Fprintf(os.Stdout, "stray Fprintf\n")
		writeFD1([]byte("stray fd 1\n"))
		return rt.TextResult("wrote"), nil
	}))
	srv.AddTool(rttest.Tool("boom", func(context.Context, *rt.ToolRequest) (*rt.CallToolResult, error) {
		panic("child kaboom")
	}))
	if err := srv.ServeStdio(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "ServeStdio:", err)
		return 1
	}
	fmt.Println(restoredMarker)
	return 0
}

func TestServeStdioProcess(t *testing.T) {
	mcpschema.RequireAll(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*rttest.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe)
	cmd.Env = append(os.Environ(), childEnv+"=stdio")
	var stderr rttest.SyncBuffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
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
	c := &testClient{
		t: t, in: stdin,
		lines:    make(chan []byte, 4096),
		tr:       mcpschema.NewTracker(),
		cancel:   cancel,
		served:   make(chan error, 1),
		finished: true,
	}
	go func() {
		readLines(stdout, c.lines)
		c.served <- cmd.Wait() // after the last read from stdout
	}()
	t.Cleanup(func() {
		cancel() // kills the child if it is still running
	})

	c.initialize("2025-06-18")
	text, isErr := toolText(t, c.toolCall(1, "stray", nil))
	if text != "wrote" || isErr {
		t.Errorf("stray = %q (isError %v)", text, isErr)
	}
	text, isErr = toolText(t, c.toolCall(2, "boom", nil))
	if text != "internal error: the tool failed unexpectedly; the server logged the details" || !isErr {
		t.Errorf("boom = %q (isError %v)", text, isErr)
	}
	jsonEqual(t, "ping", c.result(3, "ping", nil), `{}`)
	// A last request, then the end of the input: the child answers and
	// exits.
	c.request(4, "ping", nil)
	if err := stdin.Close(); err != nil {
		t.Fatal(err)
	}
	jsonEqual(t, "ping", c.recvResponse("4").Result, `{}`)
	select {
	case err := <-c.served:
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			t.Fatalf("the child exited with %v; stderr:\n%s", err, stderr.String())
		} else if err != nil {
			t.Fatalf("waiting for the child: %v", err)
		}
	case <-time.After(rttest.Timeout):
		t.Fatalf("the child did not exit after its input was closed; stderr:\n%s", stderr.String())
	}
	// After the protocol stream, only the marker printed once ServeStdio
	// had returned.
	var rest []string
	for line := range c.lines {
		rest = append(rest, string(line))
	}
	if want := []string{restoredMarker + "\n"}; strings.Join(rest, "") != strings.Join(want, "") {
		t.Errorf("standard output after the protocol messages: %q, want %q", rest, want)
	}
	errText := stderr.String()
	want := []string{"stray Println\n", "stray os.Stdout.Write\n", "stray Fprintf\n", `msg="tool panicked" tool=boom panic="child kaboom"`}
	if divertsFD1 {
		want = append(want, "stray fd 1\n")
	}
	for _, w := range want {
		if !strings.Contains(errText, w) {
			t.Errorf("standard error lacks %q:\n%s", w, errText)
		}
	}
	if p := c.tr.Pending(); len(p) != 0 {
		t.Errorf("unanswered: %q", p)
	}
}

// TestStandardLibraryOnly checks that the runtime and mcpimpl, which
// generated code imports, depend on nothing outside the standard library
// but each other: mcpimpl on the standard library alone.
func TestStandardLibraryOnly(t *testing.T) {
	const impl = "github.com/mcpgen/mcpgen/runtime/mcpimpl"
	for _, tc := range []struct {
		pkg     string
		allowed []string // dependencies outside the standard library
	}{
		{pkg: "github.com/mcpgen/mcpgen/runtime", allowed: []string{impl}},
		{pkg: impl},
	} {
		for _, dep := range rttest.Deps(t, tc.pkg) {
			first, _, _ := strings.Cut(dep, "/")
			if dep != tc.pkg && strings.Contains(first, ".") && !slices.Contains(tc.allowed, dep) {
				t.Errorf("%s depends on %s, which is not in the standard library", tc.pkg, dep)
			}
		}
	}
}
