package websocket_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	ws "github.com/coder/websocket"
	"github.com/mcpgen/mcpgen/internal/mcpschema"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
	"github.com/mcpgen/mcpgen/runtime/websocket"
)

func newServer() *runtime.Server {
	s := runtime.NewServer("test", "1.0.0", runtime.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	s.AddTool(runtime.Tool{
		Name:        "echo",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`),
		Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.CallToolResult, error) {
			var args struct{ Text string }
			if err := json.Unmarshal(req.Arguments, &args); err != nil {
				return nil, err
			}
			return runtime.TextResult(args.Text), nil
		},
	})
	return s
}

func TestWebSocket(t *testing.T) {
	mcpschema.RequireAll(t)
	ts := httptest.NewServer(websocket.Handler(newServer()))
	defer ts.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, resp, err := ws.Dial(ctx, "ws"+strings.TrimPrefix(ts.URL, "http"), &ws.DialOptions{Subprotocols: []string{"mcp"}})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	if got := resp.Header.Get("Sec-WebSocket-Protocol"); got != "mcp" {
		t.Errorf("subprotocol %q, want mcp", got)
	}
	tr := mcpschema.NewTracker()
	roundTrip := func(msg string) string {
		t.Helper()
		tr.Client([]byte(msg))
		if err := conn.Write(ctx, ws.MessageText, []byte(msg)); err != nil {
			t.Fatal(err)
		}
		typ, data, err := conn.Read(ctx)
		if err != nil || typ != ws.MessageText {
			t.Fatalf("read: %v %v", typ, err)
		}
		if err := tr.Server(data); err != nil {
			t.Errorf("server message does not validate: %v\n%s", err, data)
		}
		return string(data)
	}
	if got := roundTrip(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`); !strings.Contains(got, `"protocolVersion":"2025-11-25"`) {
		t.Fatalf("initialize: %s", got)
	}
	if err := conn.Write(ctx, ws.MessageText, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)); err != nil {
		t.Fatal(err)
	}
	if got := roundTrip(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); !strings.Contains(got, `"name":"echo"`) {
		t.Errorf("tools/list: %s", got)
	}
	// A message with line breaks is one message all the same.
	if got := roundTrip("{\"jsonrpc\":\"2.0\",\n \"id\":3,\n \"method\":\"tools/call\",\n \"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"a\\nb\"}}}"); !strings.Contains(got, `"text":"a\nb"`) {
		t.Errorf("tools/call: %s", got)
	}
	if got := roundTrip(`{"jsonrpc":"2.0","id":4,"method":"nope"}`); !strings.Contains(got, `-32601`) {
		t.Errorf("unknown method: %s", got)
	}
	conn.Close(ws.StatusNormalClosure, "")
}

func TestWebSocketRefused(t *testing.T) {
	tests := []struct {
		name   string
		opts   []websocket.Option
		host   string
		origin string
		want   int
	}{
		{name: "foreign host", host: "evil.example", want: http.StatusForbidden},
		{name: "allowed host", opts: []websocket.Option{websocket.WithAllowedHosts("mcp.example.com")}, host: "mcp.example.com:443", want: http.StatusSwitchingProtocols},
		{name: "cross origin", host: "localhost", origin: "http://evil.example", want: http.StatusForbidden},
		{name: "allowed origin", opts: []websocket.Option{websocket.WithOriginPatterns("app.example.com")}, host: "localhost", origin: "https://app.example.com", want: http.StatusSwitchingProtocols},
		{name: "not a WebSocket", host: "localhost", want: http.StatusUpgradeRequired},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := httptest.NewServer(websocket.Handler(newServer(), tt.opts...))
			defer ts.Close()
			req, _ := http.NewRequest("GET", ts.URL, nil)
			req.Host = tt.host
			if tt.name != "not a WebSocket" {
				req.Header.Set("Connection", "Upgrade")
				req.Header.Set("Upgrade", "websocket")
				req.Header.Set("Sec-WebSocket-Version", "13")
				req.Header.Set("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
				req.Header.Set("Sec-WebSocket-Protocol", "mcp")
			}
			if tt.origin != "" {
				req.Header.Set("Origin", tt.origin)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.want {
				t.Errorf("status %d, want %d", resp.StatusCode, tt.want)
			}
		})
	}
}

func TestWebSocketAuthorization(t *testing.T) {
	s := newServer()
	s.AddTool(runtime.Tool{
		Name:        "whoami",
		InputSchema: json.RawMessage(`{"type":"object"}`),
		Handler: func(ctx context.Context, req *runtime.ToolRequest) (*runtime.CallToolResult, error) {
			return runtime.TextResult(runtime.PrincipalFromContext(ctx).Subject), nil
		},
	})
	verify := func(_ context.Context, token string) (*runtime.Principal, error) {
		if token != "good" {
			return nil, errors.New("unknown token")
		}
		return &runtime.Principal{Subject: "alice", Scopes: []string{"mcp"}}, nil
	}
	h := mcphttp.AuthorizationHandler(s, mcphttp.Authorization{Verify: verify, Scopes: []string{"mcp"}, AuthorizationServers: []string{"https://auth.example.com"}}, websocket.Handler(s))
	ts := httptest.NewServer(h)
	defer ts.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	url := "ws" + strings.TrimPrefix(ts.URL, "http") + "/ws"
	for _, token := range []string{"", "bad"} {
		opts := &ws.DialOptions{Subprotocols: []string{"mcp"}, HTTPHeader: http.Header{}}
		if token != "" {
			opts.HTTPHeader.Set("Authorization", "Bearer "+token)
		}
		_, resp, err := ws.Dial(ctx, url, opts)
		if err == nil || resp == nil || resp.StatusCode != http.StatusUnauthorized ||
			!strings.Contains(resp.Header.Get("WWW-Authenticate"), `resource_metadata="`+ts.URL+`/.well-known/oauth-protected-resource/ws"`) {
			t.Fatalf("token %q: %v %+v", token, err, resp)
		}
	}
	conn, _, err := ws.Dial(ctx, url, &ws.DialOptions{Subprotocols: []string{"mcp"}, HTTPHeader: http.Header{"Authorization": {"Bearer good"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"whoami"}}`,
	} {
		if err := conn.Write(ctx, ws.MessageText, []byte(msg)); err != nil {
			t.Fatal(err)
		}
	}
	var last []byte
	for range 2 { // the answers to initialize and whoami
		_, data, err := conn.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		last = data
	}
	if !strings.Contains(string(last), `"id":2`) || !strings.Contains(string(last), `"text":"alice"`) {
		t.Errorf("whoami: %s", last)
	}
	resp, err := http.Get(ts.URL + "/.well-known/oauth-protected-resource/ws")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var md struct{ Resource string }
	if json.NewDecoder(resp.Body).Decode(&md) != nil || md.Resource != ts.URL+"/ws" {
		t.Errorf("metadata: %d %+v", resp.StatusCode, md)
	}
}
