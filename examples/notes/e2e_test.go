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

// The end-to-end tests run the real server binary under the official
// clients. A client launches this test binary as a recording proxy (see
// TestMain), so that every message on the wire is validated against the
// MCP schema of the negotiated revision.

func TestMain(m *testing.M) {
	e2e.RunProxyIfAsked()
	os.Exit(m.Run())
}

// setup builds the server and makes a notes folder with two notes and a
// secret file beside it, which no id may reach.
func setup(t *testing.T) (bin, dir string) {
	t.Helper()
	bin = filepath.Join(t.TempDir(), "notes")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	base := t.TempDir()
	dir = filepath.Join(base, "notes")
	os.MkdirAll(dir, 0o755)
	for name, text := range map[string]string{
		"groceries.md": "# Groceries\nmilk\neggs",
		"gophers.md":   "# Gophers\nThey dig.",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(base, "secret.md"), []byte("top secret"), 0o644)
	return bin, dir
}

func TestEndToEndGoSDK(t *testing.T) {
	bin, dir := setup(t)
	logPath := filepath.Join(t.TempDir(), "traffic.log")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), e2e.EnvProxyTarget+"="+bin+" -dir "+dir, e2e.EnvProxyLog+"="+logPath)
	updates := make(chan string, 10)
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "0.0.1"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			updates <- req.Params.URI
		},
	})
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, legacySession)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	caps := cs.InitializeResult().Capabilities
	if caps.Resources == nil || !caps.Resources.Subscribe || caps.Prompts == nil || caps.Completions == nil || caps.Tools == nil {
		t.Errorf("capabilities = %+v, want tools, resources with subscribe, prompts, completions", caps)
	}
	wantCode := func(t *testing.T, err error, code int64, text string) {
		t.Helper()
		var werr *jsonrpc.Error
		if !errors.As(err, &werr) || werr.Code != code || !strings.Contains(werr.Message, text) {
			t.Errorf("err = %v, want JSON-RPC %d with %q", err, code, text)
		}
	}

	t.Run("list resources and read the index", func(t *testing.T) {
		res, err := cs.ListResources(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Resources) != 1 || res.Resources[0].URI != "notes://index" || res.Resources[0].MIMEType != "application/json" || res.Resources[0].Title != "All notes" {
			t.Fatalf("resources = %+v", res.Resources)
		}
		read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "notes://index"})
		if err != nil {
			t.Fatal(err)
		}
		var index []Entry
		if err := json.Unmarshal([]byte(read.Contents[0].Text), &index); err != nil || len(index) != 2 || index[0].ID != "gophers" || index[1].Title != "Groceries" {
			t.Fatalf("index = %s (%v)", read.Contents[0].Text, err)
		}
	})

	t.Run("templates and a read through one", func(t *testing.T) {
		res, err := cs.ListResourceTemplates(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.ResourceTemplates) != 1 || res.ResourceTemplates[0].URITemplate != "notes://{id}" || res.ResourceTemplates[0].MIMEType != "text/markdown" {
			t.Fatalf("templates = %+v", res.ResourceTemplates)
		}
		read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "notes://groceries"})
		if err != nil {
			t.Fatal(err)
		}
		if c := read.Contents[0]; c.URI != "notes://groceries" || c.MIMEType != "text/markdown" || c.Text != "# Groceries\nmilk\neggs" {
			t.Fatalf("contents = %+v", c)
		}
	})

	t.Run("read errors", func(t *testing.T) {
		_, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "notes://nothing"})
		wantCode(t, err, -32002, "not found")
		_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "notes://..%2Fsecret"})
		wantCode(t, err, jsonrpc.CodeInvalidParams, "ids with '/', '\\' or '..' are refused")
		_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "other://x"})
		wantCode(t, err, -32002, "not found")
	})

	t.Run("subscribe and get the update", func(t *testing.T) {
		if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "notes://groceries"}); err != nil {
			t.Fatal(err)
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "append_to_note", Arguments: map[string]any{"id": "groceries", "text": "bread"}})
		if err != nil || res.IsError {
			t.Fatalf("append_to_note: %v %+v", err, res)
		}
		select {
		case uri := <-updates:
			if uri != "notes://groceries" {
				t.Errorf("updated %s, want notes://groceries", uri)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no notifications/resources/updated")
		}
		read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "notes://groceries"})
		if err != nil || !strings.HasSuffix(read.Contents[0].Text, "eggs\nbread") {
			t.Fatalf("after append: %v %+v", err, read)
		}
		if err := cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: "notes://groceries"}); err != nil {
			t.Fatal(err)
		}
		cs.CallTool(ctx, &mcp.CallToolParams{Name: "append_to_note", Arguments: map[string]any{"id": "groceries", "text": "jam"}})
		select {
		case uri := <-updates:
			t.Errorf("update for %s after unsubscribe", uri)
		case <-time.After(200 * time.Millisecond):
		}
	})

	t.Run("tools", func(t *testing.T) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "create_note", Arguments: map[string]any{"id": "ideas", "text": "# Ideas\nfly"}})
		if err != nil || res.IsError {
			t.Fatalf("create_note: %v %+v", err, res)
		}
		res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "create_note", Arguments: map[string]any{"id": "ideas", "text": "again"}})
		if err != nil || !res.IsError || !strings.Contains(text(res), "exists already") {
			t.Errorf("second create_note: %v %+v", err, res)
		}
		res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "create_note", Arguments: map[string]any{"id": "../secret2", "text": "x"}})
		if err != nil || !res.IsError || !strings.Contains(text(res), "refused") {
			t.Errorf("create_note outside the folder: %v %+v", err, res)
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "secret2.md")); err == nil {
			t.Errorf("create_note wrote outside the folder")
		}
		res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_notes", Arguments: map[string]any{"query": "FLY"}})
		if err != nil || res.IsError {
			t.Fatalf("search_notes: %v %+v", err, res)
		}
		sc, _ := json.Marshal(res.StructuredContent)
		if want := `{"items":[{"id":"ideas","line":2,"text":"fly"}]}`; string(sc) != want {
			t.Errorf("search_notes = %s, want %s", sc, want)
		}
	})

	t.Run("prompts", func(t *testing.T) {
		list, err := cs.ListPrompts(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(list.Prompts) != 1 || list.Prompts[0].Name != "summarize_note" || len(list.Prompts[0].Arguments) != 2 || !list.Prompts[0].Arguments[0].Required || list.Prompts[0].Arguments[1].Required {
			t.Fatalf("prompts = %+v", list.Prompts)
		}
		res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "summarize_note", Arguments: map[string]string{"id": "gophers", "style": "bullets"}})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Messages) != 2 {
			t.Fatalf("messages = %+v", res.Messages)
		}
		if er, ok := res.Messages[0].Content.(*mcp.EmbeddedResource); !ok || er.Resource.URI != "notes://gophers" || er.Resource.Text != "# Gophers\nThey dig." {
			t.Errorf("first message = %#v", res.Messages[0].Content)
		}
		if tc, ok := res.Messages[1].Content.(*mcp.TextContent); !ok || !strings.Contains(tc.Text, "bullets style") {
			t.Errorf("second message = %#v", res.Messages[1].Content)
		}
		_, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "summarize_note", Arguments: map[string]string{"style": "brief"}})
		wantCode(t, err, jsonrpc.CodeInvalidParams, "id: required argument is missing")
		_, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "summarize_note", Arguments: map[string]string{"id": "gophers", "style": "epic"}})
		wantCode(t, err, jsonrpc.CodeInvalidParams, `style: must be one of "brief", "detailed", "bullets", got "epic"`)
		_, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "summarize_note", Arguments: map[string]string{"id": "gophers", "tone": "dry"}})
		wantCode(t, err, jsonrpc.CodeInvalidParams, "tone: unknown argument")
		_, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "translate_note"})
		wantCode(t, err, jsonrpc.CodeInvalidParams, "Unknown prompt: translate_note")
	})

	t.Run("complete", func(t *testing.T) {
		for _, c := range []struct {
			ref        *mcp.CompleteReference
			arg, value string
			want       string
		}{
			{&mcp.CompleteReference{Type: "ref/prompt", Name: "summarize_note"}, "id", "g", "gophers,groceries"},
			{&mcp.CompleteReference{Type: "ref/prompt", Name: "summarize_note"}, "id", "GR", "groceries"},
			{&mcp.CompleteReference{Type: "ref/prompt", Name: "summarize_note"}, "style", "b", "brief,bullets"},
			{&mcp.CompleteReference{Type: "ref/resource", URI: "notes://{id}"}, "id", "i", "ideas"},
		} {
			res, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: c.ref, Argument: mcp.CompleteParamsArgument{Name: c.arg, Value: c.value}})
			if err != nil {
				t.Errorf("complete %s %q: %v", c.arg, c.value, err)
				continue
			}
			if got := strings.Join(res.Completion.Values, ","); got != c.want || res.Completion.Total != len(res.Completion.Values) {
				t.Errorf("complete %s %q = %s (total %d), want %s", c.arg, c.value, got, res.Completion.Total, c.want)
			}
		}
		_, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "nope"}, Argument: mcp.CompleteParamsArgument{Name: "id", Value: ""}})
		wantCode(t, err, jsonrpc.CodeInvalidParams, "nope")
	})

	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	cmd.Wait()
	validateTraffic(t, logPath, 1)
}

// TestEndToEndTypeScriptSDK runs the official TypeScript SDK client
// (notes.mjs beside the files example's client, whose npm install
// scripts/test.sh does) against the server, through the same proxy.
func TestEndToEndTypeScriptSDK(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		needTool(t, "node is not installed")
	}
	clientDir, _ := filepath.Abs(filepath.Join("..", "files", "testdata", "tsclient"))
	if _, err := os.Stat(filepath.Join(clientDir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		needTool(t, "the TypeScript SDK is not installed: run scripts/test.sh, or npm install in "+clientDir)
	}
	bin, dir := setup(t)
	logPath := filepath.Join(t.TempDir(), "traffic.log")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(clientDir, "notes.mjs"), os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), e2e.EnvProxyTarget+"="+bin+" -dir "+dir, e2e.EnvProxyLog+"="+logPath)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("TypeScript client: %v\n%s", err, out)
	}
	type rpcErr struct {
		Code    int
		Message string
	}
	var got struct {
		Capabilities struct {
			Resources   struct{ Subscribe bool }
			Prompts     *struct{}
			Completions *struct{}
		}
		Resources []struct{ URI, Name, MIMEType string }
		Templates []struct {
			URITemplate string
		}
		Index, Note struct {
			Contents []struct{ URI, MIMEType, Text string }
		}
		Updated    string
		Prompts    []struct{ Name string }
		Prompt     struct{ Messages []struct{ Role string } }
		Completion struct {
			Completion struct {
				Values []string
				Total  int
			}
		}
		Errors map[string]*rpcErr
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("client output: %v\n%s", err, out)
	}
	if !got.Capabilities.Resources.Subscribe || got.Capabilities.Prompts == nil || got.Capabilities.Completions == nil {
		t.Errorf("capabilities = %+v", got.Capabilities)
	}
	if len(got.Resources) != 1 || got.Resources[0].URI != "notes://index" || len(got.Templates) != 1 || got.Templates[0].URITemplate != "notes://{id}" {
		t.Errorf("resources %+v, templates %+v", got.Resources, got.Templates)
	}
	if len(got.Index.Contents) != 1 || !strings.Contains(got.Index.Contents[0].Text, `"id":"gophers"`) {
		t.Errorf("index = %+v", got.Index)
	}
	if len(got.Note.Contents) != 1 || got.Note.Contents[0].MIMEType != "text/markdown" || got.Note.Contents[0].Text != "# Gophers\nThey dig." {
		t.Errorf("note = %+v", got.Note)
	}
	if got.Updated != "notes://gophers" {
		t.Errorf("updated = %q, want notes://gophers", got.Updated)
	}
	if len(got.Prompts) != 1 || got.Prompts[0].Name != "summarize_note" || len(got.Prompt.Messages) != 2 {
		t.Errorf("prompts %+v, prompt %+v", got.Prompts, got.Prompt)
	}
	if v := got.Completion.Completion; strings.Join(v.Values, ",") != "gophers,groceries" || v.Total != 2 {
		t.Errorf("completion = %+v", v)
	}
	for name, want := range map[string]rpcErr{
		"notFound":      {-32002, "Resource not found"},
		"outside":       {-32602, "refused"},
		"missingArg":    {-32602, "id: required argument is missing"},
		"unknownPrompt": {-32602, "Unknown prompt: nope"},
	} {
		if e := got.Errors[name]; e == nil || e.Code != want.Code || !strings.Contains(e.Message, want.Message) {
			t.Errorf("%s: error %+v, want %d with %q", name, e, want.Code, want.Message)
		}
	}
	validateTraffic(t, logPath, 1)
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
// of the negotiated revision, and that the server sent as many
// notifications/resources/updated as expected.
func validateTraffic(t *testing.T, logPath string, wantUpdates int) {
	t.Helper()
	mcpschema.RequireAll(t)
	data, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	tr := mcpschema.NewTracker()
	server, updates := 0, 0
	for _, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		dir, msg := line[:2], []byte(line[2:])
		if dir == "C " {
			tr.Client(msg)
			continue
		}
		server++
		if strings.Contains(string(msg), `"method":"notifications/resources/updated"`) {
			updates++
		}
		if err := tr.Server(msg); err != nil {
			t.Errorf("server message does not validate (revision %q): %v\n%s", tr.Revision(), err, msg)
		}
	}
	if updates != wantUpdates {
		t.Errorf("%d notifications/resources/updated, want %d", updates, wantUpdates)
	}
	if tr.Revision() == "" {
		t.Errorf("no revision negotiated")
	}
	t.Logf("validated %d server messages at revision %s", server, tr.Revision())
}
