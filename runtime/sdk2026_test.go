package runtime_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/mcpschema"
	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// validatingPipe passes what the server writes on to the client and
// validates each message (one a line) against the schema, following the
// client's messages to know the revision and the methods answered.
type validatingPipe struct {
	t  testing.TB
	tr *mcpschema.Tracker

	mu   sync.Mutex
	n    int      // server messages validated
	errs []string // validation failures

	ackOnce sync.Once
	acked   chan struct{} // closed when the server acknowledges a subscription
}

func (v *validatingPipe) server(r io.Reader, w io.WriteCloser) {
	defer w.Close()
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			v.mu.Lock()
			v.n++
			if err := v.tr.Server(line); err != nil {
				v.errs = append(v.errs, err.Error()+"\n"+string(line))
			}
			v.mu.Unlock()
			if bytes.Contains(line, []byte(`"notifications/subscriptions/acknowledged"`)) {
				v.ackOnce.Do(func() { close(v.acked) })
			}
			w.Write(line)
		}
		if err != nil {
			return
		}
	}
}

func (v *validatingPipe) client(r io.Reader, w io.WriteCloser) {
	defer w.Close()
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			v.tr.Client(line)
			w.Write(line)
		}
		if err != nil {
			return
		}
	}
}

// connectSDK serves srv over pipes to the Go SDK client at its default
// protocol revision.
func connectSDK(t *testing.T, srv *rt.Server, opts *mcp.ClientOptions) (*mcp.ClientSession, *validatingPipe) {
	t.Helper()
	mcpschema.Require(t, rev26)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	v := &validatingPipe{t: t, tr: mcpschema.NewTracker(), acked: make(chan struct{})}
	srvIn, clientOut := io.Pipe() // client -> server
	clientIn, srvOut := io.Pipe() // server -> client
	midR, midW := io.Pipe()       // the server's raw output
	inR, inW := io.Pipe()         // the client's raw output
	go v.client(inR, clientOut)   // client -> tracker -> server
	go v.server(midR, srvOut)     // server -> tracker -> client
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, srvIn, midW); midW.Close() }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "sdk", Version: "1.8.0"}, opts).Connect(ctx, &mcp.IOTransport{Reader: clientIn, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		inW.Close()
		select {
		case <-served:
		case <-time.After(10 * time.Second):
			t.Error("Serve did not return")
		}
		v.mu.Lock()
		defer v.mu.Unlock()
		for _, e := range v.errs {
			t.Errorf("schema: %s", e)
		}
		t.Logf("validated %d server messages at revision %s", v.n, v.tr.Revision())
	})
	return cs, v
}

// TestGoSDK2026 drives the server with the official Go SDK client v1.8.0
// at revision 2026-07-28 over stdio: discovery, a call, an elicitation
// round trip (InputRequiredResult and retry, answered by the client's
// handler), and a tool list change delivered on subscriptions/listen.
func TestGoSDK2026(t *testing.T) {
	srv := exampleServer()
	srv.AddTool(deleteTool)
	elicited := make(chan string, 4)
	changed := make(chan struct{}, 4)
	cs, v := connectSDK(t, srv, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			elicited <- req.Params.Message
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"sure": true}}, nil
		},
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	})
	ctx := context.Background()
	if got := cs.InitializeResult().ProtocolVersion; got != rev26 {
		t.Fatalf("the SDK chose revision %q, want %s", got, rev26)
	}
	if info := cs.InitializeResult().ServerInfo; info == nil || info.Name != "ExampleServer" {
		t.Errorf("server info %+v", info)
	}

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{"location": "Oslo"}})
	if err != nil {
		t.Fatal(err)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; !strings.HasPrefix(text, "Current weather in Oslo:") {
		t.Errorf("get_weather said %q", text)
	}

	confirmRuns.Store(0)
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "delete_all", Arguments: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; text != `accept {"sure":true}` {
		t.Errorf("delete_all said %q", text)
	}
	if msg := <-elicited; msg != "Delete everything?" {
		t.Errorf("the client was asked %q", msg)
	}
	if n := confirmRuns.Load(); n != 2 {
		t.Errorf("the handler ran %d times, want 2", n)
	}

	// The SDK subscribes in the background: a change made before the
	// server acknowledged the subscription is not the SDK's to see.
	select {
	case <-v.acked:
	case <-time.After(10 * time.Second):
		t.Fatal("the SDK never subscribed with subscriptions/listen")
	}
	srv.AddTool(rttest.Tool("added", nil2))
	select {
	case <-changed:
	case <-time.After(5 * time.Second):
		t.Error("no notifications/tools/list_changed on the subscription")
	}
	v.mu.Lock()
	rev := v.tr.Revision()
	v.mu.Unlock()
	if rev != rev26 {
		t.Errorf("the traffic was validated at revision %q", rev)
	}
}

// TestGoSDK2026HTTP runs the same calls over Streamable HTTP, against a
// server that keeps sessions for older clients and against a stateless
// one: the SDK's 2026-07-28 requests carry the standard headers the
// server checks.
func TestGoSDK2026HTTP(t *testing.T) {
	for _, stateless := range []bool{false, true} {
		t.Run(fmt.Sprint("stateless=", stateless), func(t *testing.T) {
			srv := exampleServer()
			srv.AddTool(deleteTool)
			var opts []mcphttp.Option
			if stateless {
				opts = append(opts, mcphttp.WithStateless())
			}
			ts := httptest.NewServer(mcphttp.Handler(srv, opts...))
			defer ts.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			changed := make(chan struct{}, 4)
			progress := make(chan float64, 8)
			client := mcp.NewClient(&mcp.Implementation{Name: "sdk", Version: "1.8.0"}, &mcp.ClientOptions{
				ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					return &mcp.ElicitResult{Action: "decline"}, nil
				},
				ToolListChangedHandler:      func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
				ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) { progress <- r.Params.Progress },
			})
			srv.AddTool(rttest.Tool("steps", func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
				for i := 1; i <= 3; i++ {
					rt.Progress(ctx, float64(i), 3, "")
				}
				return rt.TextResult("done"), nil
			}))
			cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			if got := cs.InitializeResult().ProtocolVersion; got != rev26 {
				t.Fatalf("the SDK chose revision %q, want %s", got, rev26)
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_weather", Arguments: map[string]any{"location": "Oslo"}})
			if err != nil {
				t.Fatal(err)
			}
			if text := res.Content[0].(*mcp.TextContent).Text; !strings.HasPrefix(text, "Current weather in Oslo:") {
				t.Errorf("get_weather said %q", text)
			}
			res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "delete_all", Arguments: map[string]any{}})
			if err != nil {
				t.Fatal(err)
			}
			if text := res.Content[0].(*mcp.TextContent).Text; text != "decline " {
				t.Errorf("delete_all said %q", text)
			}
			rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "file:///project/src/main.rs"})
			if err != nil || len(rr.Contents) != 1 || !strings.HasPrefix(rr.Contents[0].Text, "fn main") {
				t.Errorf("ReadResource = %+v, %v", rr, err)
			}
			// Progress goes on the request's event stream.
			p := &mcp.CallToolParams{Name: "steps", Arguments: map[string]any{}}
			p.SetProgressToken("tok")
			if _, err := cs.CallTool(ctx, p); err != nil {
				t.Fatal(err)
			}
			for want := 1.0; want <= 3; want++ {
				select {
				case got := <-progress:
					if got != want {
						t.Errorf("progress %v, want %v", got, want)
					}
				case <-time.After(5 * time.Second):
					t.Fatalf("no progress %v", want)
				}
			}
			// The subscription the SDK opened carries list changes.
			srv.AddTool(rttest.Tool("added", nil2))
			select {
			case <-changed:
			case <-time.After(5 * time.Second):
				t.Error("no notifications/tools/list_changed on the subscription")
			}
		})
	}
}
