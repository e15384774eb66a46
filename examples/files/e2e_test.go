package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/e2e"
	"github.com/mcpgen/mcpgen/internal/mcpschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The end-to-end test runs the real server binary under the official Go
// SDK client. The client launches this test binary as a recording proxy
// (see TestMain), so that every message on the wire can be validated
// against the MCP schema of the negotiated revision.

func TestMain(m *testing.M) {
	e2e.RunProxyIfAsked()
	os.Exit(m.Run())
}

// buildServer builds this example into a temporary folder.
func buildServer(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "files")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func TestEndToEndGoSDK(t *testing.T) {
	bin := buildServer(t)
	root := t.TempDir()
	for _, f := range []string{"main.go", "util.go", "README.md", "sub/deep.go"} {
		p := filepath.Join(root, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	logPath := filepath.Join(t.TempDir(), "traffic.log")

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), e2e.EnvProxyTarget+"="+bin+" -root "+root, e2e.EnvProxyLog+"="+logPath)
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "0.0.1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, legacySession)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}

	t.Run("list", func(t *testing.T) {
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range res.Tools {
			names = append(names, tool.Name)
		}
		if got := strings.Join(names, ","); got != "search_files,list_dir" {
			t.Fatalf("tools = %s, want search_files,list_dir", got)
		}
		search := res.Tools[0]
		if search.Annotations == nil || !search.Annotations.ReadOnlyHint {
			t.Errorf("search_files annotations = %+v, want readOnlyHint", search.Annotations)
		}
		schema, _ := json.Marshal(search.InputSchema)
		for _, want := range []string{`"required":["pattern"]`, `"maximum":100`, `"minimum":1`, `"default":10`, `"additionalProperties":false`} {
			if !strings.Contains(string(schema), want) {
				t.Errorf("search_files input schema lacks %s: %s", want, schema)
			}
		}
		if res.Tools[1].OutputSchema == nil {
			t.Errorf("list_dir has no output schema")
		}
	})

	t.Run("good call", func(t *testing.T) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_files", Arguments: map[string]any{"pattern": "*.go", "recursive": true}})
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError {
			t.Fatalf("isError: %s", text(res))
		}
		got := text(res)
		for _, want := range []string{"main.go", "util.go", "sub/deep.go"} {
			if !strings.Contains(got, want) {
				t.Errorf("result %q lacks %s", got, want)
			}
		}
		if strings.Contains(got, "README") {
			t.Errorf("result %q matches README.md", got)
		}
	})

	t.Run("structured call", func(t *testing.T) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_dir", Arguments: map[string]any{"sort": "name"}})
		if err != nil {
			t.Fatal(err)
		}
		sc, _ := json.Marshal(res.StructuredContent)
		var listing Listing
		if err := json.Unmarshal(sc, &listing); err != nil || len(listing.Entries) != 4 || listing.Entries[0].Name != "README.md" {
			t.Fatalf("structured content = %s (%v)", sc, err)
		}
	})

	t.Run("bad call", func(t *testing.T) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_files", Arguments: map[string]any{"limit": 500, "recursive": "yes"}})
		if err != nil {
			t.Fatalf("a validation failure must be a tool result, not a protocol error: %v", err)
		}
		if !res.IsError {
			t.Fatalf("isError = false for invalid arguments: %s", text(res))
		}
		got := text(res)
		for _, want := range []string{"limit: must be an integer ≤ 100, got 500", `recursive: must be a boolean, got "yes"`, "pattern: required property is missing"} {
			if !strings.Contains(got, want) {
				t.Errorf("error text %q lacks %q", got, want)
			}
		}
	})

	t.Run("bad enum", func(t *testing.T) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_dir", Arguments: map[string]any{"sort": "color"}})
		if err != nil {
			t.Fatal(err)
		}
		if want := `sort: must be one of "name", "size", "modified", got "color"`; !res.IsError || !strings.Contains(text(res), want) {
			t.Errorf("result %q (isError %v), want isError with %q", text(res), res.IsError, want)
		}
	})

	t.Run("unknown tool", func(t *testing.T) {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "delete_everything", Arguments: map[string]any{}})
		var werr *jsonrpc.Error
		if !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInvalidParams || !strings.Contains(werr.Message, "Unknown tool: delete_everything") {
			t.Fatalf("err = %v, want JSON-RPC -32602 Unknown tool", err)
		}
	})

	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	cmd.Wait()
	validateTraffic(t, logPath, 7)
}

// TestEndToEndTypeScriptSDK runs the official TypeScript SDK client
// (testdata/tsclient, installed by scripts/test.sh with npm) against the
// server, through the same recording proxy.
func TestEndToEndTypeScriptSDK(t *testing.T) {
	node, clientDir := tsClient(t)
	bin := buildServer(t)
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "big.go"), make([]byte, 100), 0o644)
	os.WriteFile(filepath.Join(root, "small.go"), []byte("x"), 0o644)
	logPath := filepath.Join(t.TempDir(), "traffic.log")

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(clientDir, "client.mjs"), os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), e2e.EnvProxyTarget+"="+bin+" -root "+root, e2e.EnvProxyLog+"="+logPath)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("TypeScript client: %v\n%s", err, out)
	}
	checkTypeScriptClient(t, out)
	validateTraffic(t, logPath, 6)
}

// tsClient returns the node command and the folder of the TypeScript
// client, or skips the test when they are not installed.
func tsClient(t *testing.T) (node, dir string) {
	node, err := exec.LookPath("node")
	if err != nil {
		needTool(t, "node is not installed")
	}
	dir, _ = filepath.Abs(filepath.Join("testdata", "tsclient"))
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		needTool(t, "the TypeScript SDK is not installed: run scripts/test.sh, or npm install in "+dir)
	}
	return node, dir
}

// checkTypeScriptClient checks what the TypeScript client saw of a server
// serving a folder with big.go (100 bytes) and small.go (1 byte).
func checkTypeScriptClient(t *testing.T, out []byte) {
	t.Helper()
	var got struct {
		Server struct{ Name, Version string }
		Tools  []struct {
			Name         string
			InputSchema  map[string]any
			OutputSchema map[string]any
		}
		Good, Structured, Bad struct {
			Content []struct{ Type, Text string }
			// StructuredContent was checked against the output schema by
			// the client itself.
			StructuredContent map[string]any
			IsError           bool
		}
		Unknown struct {
			Error *struct {
				Code    int
				Message string
			}
		}
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("client output: %v\n%s", err, out)
	}
	if got.Server.Name != "files" || len(got.Tools) != 2 || got.Tools[0].Name != "search_files" || got.Tools[1].OutputSchema == nil {
		t.Errorf("server %+v, tools %+v", got.Server, got.Tools)
	}
	if got.Good.IsError || len(got.Good.Content) != 1 || got.Good.Content[0].Text != "big.go\nsmall.go" {
		t.Errorf("good call = %+v", got.Good)
	}
	if entries, _ := got.Structured.StructuredContent["entries"].([]any); got.Structured.IsError || len(entries) != 2 {
		t.Errorf("structured call = %+v", got.Structured)
	} else if first, _ := entries[0].(map[string]any); first["name"] != "big.go" {
		t.Errorf("sort=size put %v first", first["name"])
	}
	if !got.Bad.IsError || len(got.Bad.Content) != 1 || !strings.Contains(got.Bad.Content[0].Text, "limit: must be an integer ≤ 100, got 500") {
		t.Errorf("bad call = %+v", got.Bad)
	}
	if e := got.Unknown.Error; e == nil || e.Code != -32602 || !strings.Contains(e.Message, "Unknown tool: delete_everything") {
		t.Errorf("unknown tool: %+v", got.Unknown)
	}
}

// needTool skips a test whose client is not installed, but fails it in CI,
// where scripts/test.sh installs every client.
func needTool(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatal(why)
	}
	t.Skip(why)
}

func text(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// validateTraffic checks every recorded server message against the schema
// of the negotiated revision.
func validateTraffic(t *testing.T, logPath string, want int) {
	t.Helper()
	mcpschema.RequireAll(t)
	data, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	tr := mcpschema.NewTracker()
	server := 0
	for _, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		dir, msg := line[:2], []byte(line[2:])
		if dir == "C " {
			tr.Client(msg)
			continue
		}
		server++
		if err := tr.Server(msg); err != nil {
			t.Errorf("server message does not validate (revision %q): %v\n%s", tr.Revision(), err, msg)
		}
	}
	if server != want {
		t.Errorf("%d server messages recorded, want %d: one per request", server, want)
	}
	if tr.Revision() == "" {
		t.Errorf("no revision negotiated")
	}
	t.Logf("validated %d server messages at revision %s", server, tr.Revision())
}
