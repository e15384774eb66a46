package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/mcpschema"
	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
)

// capabilityServer has a tool, a prompt and a resource per request to the
// client; each wraps the error of that request.
func capabilityServer() *rt.Server {
	asks := map[string]func(ctx context.Context) error{
		"form": func(ctx context.Context) error {
			_, err := rt.Elicit(ctx, &rt.ElicitParams{Message: "Sure?", RequestedSchema: json.RawMessage(`{"type":"object","properties":{"sure":{"type":"boolean"}}}`)})
			return err
		},
		"url": func(ctx context.Context) error {
			_, err := rt.Elicit(ctx, &rt.ElicitParams{Mode: rt.ElicitURL, Message: "Sign in", URL: "https://example.com/login", ElicitationID: "e1"})
			return err
		},
		"sample": func(ctx context.Context) error {
			_, err := rt.Sample(ctx, &rt.CreateMessageParams{MaxTokens: 1})
			return err
		},
		"roots": func(ctx context.Context) error {
			_, err := rt.Roots(ctx)
			return err
		},
	}
	srv := rttest.NewServer()
	for name, ask := range asks {
		srv.AddTool(rttest.Tool("tool_"+name, func(ctx context.Context, _ *rt.ToolRequest) (*rt.CallToolResult, error) {
			if err := ask(ctx); err != nil {
				return nil, fmt.Errorf("asking the client: %w", err)
			}
			return rt.TextResult("asked"), nil
		}))
		srv.AddPrompt(rt.Prompt{Name: "prompt_" + name, Handler: func(ctx context.Context, _ *rt.PromptRequest) (*rt.GetPromptResult, error) {
			return nil, fmt.Errorf("asking the client: %w", ask(ctx))
		}})
		srv.AddResource(rt.Resource{URI: "test:///" + name, Name: name, Handler: func(ctx context.Context, _ *rt.ResourceRequest) ([]rt.ResourceContents, error) {
			return nil, fmt.Errorf("asking the client: %w", ask(ctx))
		}})
	}
	return srv
}

// TestCapabilityErrorBothEras checks that a handler's error saying the
// client lacks a capability becomes MissingRequiredClientCapability (-32021)
// with the capability in its data under revision 2026-07-28, on tools,
// prompts and resources alike (over HTTP with 400 Bad Request), and stays what it was under 2025-11-25.
func TestCapabilityErrorBothEras(t *testing.T) {
	schemas, err := mcpschema.Load(rev26)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		ask, caps, wantData string
	}{
		{"form", `{"sampling":{},"roots":{}}`, `{"requiredCapabilities":{"elicitation":{"form":{}}}}`},
		{"url", `{"elicitation":{"form":{}}}`, `{"requiredCapabilities":{"elicitation":{"url":{}}}}`},
		{"sample", `{"elicitation":{"form":{}}}`, `{"requiredCapabilities":{"sampling":{}}}`},
		{"roots", `{}`, `{"requiredCapabilities":{"roots":{}}}`},
	}
	t.Run("2026-07-28", func(t *testing.T) {
		c := start(t, capabilityServer())
		id := 0
		for _, tc := range cases {
			for _, q := range []struct{ method, key, val string }{
				{"tools/call", "name", "tool_" + tc.ask},
				{"prompts/get", "name", "prompt_" + tc.ask},
				{"resources/read", "uri", "test:///" + tc.ask},
			} {
				id++
				r := c.call(id, q.method, params26(tc.caps, map[string]any{q.key: q.val}))
				if r.Error == nil || r.Error.Code != rt.CodeMissingClientCapability {
					t.Errorf("%s %s: want error %d, got %s", q.method, q.val, rt.CodeMissingClientCapability, r.raw)
					continue
				}
				jsonEqual(t, q.method+" "+q.val+" data", r.Error.Data, tc.wantData)
				if err := schemas.Validate("MissingRequiredClientCapabilityError", r.raw); err != nil {
					t.Errorf("%s %s: %v", q.method, q.val, err)
				}
			}
		}
		// A declared capability asks instead.
		res := c.result(id+1, "tools/call", params26(`{"roots":{}}`, map[string]any{"name": "tool_roots"}))
		if !strings.Contains(string(res), `"input_required"`) {
			t.Errorf("with the capability: got %s", res)
		}
	})
	t.Run("2026-07-28 over HTTP", func(t *testing.T) {
		c := rttest.NewHTTPClient(t, mcphttp.Handler(capabilityServer()))
		c.Version = rev26
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
			"params": params26(`{}`, map[string]any{"name": "tool_roots"})})
		x := c.Post(string(body), http.StatusBadRequest, "Mcp-Method", "tools/call", "Mcp-Name", "tool_roots")
		if err := schemas.Validate("MissingRequiredClientCapabilityError", x.Body); err != nil || !strings.Contains(string(x.Body), `"requiredCapabilities":{"roots":{}}`) {
			t.Errorf("got %s (%v)", x.Body, err)
		}
	})
	t.Run("2025-11-25", func(t *testing.T) {
		c := start(t, capabilityServer())
		c.initializeWith("2025-11-25", `{}`)
		for i, tc := range cases {
			r := c.toolCall(3*i+1, "tool_"+tc.ask, nil)
			if text, isErr := toolText(t, r); !isErr || !strings.Contains(text, "asking the client: runtime: ") {
				t.Errorf("tool_%s: want an isError result with the error's text, got %s", tc.ask, r.raw)
			}
			if r := c.call(3*i+2, "prompts/get", map[string]any{"name": "prompt_" + tc.ask}); r.Error == nil || r.Error.Code != rt.CodeInternalError {
				t.Errorf("prompt_%s: want an internal error, got %s", tc.ask, r.raw)
			}
			if r := c.call(3*i+3, "resources/read", map[string]any{"uri": "test:///" + tc.ask}); r.Error == nil || r.Error.Code != rt.CodeInternalError {
				t.Errorf("resource %s: want an internal error, got %s", tc.ask, r.raw)
			}
		}
	})
}

// TestResourceCacheHint2026 checks that a resource's or template's own
// cache hint answers resources/read under revision 2026-07-28 in place of
// the server's, that resources without one keep the server's, and that
// older revisions get no hint.
func TestResourceCacheHint2026(t *testing.T) {
	text := func(s string) rt.ResourceHandler {
		return func(context.Context, *rt.ResourceRequest) ([]rt.ResourceContents, error) {
			return []rt.ResourceContents{{Text: s}}, nil
		}
	}
	srv := exampleServer() // the server's hint: an hour, public
	srv.AddResource(rt.Resource{URI: "test:///secret", Name: "secret", Handler: text("s"), CacheHint: &rt.CacheHint{TTL: 30 * time.Second}})
	srv.AddResource(rt.Resource{URI: "test:///fresh", Name: "fresh", Handler: text("f"), CacheHint: &rt.CacheHint{TTL: -time.Second, Scope: rt.CachePublic}})
	srv.AddResourceTemplate(rt.ResourceTemplate{URITemplate: "test:///days/{day}", Name: "day", Handler: text("d"), CacheHint: &rt.CacheHint{TTL: 1500 * time.Millisecond, Scope: rt.CachePublic}})
	cases := []struct {
		uri, ttl, scope string
	}{
		{"test:///secret", "30000", "private"},
		{"test:///fresh", "0", "public"},
		{"test:///days/monday", "1500", "public"},
		{"file:///project/src/main.rs", "3600000", "public"},
	}
	c := start(t, srv)
	for i, tc := range cases {
		var res struct {
			TTLMs      json.RawMessage `json:"ttlMs"`
			CacheScope string          `json:"cacheScope"`
			ResultType string          `json:"resultType"`
		}
		raw := c.result(i+1, "resources/read", params26(`{}`, map[string]any{"uri": tc.uri}))
		if err := json.Unmarshal(raw, &res); err != nil {
			t.Fatal(err)
		}
		if string(res.TTLMs) != tc.ttl || res.CacheScope != tc.scope || res.ResultType != "complete" {
			t.Errorf("%s: ttlMs %s, cacheScope %q, resultType %q; want %s, %q, complete", tc.uri, res.TTLMs, res.CacheScope, res.ResultType, tc.ttl, tc.scope)
		}
	}
	// A list keeps the server's hint.
	if raw := c.result(10, "resources/list", params26(`{}`, nil)); !strings.Contains(string(raw), `"ttlMs":3600000`) {
		t.Errorf("resources/list: %s", raw)
	}

	old := start(t, srv)
	old.initializeWith("2025-11-25", `{}`)
	for i, tc := range cases {
		if raw := old.result(i+1, "resources/read", map[string]any{"uri": tc.uri}); strings.Contains(string(raw), "ttlMs") || strings.Contains(string(raw), "cacheScope") {
			t.Errorf("%s under 2025-11-25: %s", tc.uri, raw)
		}
	}
}
