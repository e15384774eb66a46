// Package sdkinterop drives the runtime with the official Go SDK client,
// in process, for what the runtime offers beside tools: resources,
// resource templates, subscriptions, prompts and completion; and, over
// Streamable HTTP, roots, cancellation and list changes.
package sdkinterop

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// notes is a small server: a static index, a template per note, a prompt
// whose argument completes from the note ids.
func notes() *rt.Server {
	srv := rt.NewServer("notes", "1.0.0", rt.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))), rt.WithResourceSubscriptions())
	ids := []string{"alpha", "beta", "gamma"}
	srv.AddResource(rt.Resource{URI: "notes://index", Name: "index", MIMEType: "application/json", Handler: func(context.Context, *rt.ResourceRequest) ([]rt.ResourceContents, error) {
		return []rt.ResourceContents{{Text: `["alpha","beta","gamma"]`}}, nil
	}})
	srv.AddResourceTemplate(rt.ResourceTemplate{URITemplate: "notes://{id}", Name: "note", MIMEType: "text/markdown",
		Complete: map[string]rt.CompleteFunc{"id": rt.EnumCompletion(ids...)},
		Handler: func(_ context.Context, req *rt.ResourceRequest) ([]rt.ResourceContents, error) {
			if !slices.Contains(ids, req.Vars["id"]) {
				return nil, rt.ErrResourceNotFound
			}
			return []rt.ResourceContents{{Text: "# " + req.Vars["id"]}}, nil
		}})
	srv.AddResourceTemplate(rt.ResourceTemplate{URITemplate: "notes://{id}/line/{n}", Name: "line",
		Handler: func(_ context.Context, req *rt.ResourceRequest) ([]rt.ResourceContents, error) {
			d := mcpimpl.StringsDecoder("uri", req.Vars, []string{"id", "n"})
			var n int64
			if d.Object() {
				for {
					key, ok := d.Field()
					if !ok {
						break
					}
					if string(key) == "n" {
						n, _ = mcpimpl.VarInt(d, 16)
					} else {
						d.Skip()
					}
				}
			}
			if err := d.Err(); err != nil {
				return nil, err
			}
			return []rt.ResourceContents{rt.BlobContents("application/octet-stream", []byte(strconv.Itoa(int(n))))}, nil
		}})
	srv.AddPrompt(rt.Prompt{Name: "summarize_note", Description: "Summarizes a note.",
		Arguments: []rt.PromptArgument{{Name: "id", Required: true, Complete: rt.EnumCompletion(ids...)}, {Name: "style"}},
		Handler: func(_ context.Context, req *rt.PromptRequest) (*rt.GetPromptResult, error) {
			return &rt.GetPromptResult{Description: "Summary", Messages: []rt.PromptMessage{
				rt.UserMessage("Summarize note " + req.Arguments["id"] + "."),
				{Role: "user", Content: rt.NewEmbeddedText("notes://"+req.Arguments["id"], "text/markdown", "# note")},
				{Role: "assistant", Content: rt.NewResourceLink("notes://index", "index")},
			}}, nil
		}})
	return srv
}

func connect(t *testing.T, srv *rt.Server, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, sr, sw); sw.Close() }()
	client := mcp.NewClient(&mcp.Implementation{Name: "interop", Version: "0"}, opts)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: cr, Writer: cw}, legacySession)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		cw.Close()
		select {
		case <-served:
		case <-time.After(10 * time.Second):
			t.Error("Serve did not return")
		}
	})
	return cs
}

func TestGoSDKResourcesPromptsCompletion(t *testing.T) {
	srv := notes()
	updated := make(chan string, 4)
	listChanged := make(chan struct{}, 4)
	cs := connect(t, srv, &mcp.ClientOptions{
		ResourceUpdatedHandler:     func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) { updated <- r.Params.URI },
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { listChanged <- struct{}{} },
	})
	ctx := context.Background()
	caps := cs.InitializeResult().Capabilities
	if caps.Resources == nil || !caps.Resources.Subscribe || !caps.Resources.ListChanged || caps.Prompts == nil || caps.Completions == nil || caps.Tools != nil {
		t.Fatalf("capabilities = %+v", caps)
	}

	res, err := cs.ListResources(ctx, nil)
	if err != nil || len(res.Resources) != 1 || res.Resources[0].URI != "notes://index" {
		t.Fatalf("ListResources = %+v, %v", res, err)
	}
	tmpls, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil || len(tmpls.ResourceTemplates) != 2 || tmpls.ResourceTemplates[0].URITemplate != "notes://{id}" {
		t.Fatalf("ListResourceTemplates = %+v, %v", tmpls, err)
	}
	for _, tc := range []struct{ uri, text, mime string }{
		{"notes://index", `["alpha","beta","gamma"]`, "application/json"},
		{"notes://beta", "# beta", "text/markdown"},
	} {
		r, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: tc.uri})
		if err != nil || len(r.Contents) != 1 || r.Contents[0].Text != tc.text || r.Contents[0].MIMEType != tc.mime || r.Contents[0].URI != tc.uri {
			t.Fatalf("ReadResource(%s) = %+v, %v", tc.uri, r, err)
		}
	}
	r, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "notes://beta/line/12"})
	if err != nil || len(r.Contents) != 1 || string(r.Contents[0].Blob) != "12" {
		t.Fatalf("ReadResource(blob) = %+v, %v", r, err)
	}
	for _, tc := range []struct {
		uri  string
		code int64
		msg  string
	}{
		{"notes://delta", -32002, "Resource not found"},
		{"other://x", -32002, "Resource not found"},
		{"notes://beta/line/x", -32602, `Invalid params: n: must be an integer, got "x"`},
		{"notes://beta/line/40000", -32602, `Invalid params: n: must be an integer ≤ 32767, got "40000"`},
	} {
		_, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: tc.uri})
		var we *jsonrpc.Error
		if !errors.As(err, &we) || we.Code != tc.code || we.Message != tc.msg {
			t.Errorf("ReadResource(%s) error = %v, want %d %q", tc.uri, err, tc.code, tc.msg)
		}
	}

	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "notes://beta"}); err != nil {
		t.Fatal(err)
	}
	srv.ResourceUpdated("notes://alpha")
	srv.ResourceUpdated("notes://beta")
	select {
	case uri := <-updated:
		if uri != "notes://beta" {
			t.Fatalf("update for %s, want notes://beta", uri)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no notifications/resources/updated")
	}
	if err := cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: "notes://beta"}); err != nil {
		t.Fatal(err)
	}

	srv.AddResource(rt.Resource{URI: "notes://new", Handler: func(context.Context, *rt.ResourceRequest) ([]rt.ResourceContents, error) { return nil, nil }})
	select {
	case <-listChanged:
	case <-time.After(10 * time.Second):
		t.Fatal("no notifications/resources/list_changed")
	}

	prompts, err := cs.ListPrompts(ctx, nil)
	if err != nil || len(prompts.Prompts) != 1 || len(prompts.Prompts[0].Arguments) != 2 || !prompts.Prompts[0].Arguments[0].Required {
		t.Fatalf("ListPrompts = %+v, %v", prompts, err)
	}
	got, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "summarize_note", Arguments: map[string]string{"id": "gamma"}})
	if err != nil || len(got.Messages) != 3 || got.Description != "Summary" {
		t.Fatalf("GetPrompt = %+v, %v", got, err)
	}
	if tc, ok := got.Messages[0].Content.(*mcp.TextContent); !ok || tc.Text != "Summarize note gamma." {
		t.Errorf("message 0 = %#v", got.Messages[0].Content)
	}
	if er, ok := got.Messages[1].Content.(*mcp.EmbeddedResource); !ok || er.Resource.URI != "notes://gamma" {
		t.Errorf("message 1 = %#v", got.Messages[1].Content)
	}
	if rl, ok := got.Messages[2].Content.(*mcp.ResourceLink); !ok || rl.URI != "notes://index" || got.Messages[2].Role != "assistant" {
		t.Errorf("message 2 = %#v", got.Messages[2].Content)
	}
	for _, tc := range []struct {
		args map[string]string
		msg  string
	}{
		{map[string]string{}, "Invalid params: id: required argument is missing"},
		{map[string]string{"id": "a", "mood": "x"}, "Invalid params: mood: unknown argument (arguments: id, style)"},
	} {
		_, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "summarize_note", Arguments: tc.args})
		var we *jsonrpc.Error
		if !errors.As(err, &we) || we.Code != -32602 || we.Message != tc.msg {
			t.Errorf("GetPrompt(%v) error = %v, want %q", tc.args, err, tc.msg)
		}
	}
	_, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "nope"})
	var we *jsonrpc.Error
	if !errors.As(err, &we) || we.Code != -32602 || !strings.Contains(string(we.Data), "summarize_note") {
		t.Errorf("GetPrompt(nope) error = %v", err)
	}

	for _, ref := range []*mcp.CompleteReference{{Type: "ref/prompt", Name: "summarize_note"}, {Type: "ref/resource", URI: "notes://{id}"}} {
		c, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: ref, Argument: mcp.CompleteParamsArgument{Name: "id", Value: "G"}})
		if err != nil || !slices.Equal(c.Completion.Values, []string{"gamma"}) || c.Completion.Total != 1 || c.Completion.HasMore {
			t.Errorf("Complete(%+v) = %+v, %v", ref, c, err)
		}
	}
}
