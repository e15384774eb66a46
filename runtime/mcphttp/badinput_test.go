package mcphttp_test

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	ws "github.com/coder/websocket"
	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
	"github.com/mcpgen/mcpgen/runtime/websocket"
)

// badInputMax is the message size limit of the bad-input servers.
const badInputMax = 64 << 10

// wire is one session of a transport, initialized at 2025-11-25: send hands
// a message to the server, answers receives what the server sends.
type wire struct {
	send    func(t *testing.T, msg string, async bool)
	answers chan []byte
	hold    *holdTool
}

// holdTool is a tool that runs until released or cancelled, to keep a
// request in flight.
type holdTool struct {
	started chan struct{}
	release chan struct{}
}

func newHoldTool() *holdTool {
	return &holdTool{started: make(chan struct{}, 16), release: make(chan struct{})}
}

func (h *holdTool) tool() rt.Tool {
	return rttest.Tool("hold", func(ctx context.Context, _ *rt.ToolRequest) (*rt.CallToolResult, error) {
		h.started <- struct{}{}
		select {
		case <-h.release:
			return rt.TextResult("released"), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
}

func badInputServer(h *holdTool) *rt.Server {
	srv := rttest.HTTPServer(rt.WithMaxMessageSize(badInputMax))
	srv.AddTool(h.tool())
	return srv
}

const initializedMsg = `{"jsonrpc":"2.0","method":"notifications/initialized"}`

// transports start a session of each transport.
var transports = []struct {
	name  string
	start func(t *testing.T) *wire
}{
	{"stdio", func(t *testing.T) *wire {
		w := &wire{answers: make(chan []byte, 64), hold: newHoldTool()}
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		ctx, cancel := context.WithCancel(context.Background())
		srv := badInputServer(w.hold)
		go func() { srv.Serve(ctx, inR, outW); outW.Close() }()
		t.Cleanup(func() { cancel(); inW.Close(); outR.Close() })
		go func() {
			br := bufio.NewReader(outR)
			for {
				line, err := br.ReadBytes('\n')
				if len(line) > 0 {
					w.answers <- bytes.TrimSuffix(line, []byte("\n"))
				}
				if err != nil {
					return
				}
			}
		}()
		w.send = func(t *testing.T, msg string, _ bool) {
			if _, err := io.WriteString(inW, msg+"\n"); err != nil {
				t.Fatal(err)
			}
		}
		w.send(t, rttest.InitBody, false)
		<-w.answers
		w.send(t, initializedMsg, false)
		return w
	}},
	{"streamable HTTP", func(t *testing.T) *wire {
		w := &wire{answers: make(chan []byte, 64), hold: newHoldTool()}
		ts := httptest.NewServer(mcphttp.Handler(badInputServer(w.hold)))
		t.Cleanup(ts.Close)
		var session string
		post := func(t *testing.T, msg string) {
			req, _ := http.NewRequest("POST", ts.URL, strings.NewReader(msg))
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Content-Type", "application/json")
			if session != "" {
				req.Header.Set("Mcp-Session-Id", session)
				req.Header.Set("MCP-Protocol-Version", "2025-11-25")
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode >= 500 {
				t.Errorf("status %d for %.100q: %s", resp.StatusCode, msg, body)
			}
			if session == "" {
				session = resp.Header.Get("Mcp-Session-Id")
			}
			switch resp.Header.Get("Content-Type") {
			case "application/json":
				w.answers <- body
			case "text/event-stream":
				for _, e := range rttest.SSEData(body) {
					w.answers <- e
				}
			default:
				if len(body) > 0 || resp.StatusCode != http.StatusAccepted {
					t.Errorf("status %d, Content-Type %q for %.100q: %s", resp.StatusCode, resp.Header.Get("Content-Type"), msg, body)
				}
			}
		}
		w.send = func(t *testing.T, msg string, async bool) {
			if async {
				go post(t, msg)
			} else {
				post(t, msg)
			}
		}
		post(t, rttest.InitBody)
		<-w.answers
		post(t, initializedMsg)
		return w
	}},
	{"legacy SSE", func(t *testing.T) *wire {
		w := &wire{answers: make(chan []byte, 64), hold: newHoldTool()}
		h := mcphttp.Handler(badInputServer(w.hold))
		mux := http.NewServeMux()
		mux.Handle("/mcp/", h)
		ts := httptest.NewServer(mux)
		t.Cleanup(ts.Close)
		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(cancel)
		req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/mcp/sse", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		events := readEvents(resp.Body)
		first := nextEvent(t, events)
		endpoint := ts.URL + "/mcp/" + first.data
		go func() {
			for e := range events {
				w.answers <- []byte(e.data)
			}
		}()
		w.send = func(t *testing.T, msg string, _ bool) {
			resp, err := http.Post(endpoint, "application/json", strings.NewReader(msg))
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			switch {
			case resp.StatusCode == http.StatusRequestEntityTooLarge:
				// Refused before the session saw it: the refusal is the answer.
				w.answers <- body
			case resp.StatusCode != http.StatusAccepted:
				t.Errorf("status %d for %.100q: %s", resp.StatusCode, msg, body)
			}
		}
		w.send(t, rttest.InitBody, false)
		<-w.answers
		w.send(t, initializedMsg, false)
		return w
	}},
	{"WebSocket", func(t *testing.T) *wire {
		w := &wire{answers: make(chan []byte, 64), hold: newHoldTool()}
		ts := httptest.NewServer(websocket.Handler(badInputServer(w.hold)))
		t.Cleanup(ts.Close)
		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(cancel)
		conn, _, err := ws.Dial(ctx, "ws"+strings.TrimPrefix(ts.URL, "http"), &ws.DialOptions{Subprotocols: []string{"mcp"}})
		if err != nil {
			t.Fatal(err)
		}
		conn.SetReadLimit(-1)
		t.Cleanup(func() { conn.CloseNow() })
		go func() {
			for {
				_, data, err := conn.Read(ctx)
				if err != nil {
					return
				}
				w.answers <- data
			}
		}()
		w.send = func(t *testing.T, msg string, _ bool) {
			if err := conn.Write(ctx, ws.MessageText, []byte(msg)); err != nil {
				t.Fatal(err)
			}
		}
		w.send(t, rttest.InitBody, false)
		<-w.answers
		w.send(t, initializedMsg, false)
		return w
	}},
}

// badInputCases are hostile or broken messages, each with the answers it
// must get (substrings of each, in any order).
var badInputCases = []struct {
	name string
	msgs []string
	hold bool     // a "hold" call with id 7 is in flight while msgs are sent
	want []string // a substring of each answer
}{
	{name: "malformed JSON", msgs: []string{`{"jsonrpc":"2.0","id":1,"method":"ping"`}, want: []string{`"id":null,"error":{"code":-32700`}},
	{name: "not JSON", msgs: []string{`hello`}, want: []string{`"id":null,"error":{"code":-32700`}},
	{name: "wrong jsonrpc", msgs: []string{`{"jsonrpc":"1.0","id":1,"method":"ping"}`}, want: []string{`"error":{"code":-32600`}},
	{name: "missing jsonrpc", msgs: []string{`{"id":1,"method":"ping"}`}, want: []string{`"error":{"code":-32600`}},
	{name: "object id", msgs: []string{`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`}, want: []string{`"id":null,"error":{"code":-32600`}},
	{name: "array id", msgs: []string{`{"jsonrpc":"2.0","id":[1],"method":"ping"}`}, want: []string{`"id":null,"error":{"code":-32600`}},
	{name: "method as a number", msgs: []string{`{"jsonrpc":"2.0","id":1,"method":5}`}, want: []string{`"error":{"code":-32600`}},
	{name: "notification with a bad method", msgs: []string{`{"jsonrpc":"2.0","method":5}`}, want: []string{`"id":null,"error":{"code":-32600`}},
	{name: "unknown method", msgs: []string{`{"jsonrpc":"2.0","id":1,"method":"nope"}`}, want: []string{`"id":1,"error":{"code":-32601`}},
	{name: "batch where not allowed", msgs: []string{`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]`}, want: []string{`"error":{"code":-32600`}},
	{name: "empty batch", msgs: []string{`[]`}, want: []string{`"error":{"code":-32600`}},
	{name: "scalar message", msgs: []string{`42`}, want: []string{`"id":null,"error":{"code":-32600`}},
	{
		name: "duplicate id in flight", hold: true,
		msgs: []string{`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}`},
		want: []string{`"id":7,"error":{"code":-32600`, `"id":7,"result":{"content":[{"type":"text","text":"released"}]`},
	},
	{name: "response to an unknown id", msgs: []string{`{"jsonrpc":"2.0","id":99,"result":{}}`, `{"jsonrpc":"2.0","id":"x","error":{"code":-1,"message":"no"}}`}},
	{
		name: "huge body",
		msgs: []string{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"` + strings.Repeat("a", badInputMax) + `"}}}`},
		want: []string{`"id":null,"error":{"code":-32600`},
	},
	{
		name: "deeply nested params",
		msgs: []string{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}}}`},
		want: []string{`"id":null,"error":{"code":-32700`}, // beyond the depth limit, not JSON the server reads
	},
	{
		name: "deeply nested message",
		msgs: []string{strings.Repeat(`{"a":`, 10500) + `1` + strings.Repeat(`}`, 10500)},
		want: []string{`"id":null,"error":{"code":-32700`},
	},
	{
		name: "invalid UTF-8 in a string",
		msgs: []string{"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"a\xffb\"}}}"},
		want: []string{`"id":1,`},
	},
	{
		name: "invalid UTF-8 in a method",
		msgs: []string{"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"no\xc3pe\"}"},
		want: []string{`"id":1,"error":{"code":-32601`},
	},
}

// TestBadInputEveryTransport sends every bad-input case over every
// transport: each gets the same answers as over stdio, nothing leaks, and
// the session serves the next request.
func TestBadInputEveryTransport(t *testing.T) {
	stdio := map[string][][]byte{} // the answers over stdio, by case
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			w := tr.start(t)
			for i, tc := range badInputCases {
				got := runBadInput(t, w, i, tc.msgs, tc.hold, len(tc.want))
				if t.Failed() {
					return
				}
				for j, a := range got {
					if !bytes.Contains(a, []byte(tc.want[j])) {
						t.Errorf("%s: answer %s, want one with %s", tc.name, a, tc.want[j])
					}
					assertNoLeak(t, a)
				}
				if tr.name == "stdio" {
					stdio[tc.name] = got
					continue
				}
				want := stdio[tc.name]
				if !slices.EqualFunc(got, want, bytes.Equal) {
					t.Errorf("%s: answers\n%s\nover stdio:\n%s", tc.name, bytes.Join(got, []byte("\n")), bytes.Join(want, []byte("\n")))
				}
			}
			// Still alive and serving calls.
			w.send(t, echoBody, false)
			if a := nextAnswer(t, w); !bytes.Contains(a, []byte(`"text":"hi"`)) {
				t.Errorf("echo after the bad input: %s", a)
			}
		})
	}
}

// runBadInput sends msgs, then a ping; it returns the n answers before the
// ping's, sorted, and checks that nothing else came.
func runBadInput(t *testing.T, w *wire, i int, msgs []string, hold bool, n int) [][]byte {
	t.Helper()
	if hold {
		w.send(t, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"hold"}}`, true)
		select {
		case <-w.hold.started:
		case <-time.After(rttest.Timeout):
			t.Fatal("the hold tool did not start")
		}
	}
	for _, m := range msgs {
		w.send(t, m, false)
	}
	var got [][]byte
	if hold {
		// The answers to msgs first: the hold call is in flight until then.
		for len(got) < n-1 {
			got = append(got, nextAnswer(t, w))
		}
		w.hold.release <- struct{}{}
	}
	for len(got) < n {
		got = append(got, nextAnswer(t, w))
	}
	sentinel := `{"jsonrpc":"2.0","id":"end` + string(rune('a'+i%26)) + `","method":"ping"}`
	w.send(t, sentinel, false)
	if a := nextAnswer(t, w); !bytes.Contains(a, []byte(`"id":"end`+string(rune('a'+i%26))+`","result":{}`)) {
		t.Errorf("case %d: got %s, want the answer to the ping that follows", i, a)
	}
	slices.SortFunc(got, bytes.Compare)
	return got
}

func nextAnswer(t *testing.T, w *wire) []byte {
	t.Helper()
	select {
	case a := <-w.answers:
		return a
	case <-time.After(rttest.Timeout):
		t.Fatal("no answer")
	}
	return nil
}
