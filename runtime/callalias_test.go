package runtime

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// TestInlineCallKeepsItsRequest checks that a tools/call run on the
// reading goroutine, which reads its arguments where the reader read them,
// still reads them intact after the reader has read more than a whole read
// buffer of further requests: once reading is handed over because the call
// outlasted handoffDelay, and once the call is answered at its tool's
// timeout while the handler runs on.
func TestInlineCallKeepsItsRequest(t *testing.T) {
	for _, timeout := range []time.Duration{0, 100 * time.Microsecond} {
		t.Run(fmt.Sprintf("timeout=%v", timeout), func(t *testing.T) {
			started := make(chan struct{})
			resume := make(chan struct{})
			seen := make(chan string, 1)
			s := NewServer("test", "0")
			s.AddTool(Tool{
				Name:        "hold",
				InputSchema: json.RawMessage(`{"type":"object"}`),
				Timeout:     timeout,
				Handler: func(ctx context.Context, req *ToolRequest) (*CallToolResult, error) {
					close(started)
					<-resume
					args := string(req.Arguments)
					seen <- args
					return TextResult(args), nil
				},
			})
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			served := make(chan error, 1)
			go func() { served <- s.Serve(ctx, inR, outW) }()
			out := bufio.NewReader(outR)
			answers := make(chan map[string]any, 100)
			go func() {
				for {
					line, err := out.ReadBytes('\n')
					if err != nil {
						close(answers)
						return
					}
					var m map[string]any
					if err := json.Unmarshal(line, &m); err != nil {
						t.Errorf("the server wrote %.200q: %v", line, err)
					}
					answers <- m
				}
			}()
			next := func() map[string]any {
				select {
				case m := <-answers:
					return m
				case <-time.After(testHandoffWait):
					t.Fatal("no answer")
					return nil
				}
			}
			write := func(s string) {
				if _, err := io.WriteString(inW, s+"\n"); err != nil {
					t.Fatal(err)
				}
			}
			write(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
			next()
			write(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			want := `{"text":"` + strings.Repeat("a", 1000) + `"}`
			write(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"hold","arguments":` + want + `}}`)
			<-started
			if timeout > 0 {
				if m := next(); m["id"] != 1.0 || !strings.Contains(fmt.Sprint(m["result"]), "timed out") {
					t.Fatalf("at the tool's timeout the server answered %v, want the call's timeout", m)
				}
			}
			// The reader that took over reads 100 KiB of pings with ids
			// that fill the read buffer.
			pad := strings.Repeat("b", 1000)
			for i := range 100 {
				write(fmt.Sprintf(`{"jsonrpc":"2.0","id":"%s%d","method":"ping"}`, pad, i))
				if m := next(); m["id"] != fmt.Sprintf("%s%d", pad, i) {
					t.Fatalf("answer %d: %v, want the ping's", i, m)
				}
			}
			close(resume)
			if got := <-seen; got != want {
				t.Errorf("after more requests were read, the call read its arguments as %.60q…, want %.60q…", got, want)
			}
			if timeout == 0 {
				m := next()
				res, _ := m["result"].(map[string]any)
				content, _ := res["content"].([]any)
				if m["id"] != 1.0 || len(content) != 1 || content[0].(map[string]any)["text"] != want {
					t.Errorf("the call's answer is %.200v, want its arguments as text", m)
				}
			}
			inW.Close()
			if err := <-served; err != nil {
				t.Fatal(err)
			}
		})
	}
}
