package httpwire

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcpgen/mcpgen/bench/internal/wire"
)

func TestAnswerEvent(t *testing.T) {
	for _, tc := range []struct {
		name, stream, want string
	}{
		{"one event", "event: message\ndata: {\"id\":1}\n\n", `{"id":1}`},
		{"no space, no final blank line", "data:{\"id\":2}", `{"id":2}`},
		{"notification first", "data: {\"method\":\"notifications/progress\"}\n\nid: 7\ndata: {\"id\":3}\n\n", `{"id":3}`},
		{"data on two lines", "data: {\"id\":\ndata: 4}\n\n", "{\"id\":\n4}"},
		{"CRLF lines", "data: {\"id\":5}\r\n\r\n", `{"id":5}`},
		{"only a notification", "data: {\"method\":\"notifications/message\"}\n\n", ""},
		{"empty", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := answerEvent([]byte(tc.stream))
			if tc.want == "" {
				if err == nil {
					t.Fatalf("got %q, want an error", got)
				}
				return
			}
			if err != nil || string(got) != tc.want {
				t.Fatalf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// fake is a minimal Streamable HTTP server whose faults the tests choose.
type fake struct {
	session  string // given on initialize; "" for none
	sse      bool   // answer calls as an event stream
	wrongID  bool   // answer calls with another id
	wrongTxt bool   // answer calls with other text
	lax      bool   // accept calls in any session
}

func (f fake) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.Method == http.MethodDelete {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	body, _ := io.ReadAll(req.Body)
	m, err := wire.ParseMessage(bytes.TrimSpace(body))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if len(m.ID) == 0 {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	id, _ := m.IDInt()
	var answer string
	switch m.Method {
	case "initialize":
		if f.session != "" {
			w.Header().Set("Mcp-Session-Id", f.session)
		}
		answer = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"protocolVersion":%q,"capabilities":{"tools":{}},"serverInfo":{"name":"fake","version":"0"}}}`, id, wire.ProtocolVersion)
	case "tools/call":
		if f.session != "" && !f.lax && req.Header.Get("Mcp-Session-Id") != f.session {
			http.Error(w, "no such session", http.StatusNotFound)
			return
		}
		text := wire.CallFor(id).Want
		if f.wrongTxt {
			text += "!"
		}
		if f.wrongID {
			id++
		}
		answer = `{"jsonrpc":"2.0","id":` + strconv.FormatInt(id, 10) + `,"result":{"content":[{"type":"text","text":` + strconv.Quote(text) + `}]}}`
	}
	if f.sse {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}\n\nevent: message\ndata: %s\n\n", answer)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, answer)
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name      string
		f         fake
		stateless bool
		wantErr   string // "" for none
	}{
		{"stateful JSON", fake{session: "s1"}, false, ""},
		{"stateful event stream", fake{session: "s1", sse: true}, false, ""},
		{"stateless", fake{}, true, ""},
		{"stateful without session", fake{}, false, "Mcp-Session-Id"},
		{"stateless with session", fake{session: "s1"}, true, "stateless server gave session"},
		{"stateful accepting any session", fake{session: "s1", lax: true}, false, "want HTTP 404"},
		{"wrong id", fake{session: "s1", wrongID: true}, false, "answer carries id"},
		{"wrong text", fake{session: "s1", wrongTxt: true}, false, "want one text block"},
		{"wrong text in a stream", fake{sse: true, wrongTxt: true}, true, "want one text block"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mux := http.NewServeMux()
			mux.Handle(Path, tc.f)
			srv := httptest.NewServer(mux)
			defer srv.Close()
			err := Check(srv.URL+Path, tc.stateless)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tc.wantErr != "" && err == nil:
				t.Fatalf("no error, want one containing %q", tc.wantErr)
			case tc.wantErr != "" && !strings.Contains(err.Error(), tc.wantErr):
				t.Fatalf("error %q does not contain %q", err, tc.wantErr)
			}
		})
	}
}

// uniqueSessions gives every initialize a session id of its own and
// accepts calls in any session.
type uniqueSessions struct{ n atomic.Int64 }

func (u *uniqueSessions) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	f := fake{session: "s" + strconv.FormatInt(u.n.Add(1), 10), lax: true}
	f.ServeHTTP(w, req)
}

func TestOpenSessions(t *testing.T) {
	for _, tc := range []struct {
		name    string
		h       http.Handler
		wantErr string
	}{
		{"an id each", &uniqueSessions{}, ""},
		{"one id for all", fake{session: "s1", lax: true}, "the same id"},
		{"no id", fake{}, "Mcp-Session-Id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mux := http.NewServeMux()
			mux.Handle(Path, tc.h)
			srv := httptest.NewServer(mux)
			defer srv.Close()
			pool := NewPool(3)
			defer pool.CloseIdleConnections()
			cs, err := OpenSessions(srv.URL+Path, pool, 40, 3)
			if err == nil {
				err = CheckSessions(cs, 7)
			}
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tc.wantErr == "" && len(cs) != 40:
				t.Fatalf("%d sessions, want 40", len(cs))
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}
