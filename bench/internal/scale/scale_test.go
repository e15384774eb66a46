package scale

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestServers builds each kind with a few tools and checks, over stdio, that
// it lists every tool with the same arguments and answers a call.
func TestServers(t *testing.T) {
	const n = 7
	work, err := os.MkdirTemp("testdata", "work-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(work) })
	for _, kind := range Kinds {
		t.Run(kind, func(t *testing.T) {
			dir := filepath.Join(work, kind)
			if err := Write(dir, kind, n); err != nil {
				t.Fatal(err)
			}
			bin := filepath.Join(t.TempDir(), kind)
			if out, err := exec.Command("go", "build", "-o", bin, "./"+dir).CombinedOutput(); err != nil {
				t.Fatalf("build: %v\n%s", err, out)
			}
			cmd := exec.Command(bin)
			in, _ := cmd.StdinPipe()
			outPipe, _ := cmd.StdoutPipe()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			timer := time.AfterFunc(30*time.Second, func() { cmd.Process.Kill() })
			defer timer.Stop()
			defer func() { in.Close(); cmd.Wait() }()
			r := bufio.NewReader(outPipe)
			roundTrip := func(req string) map[string]any {
				t.Helper()
				fmt.Fprintln(in, req)
				line, err := r.ReadBytes('\n')
				if err != nil {
					t.Fatalf("reading the answer to %s: %v", req, err)
				}
				var m map[string]any
				if err := json.Unmarshal(line, &m); err != nil || m["result"] == nil {
					t.Fatalf("answer to %s: %s", req, line)
				}
				return m["result"].(map[string]any)
			}
			roundTrip(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
			fmt.Fprintln(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			tools := roundTrip(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)["tools"].([]any)
			if len(tools) != n {
				t.Fatalf("listed %d tools, want %d", len(tools), n)
			}
			for i, tool := range tools {
				tm := tool.(map[string]any)
				props := tm["inputSchema"].(map[string]any)["properties"].(map[string]any)
				if tm["name"] != ToolName(i) || len(props) != len(fields(i)) {
					t.Errorf("tool %d: name %v with %d properties, want %s with %d", i, tm["name"], len(props), ToolName(i), len(fields(i)))
				}
			}
			res := roundTrip(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"` + ToolName(3) + `","arguments":` + CallArgs + `}}`)
			text, _ := json.Marshal(res["content"])
			if res["isError"] == true || !strings.Contains(string(text), Answer(3)) {
				t.Errorf("call answered %s, want %q", text, Answer(3))
			}
		})
	}
}
