package mcpschema_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/mcpschema"
)

const (
	initOK         = `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"REV","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}`
	initNoInfo     = `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"REV","capabilities":{}}}`
	initBadVersion = `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":5,"capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`
	callText       = `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"hi"}]}}`
	callNoType     = `{"jsonrpc":"2.0","id":2,"result":{"content":[{"text":"hi"}]}}`
	callNoContent  = `{"jsonrpc":"2.0","id":2,"result":{"isError":true}}`
	callAudio      = `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"audio","data":"AAAA","mimeType":"audio/wav"}]}}`
	callLink       = `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"resource_link","uri":"file:///a.txt","name":"a"}]}}`
	callStructArr  = `{"jsonrpc":"2.0","id":2,"result":{"content":[],"structuredContent":[1]}}`
	listOK         = `{"jsonrpc":"2.0","id":"l","result":{"tools":[{"name":"a","inputSchema":{"type":"object"}}],"nextCursor":"x"}}`
	listBadInput   = `{"jsonrpc":"2.0","id":"l","result":{"tools":[{"name":"a","inputSchema":{"type":"array"}}]}}`
	listNoTools    = `{"jsonrpc":"2.0","id":"l","result":{}}`
	listNumCursor  = `{"jsonrpc":"2.0","id":"l","result":{"tools":[],"nextCursor":2}}`
	pingOK         = `{"jsonrpc":"2.0","id":3,"result":{}}`
	pingArray      = `{"jsonrpc":"2.0","id":3,"result":[]}`
	errOK          = `{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"Method not found","data":{"x":1}}}`
	errNullID      = `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`
	errNoMessage   = `{"jsonrpc":"2.0","id":4,"error":{"code":-32601}}`
	errFloatCode   = `{"jsonrpc":"2.0","id":4,"error":{"code":1.5,"message":"x"}}`
	resultNullID   = `{"jsonrpc":"2.0","id":null,"result":{}}`
	resultBoolID   = `{"jsonrpc":"2.0","id":true,"result":{}}`
	wrongVersion   = `{"jsonrpc":"1.0","id":3,"result":{}}`
	resultAndError = `{"jsonrpc":"2.0","id":3,"result":{},"error":{"code":1,"message":"x"}}`
	neither        = `{"jsonrpc":"2.0","id":3}`
)

// since returns the revisions from the one named on.
func since(rev string) map[string]bool {
	m := map[string]bool{}
	on := false
	for _, r := range mcpschema.Revisions {
		on = on || r == rev
		m[r] = on
	}
	return m
}

// only returns the revision rev alone.
func only(rev string) map[string]bool {
	m := none()
	m[rev] = true
	return m
}

func all() map[string]bool { return since(mcpschema.Revisions[0]) }
func none() map[string]bool {
	m := map[string]bool{}
	for _, r := range mcpschema.Revisions {
		m[r] = false
	}
	return m
}

func TestLoadEveryRevision(t *testing.T) {
	for _, rev := range mcpschema.Revisions {
		t.Run(rev, func(t *testing.T) {
			s := mcpschema.Require(t, rev)
			if s.Revision() != rev {
				t.Fatalf("Revision() = %q", s.Revision())
			}
			for _, def := range []string{"InitializeResult", "ListToolsResult", "CallToolResult", "EmptyResult", "JSONRPCNotification"} {
				if !s.Has(def) {
					t.Errorf("no definition %s", def)
				}
			}
			newNames := rev == "2025-11-25"
			if s.Has("JSONRPCErrorResponse") != newNames || s.Has("JSONRPCError") == newNames {
				t.Errorf("error envelope names: JSONRPCErrorResponse %v, JSONRPCError %v", s.Has("JSONRPCErrorResponse"), s.Has("JSONRPCError"))
			}
			if got, want := s.HasBatches(), rev == "2025-03-26"; got != want {
				t.Errorf("HasBatches() = %v, want %v", got, want)
			}
			if err := s.Validate("CallToolResult", []byte(`{"content":[]}`)); err != nil {
				t.Errorf("Validate(CallToolResult, minimal): %v", err)
			}
			if err := s.Validate("CallToolResult", []byte(`{}`)); err == nil {
				t.Error("Validate(CallToolResult, {}) = nil, want an error")
			}
			if err := s.Validate("NoSuchDefinition", []byte(`{}`)); err == nil || !strings.Contains(err.Error(), "defines no NoSuchDefinition") {
				t.Errorf("Validate(NoSuchDefinition) = %v", err)
			}
		})
	}
}

func TestLoadErrors(t *testing.T) {
	real := mcpschema.Require(t, "2025-06-18") // skips when no schemas exist
	_ = real
	if _, err := mcpschema.Load("1999-01-01"); err == nil || errors.Is(err, mcpschema.ErrNoSchemas) || !strings.Contains(err.Error(), `unknown protocol revision "1999-01-01"`) {
		t.Errorf("Load(unknown revision) = %v", err)
	}

	t.Run("dir is not a directory", func(t *testing.T) {
		t.Setenv(mcpschema.EnvDir, filepath.Join(t.TempDir(), "missing"))
		_, err := mcpschema.Load("2025-06-18")
		if !errors.Is(err, mcpschema.ErrNoSchemas) {
			t.Fatalf("Load = %v, want ErrNoSchemas", err)
		}
	})

	t.Run("override with one revision", func(t *testing.T) {
		src, err := mcpschema.Dir()
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(src, "2025-06-18", "schema.json"))
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, "2025-06-18"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "2025-06-18", "schema.json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Setenv(mcpschema.EnvDir, dir)
		if d, err := mcpschema.Dir(); err != nil || d != dir {
			t.Fatalf("Dir() = %q, %v; want %q", d, err, dir)
		}
		if _, err := mcpschema.Load("2025-06-18"); err != nil {
			t.Errorf("Load(2025-06-18) = %v", err)
		}
		if _, err := mcpschema.Load("2025-11-25"); !errors.Is(err, mcpschema.ErrNoSchemas) {
			t.Errorf("Load(2025-11-25) = %v, want ErrNoSchemas", err)
		}
	})
}

// fakeTB records Skip and Fatal; both stop the caller by panicking.
type fakeTB struct {
	testing.TB
	skipped, failed bool
}

type stop struct{}

func (f *fakeTB) Helper()               {}
func (f *fakeTB) Skip(args ...any)      { f.skipped = true; panic(stop{}) }
func (f *fakeTB) Fatal(args ...any)     { f.failed = true; panic(stop{}) }
func (f *fakeTB) Fatalf(string, ...any) { f.failed = true; panic(stop{}) }

func TestRequireWithoutSchemas(t *testing.T) {
	for _, tc := range []struct {
		ci                string
		wantSkip, wantErr bool
	}{
		{ci: "", wantSkip: true},
		{ci: "false", wantSkip: true},
		{ci: "true", wantErr: true},
	} {
		t.Run("CI="+tc.ci, func(t *testing.T) {
			t.Setenv(mcpschema.EnvDir, filepath.Join(t.TempDir(), "missing"))
			t.Setenv("CI", tc.ci)
			f := &fakeTB{TB: t}
			func() {
				defer func() {
					if p := recover(); p != nil {
						if _, ok := p.(stop); !ok {
							panic(p)
						}
					}
				}()
				mcpschema.Require(f, "2025-06-18")
			}()
			if f.skipped != tc.wantSkip || f.failed != tc.wantErr {
				t.Errorf("skipped %v, failed %v; want %v, %v", f.skipped, f.failed, tc.wantSkip, tc.wantErr)
			}
		})
	}
}

func TestValidateResponse(t *testing.T) {
	for _, tc := range []struct {
		name, method, msg string
		valid             map[string]bool // by revision
		errHas            string          // in the error, when invalid
	}{
		{"initialize", "initialize", initOK, all(), ""},
		{"initialize without serverInfo", "initialize", initNoInfo, none(), "missing property 'serverInfo'"},
		{"initialize with a numeric version", "initialize", initBadVersion, none(), "InitializeResult"},
		{"text content", "tools/call", callText, all(), ""},
		{"content item without type", "tools/call", callNoType, none(), "at '/content/0': missing property 'type'"},
		{"call result without content", "tools/call", callNoContent, none(), "CallToolResult"},
		{"audio content", "tools/call", callAudio, since("2025-03-26"), "CallToolResult"},
		{"resource link", "tools/call", callLink, since("2025-06-18"), "CallToolResult"},
		{"structuredContent not an object", "tools/call", callStructArr, map[string]bool{"2024-11-05": true, "2025-03-26": true, "2025-06-18": false, "2025-11-25": false}, "CallToolResult"},
		{"tools list", "tools/list", listOK, all(), ""},
		{"input schema not an object schema", "tools/list", listBadInput, none(), "ListToolsResult"},
		{"tools list without tools", "tools/list", listNoTools, none(), "ListToolsResult"},
		{"numeric cursor", "tools/list", listNumCursor, none(), "ListToolsResult"},
		{"ping", "ping", pingOK, all(), ""},
		{"ping result not an object", "ping", pingArray, none(), "JSONRPC"},
		{"unknown method, any object result", "x/y", pingOK, all(), ""},
		{"error", "tools/call", errOK, all(), ""},
		{"error with null id", "", errNullID, all(), ""},
		{"error without message", "ping", errNoMessage, none(), "error response"},
		{"error with fractional code", "ping", errFloatCode, none(), "error response"},
		{"result with null id", "ping", resultNullID, none(), "response"},
		{"result with boolean id", "ping", resultBoolID, none(), "response"},
		{"wrong jsonrpc", "ping", wrongVersion, none(), "response"},
		{"result and error", "ping", resultAndError, none(), "both result and error"},
		{"neither result nor error", "ping", neither, none(), "neither result nor error"},
		{"not JSON", "ping", `{"jsonrpc":`, none(), "not a JSON value"},
		{"not an object", "ping", `[1]`, none(), "must be a JSON object"},
	} {
		for _, rev := range mcpschema.Revisions {
			t.Run(tc.name+"/"+rev, func(t *testing.T) {
				s := mcpschema.Require(t, rev)
				msg := strings.ReplaceAll(tc.msg, "REV", rev)
				err := s.ValidateResponse(tc.method, []byte(msg))
				if tc.valid[rev] {
					if err != nil {
						t.Fatalf("ValidateResponse(%q, %s) = %v, want nil", tc.method, msg, err)
					}
					return
				}
				if err == nil {
					t.Fatalf("ValidateResponse(%q, %s) = nil, want an error", tc.method, msg)
				}
				if !strings.Contains(err.Error(), tc.errHas) {
					t.Fatalf("error %q does not mention %q", err, tc.errHas)
				}
			})
		}
	}
}

func TestValidateServerMessage(t *testing.T) {
	for _, tc := range []struct {
		name, msg string
		valid     map[string]bool
		errHas    string
	}{
		{"result", callText, all(), ""},
		{"result without method knowledge", callNoType, all(), ""}, // envelope only
		{"error", errOK, all(), ""},
		{"parse error", errNullID, all(), ""},
		{"bad error", errNoMessage, none(), "error response"},
		{"batch", `[` + pingOK + `,` + errOK + `]`, only("2025-03-26"), "batch"},
		{"batch with a parse error", `[` + errNullID + `,` + pingOK + `]`, only("2025-03-26"), "batch"},
		{"batch with a null-id result", `[` + resultNullID + `]`, none(), "batch"},
		{"batch of a non-object", `[1]`, none(), "batch"},
		{"empty batch", `[]`, none(), "batch"},
		{"batch with a bad element", `[` + pingOK + `,` + errNoMessage + `]`, none(), "batch"},
		{"notification", `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`, all(), ""},
		{"custom notification", `{"jsonrpc":"2.0","method":"x/y","params":{"a":1}}`, all(), ""},
		{"progress without token", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}`, none(), "notifications/progress"},
		{"notification with string params", `{"jsonrpc":"2.0","method":"x/y","params":"a"}`, none(), "JSONRPCNotification"},
		{"request", `{"jsonrpc":"2.0","id":9,"method":"ping"}`, all(), ""},
		{"request with boolean id", `{"jsonrpc":"2.0","id":false,"method":"ping"}`, none(), "JSONRPCRequest"},
		{"string", `"x"`, none(), "must be a JSON object or an array"},
		{"two values", pingOK + pingOK, none(), "not a JSON value"},
	} {
		for _, rev := range mcpschema.Revisions {
			t.Run(tc.name+"/"+rev, func(t *testing.T) {
				s := mcpschema.Require(t, rev)
				err := s.ValidateServerMessage([]byte(tc.msg))
				if tc.valid[rev] {
					if err != nil {
						t.Fatalf("ValidateServerMessage(%s) = %v, want nil", tc.msg, err)
					}
					return
				}
				if err == nil {
					t.Fatalf("ValidateServerMessage(%s) = nil, want an error", tc.msg)
				}
				if !strings.Contains(err.Error(), tc.errHas) {
					t.Fatalf("error %q does not mention %q", err, tc.errHas)
				}
			})
		}
	}
}

// step is one message in a Tracker script.
type step struct {
	client bool
	msg    string
	errHas string // "" when the server message must be accepted
}

func cli(msg string) step                { return step{client: true, msg: msg} }
func srv(msg string) step                { return step{msg: msg} }
func bad(msg string, errHas string) step { return step{msg: msg, errHas: errHas} }

const (
	initReq = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"REV","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`
	callReq = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t"}}`
)

func initRes(rev string) string    { return strings.ReplaceAll(initOK, "REV", rev) }
func initReqFor(rev string) string { return strings.ReplaceAll(initReq, "REV", rev) }

func TestTracker(t *testing.T) {
	mcpschema.RequireAll(t)
	for _, tc := range []struct {
		name    string
		steps   []step
		rev     string   // negotiated at the end
		pending []string // at the end
	}{
		{
			name:  "negotiates and checks the call result",
			steps: []step{cli(initReqFor("2025-06-18")), srv(initRes("2025-06-18")), cli(callReq), srv(callText)},
			rev:   "2025-06-18",
		},
		{
			name:  "tool result with an untyped content item",
			steps: []step{cli(initReqFor("2025-06-18")), srv(initRes("2025-06-18")), cli(callReq), bad(callNoType, "CallToolResult")},
			rev:   "2025-06-18",
		},
		{
			name:  "initialize result without serverInfo",
			steps: []step{cli(initReqFor("2025-11-25")), bad(strings.ReplaceAll(initNoInfo, "REV", "2025-11-25"), "InitializeResult")},
			rev:   "2025-11-25",
		},
		{
			name:  "audio is invalid once 2024-11-05 is negotiated",
			steps: []step{cli(initReqFor("2024-11-05")), srv(initRes("2024-11-05")), cli(callReq), bad(callAudio, "CallToolResult")},
			rev:   "2024-11-05",
		},
		{
			name:  "audio is valid once 2025-03-26 is negotiated",
			steps: []step{cli(initReqFor("2025-03-26")), srv(initRes("2025-03-26")), cli(callReq), srv(callAudio)},
			rev:   "2025-03-26",
		},
		{
			name:  "the server picks another revision",
			steps: []step{cli(initReqFor("2030-01-01")), srv(initRes("2025-11-25"))},
			rev:   "2025-11-25",
		},
		{
			name:  "unknown negotiated revision",
			steps: []step{cli(initReqFor("2025-11-25")), bad(initRes("2030-01-01"), `protocolVersion "2030-01-01"`)},
		},
		{
			name:  "before negotiation every revision must accept",
			steps: []step{cli(callReq), bad(callAudio, "revision 2024-11-05")},
		},
		{
			name:  "ping before initialize",
			steps: []step{cli(`{"jsonrpc":"2.0","id":3,"method":"ping"}`), srv(pingOK)},
		},
		{
			name:  "failed initialize negotiates nothing",
			steps: []step{cli(initReqFor("2025-06-18")), srv(`{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"x"}}`)},
		},
		{
			name:    "response to an unknown id",
			steps:   []step{cli(callReq), bad(pingOK, "id 3, which no request in flight has")},
			pending: []string{"2"},
		},
		{
			name:  "answered twice",
			steps: []step{cli(`{"jsonrpc":"2.0","id":3,"method":"ping"}`), srv(pingOK), bad(pingOK, "no request in flight")},
		},
		{
			name:    "string and number ids differ",
			steps:   []step{cli(`{"jsonrpc":"2.0","id":"3","method":"ping"}`), bad(pingOK, "no request in flight")},
			pending: []string{`"3"`},
		},
		{
			name:    "null-id errors match no request",
			steps:   []step{cli(`not json`), srv(errNullID), cli(callReq)},
			pending: []string{"2"},
		},
		{
			name:  "invalid requests are still matched by id",
			steps: []step{cli(`{"jsonrpc":"1.0","id":4,"method":"ping"}`), srv(`{"jsonrpc":"2.0","id":4,"error":{"code":-32600,"message":"x"}}`)},
		},
		{
			name: "batch in 2025-03-26",
			steps: []step{
				cli(initReqFor("2025-03-26")), srv(initRes("2025-03-26")),
				cli(`[{"jsonrpc":"2.0","id":3,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{}},{"jsonrpc":"2.0","method":"notifications/x"}]`),
				srv(`[` + callText + `,` + pingOK + `]`),
			},
			rev: "2025-03-26",
		},
		{
			name: "batch element checked against its method",
			steps: []step{
				cli(initReqFor("2025-03-26")), srv(initRes("2025-03-26")),
				cli(`[{"jsonrpc":"2.0","id":3,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{}}]`),
				bad(`[`+callNoType+`,`+pingOK+`]`, "batch element 0"),
			},
			rev: "2025-03-26", pending: []string{"3"},
		},
		{
			name: "batch in 2025-06-18",
			steps: []step{
				cli(initReqFor("2025-06-18")), srv(initRes("2025-06-18")),
				cli(`{"jsonrpc":"2.0","id":3,"method":"ping"}`),
				bad(`[`+pingOK+`]`, "revision 2025-06-18 has no JSON-RPC batches"),
			},
			rev: "2025-06-18", pending: []string{"3"},
		},
		{
			name:    "batch before initialize",
			steps:   []step{cli(`{"jsonrpc":"2.0","id":3,"method":"ping"}`), bad(`[`+pingOK+`]`, "before a revision was negotiated")},
			pending: []string{"3"},
		},
		{
			name:  "notification from the server",
			steps: []step{cli(initReqFor("2025-11-25")), srv(initRes("2025-11-25")), srv(`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`)},
			rev:   "2025-11-25",
		},
		{
			name:  "server output that is not JSON",
			steps: []step{bad(`stray`, "not a JSON value")},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := mcpschema.NewTracker()
			for i, st := range tc.steps {
				if st.client {
					tr.Client([]byte(st.msg))
					continue
				}
				err := tr.Server([]byte(st.msg))
				switch {
				case st.errHas == "" && err != nil:
					t.Fatalf("step %d: Server(%s) = %v, want nil", i, st.msg, err)
				case st.errHas != "" && err == nil:
					t.Fatalf("step %d: Server(%s) = nil, want an error", i, st.msg)
				case st.errHas != "" && !strings.Contains(err.Error(), st.errHas):
					t.Fatalf("step %d: error %q does not mention %q", i, err, st.errHas)
				}
			}
			if got := tr.Revision(); got != tc.rev {
				t.Errorf("Revision() = %q, want %q", got, tc.rev)
			}
			if got := strings.Join(tr.Pending(), " "); got != strings.Join(tc.pending, " ") {
				t.Errorf("Pending() = %q, want %q", got, tc.pending)
			}
		})
	}
}

func TestTrackerCancelled(t *testing.T) {
	tr := mcpschema.NewTracker()
	tr.Client([]byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`))
	tr.Client([]byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a"}}`))
	for id, want := range map[string]bool{`7`: true, `"a"`: true, `"7"`: false, `8`: false, `a`: false} {
		if got := tr.Cancelled(id); got != want {
			t.Errorf("Cancelled(%s) = %v, want %v", id, got, want)
		}
	}
}
