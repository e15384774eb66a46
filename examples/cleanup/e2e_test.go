package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The end-to-end test runs the server binary under the official Go SDK
// client, which answers the confirmation and collects progress and logs.

func buildServer(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "cleanup")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// folder makes a folder with two files 30 days old and one new file.
func folder(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	old := time.Now().Add(-30 * 24 * time.Hour)
	for _, f := range []string{"old.log", "sub/old.tmp", "new.txt"} {
		p := filepath.Join(root, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(f, "old") {
			os.Chtimes(p, old, old)
		}
	}
	return root
}

// remaining lists the files left in root.
func remaining(root string) []string {
	var left []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			left = append(left, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(left)
	return left
}

// session is a client connected to the server over root.
type session struct {
	cs *mcp.ClientSession

	mu       sync.Mutex
	progress []string
	logs     []string
	asked    []string
}

func connect(t *testing.T, ctx context.Context, bin, root string, answer *mcp.ElicitResult) *session {
	t.Helper()
	s := &session{}
	opts := &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			s.mu.Lock()
			s.progress = append(s.progress, fmt.Sprintf("%v/%v %s", req.Params.Progress, req.Params.Total, req.Params.Message))
			s.mu.Unlock()
		},
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			s.mu.Lock()
			s.logs = append(s.logs, string(req.Params.Level))
			s.mu.Unlock()
		},
	}
	if answer != nil {
		opts.ElicitationHandler = func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			s.mu.Lock()
			s.asked = append(s.asked, req.Params.Message)
			s.mu.Unlock()
			return answer, nil
		}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "0.0.1"}, opts)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin, "-root", root)}, legacySession)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	s.cs = cs
	return s
}

// purge calls purge_old with a progress token and returns the result's
// text and whether it is an error.
func (s *session) purge(t *testing.T, ctx context.Context) (string, bool) {
	t.Helper()
	p := &mcp.CallToolParams{Name: "purge_old", Arguments: map[string]any{"days": 7}}
	p.SetProgressToken("purge")
	res, err := s.cs.CallTool(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	var text []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text = append(text, tc.Text)
		}
	}
	return strings.Join(text, "\n"), res.IsError
}

// waitFor waits until the client has received n progress notifications
// and logs log messages: it handles them on goroutines of its own. It
// returns the progress notifications, sorted.
func (s *session) waitFor(t *testing.T, n, logs int) []string {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		s.mu.Lock()
		got, gotLogs := slices.Clone(s.progress), len(s.logs)
		s.mu.Unlock()
		if len(got) >= n && gotLogs >= logs || time.Now().After(deadline) {
			slices.Sort(got)
			return got
		}
	}
}

func TestEndToEndGoSDK(t *testing.T) {
	bin := buildServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// Progress counts the files scanned, then those deleted.
	scanned := []string{"1/0 scanned new.txt", "2/0 scanned old.log", "3/0 scanned sub/old.tmp"}

	t.Run("confirmed", func(t *testing.T) {
		root := folder(t)
		s := connect(t, ctx, bin, root, &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}})
		if err := s.cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
			t.Fatal(err)
		}
		text, isErr := s.purge(t, ctx)
		if isErr || text != "deleted 2 of 2 files older than 7 days" {
			t.Errorf("purge_old = %q (isError %v)", text, isErr)
		}
		if left := remaining(root); !slices.Equal(left, []string{"new.txt"}) {
			t.Errorf("left %q, want only new.txt", left)
		}
		want := append([]string{"4/5 deleted old.log", "5/5 deleted sub/old.tmp"}, scanned...)
		slices.Sort(want)
		if got := s.waitFor(t, 5, 2); !slices.Equal(got, want) {
			t.Errorf("progress %q, want %q", got, want)
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if len(s.asked) != 1 || s.asked[0] != "Delete 2 files older than 7 days, such as old.log?" {
			t.Errorf("asked %q", s.asked)
		}
		if !slices.Equal(s.logs, []string{"info", "info"}) {
			t.Errorf("log levels %q, want two info", s.logs)
		}
	})

	t.Run("declined", func(t *testing.T) {
		root := folder(t)
		s := connect(t, ctx, bin, root, &mcp.ElicitResult{Action: "decline"})
		text, isErr := s.purge(t, ctx)
		if isErr || text != `nothing deleted: the user chose "decline"` {
			t.Errorf("purge_old = %q (isError %v)", text, isErr)
		}
		if left := remaining(root); len(left) != 3 {
			t.Errorf("left %q, want all three files", left)
		}
		if got := s.waitFor(t, 3, 0); !slices.Equal(got, scanned) {
			t.Errorf("progress %q, want %q", got, scanned)
		}
	})

	t.Run("client cannot ask", func(t *testing.T) {
		root := folder(t)
		s := connect(t, ctx, bin, root, nil)
		text, isErr := s.purge(t, ctx)
		if !isErr || !strings.HasPrefix(text, "nothing deleted: this tool asks the user to confirm, and the client cannot ask") {
			t.Errorf("purge_old = %q (isError %v)", text, isErr)
		}
		if left := remaining(root); len(left) != 3 {
			t.Errorf("left %q, want all three files", left)
		}
	})
}
