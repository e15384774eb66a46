package runtime

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestSpliceResult checks that a result completed by splicing says what
// the general path, decoding and encoding it, says, member for member; and
// that what the splice must not take goes to the general path.
func TestSpliceResult(t *testing.T) {
	srv := NewServer("srv", "1.0", WithTitle(`A "quoted" <server>`), WithCacheHint(90*time.Second, CachePublic))
	for _, tc := range []struct {
		name, result string
		cache        bool
		spliced      bool // false: the general path must answer
	}{
		{"empty", `{}`, false, true},
		{"empty, spaced", " { \n } \n", false, true},
		{"members", `{"content":[{"type":"text","text":"}{\"_meta\":1"}],"isError":true}`, false, true},
		{"cache hint", `{"tools":[]}`, true, true},
		{"empty with cache hint", `{}`, true, true},
		{"own cache hint", `{"contents":[],"ttlMs":5,"cacheScope":"public"}`, true, true},
		{"own ttl only", `{"contents":[],"ttlMs":5}`, true, true},
		{"empty _meta", `{"_meta":{},"a":1}`, false, true},
		{"_meta last", `{"a":[1,{"_meta":2}],"_meta":{"k":"v"}}`, false, true},
		{"_meta spaced", `{ "_meta" : { "k" : [ 1 , 2 ] } , "b" : null }`, true, true},
		{"escaped key", `{"_m\u0065ta":{"k":1}}`, false, true},
		{"unicode", `{"text":"é\u2028<&>"}`, false, true},

		{"not an object", `[1,2]`, false, false},
		{"a string", `"x"`, false, false},
		{"malformed", `{"a":}`, false, false},
		{"unterminated", `{"a":1`, false, false},
		{"trailing", `{"a":1} x`, false, false},
		{"_meta null", `{"_meta":null}`, false, false},
		{"_meta twice", `{"_meta":{},"_meta":{"a":1}}`, false, false},
		{"own resultType", `{"resultType":"other"}`, false, false},
		{"own serverInfo", `{"_meta":{"io.modelcontextprotocol/serverInfo":{}}}`, false, false},
		{"scope without ttl", `{"cacheScope":"public"}`, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prefix := []byte("prefix:")
			got, ok := srv.spliceResult(bytes.Clone(prefix), []byte(tc.result), "complete", tc.cache)
			if ok != tc.spliced {
				t.Fatalf("spliced %v, want %v: %s", ok, tc.spliced, got)
			}
			if !bytes.HasPrefix(got, prefix) {
				t.Fatalf("dst lost its content: %s", got)
			}
			if !ok {
				if len(got) != len(prefix) {
					t.Errorf("a result not spliced changed dst: %s", got)
				}
				return
			}
			got = got[len(prefix):]
			want := srv.completeDecoded([]byte(tc.result), "complete", tc.cache)
			var g, w map[string]any
			if err := json.Unmarshal(got, &g); err != nil {
				t.Fatalf("spliced %s: %v", got, err)
			}
			if err := json.Unmarshal(want, &w); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(g, w) {
				t.Errorf("spliced %s\nwant     %s", got, want)
			}
			if n := strings.Count(string(got), `"resultType"`); n != 1 {
				t.Errorf("resultType %d times in %s", n, got)
			}
		})
	}
}

// TestCallResult2026 checks that the result of a call of revision
// 2026-07-28, written complete by its encoder, says what the general path
// says, that the reply will send it as it is, and that it is written into
// a buffer allocated once.
func TestCallResult2026(t *testing.T) {
	srv := NewServer("srv", "1.0", WithTitle("Server"))
	for _, res := range []*CallToolResult{
		TextResult("hello"),
		ErrorResult(`bad "input"`),
		StructuredResult([]byte(`{"n":1,"s":"<\"q\">"}`)),
		ContentResult(nil),
		TextResult(strings.Repeat("x", 1<<20)),
	} {
		s := &Session{srv: srv, rev: rev20260728}
		q := &request26{s: s, method: methodToolsCall}
		c := &callContext{s: s, r: q}
		got := s.appendCallResult(c, nil, res)
		if !q.written {
			t.Errorf("%.80s: not marked as written complete", got)
		}
		if limit := res.sizeHint() + srv.members26Size() + 8<<10; cap(got) > limit {
			t.Errorf("%.80s: written into %d bytes of buffer, more than %d: it grew on the way", got, cap(got), limit)
		}
		want := srv.completeDecoded(res.appendJSON(nil, rev20260728), "complete", false)
		var g, w map[string]any
		if err := json.Unmarshal(got, &g); err != nil {
			t.Fatalf("%.80s: %v", got, err)
		}
		if err := json.Unmarshal(want, &w); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("written %.200s\nwant    %.200s", got, want)
		}

		older := &Session{srv: srv, rev: rev20251125}
		if got, want := older.appendCallResult(&callContext{s: older, r: direct{older}}, nil, res), res.appendJSON(nil, rev20251125); !bytes.Equal(got, want) {
			t.Errorf("revision 2025-11-25: %.80s, want %.80s", got, want)
		}
	}
}

// TestSpliceResponse checks the envelope of a response completed by
// splicing: a result is completed, an unknown resource becomes invalid
// params, another error goes out as it is, and what the runtime did not
// write takes the general path.
func TestSpliceResponse(t *testing.T) {
	srv := NewServer("srv", "1.0")
	s := &Session{srv: srv}
	for _, tc := range []struct {
		name, method, id, msg string
		want                  string // "" when the general path must answer
	}{
		{"result", methodToolsCall, `7`, `{"jsonrpc":"2.0","id":7,"result":{"content":[]}}`,
			`{"jsonrpc":"2.0","id":7,"result":{"content":[],"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"srv","version":"1.0"}}}}`},
		{"cacheable", methodResourcesRead, `"r"`, `{"jsonrpc":"2.0","id":"r","result":{"contents":[]}}`,
			`{"jsonrpc":"2.0","id":"r","result":{"contents":[],"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"srv","version":"1.0"}},"ttlMs":0,"cacheScope":"private"}}`},
		{"merged _meta", methodPromptsGet, `1`, `{"jsonrpc":"2.0","id":1,"result":{"_meta":{"k":1},"messages":[]}}`,
			`{"jsonrpc":"2.0","id":1,"result":{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"srv","version":"1.0"},"k":1},"messages":[],"resultType":"complete"}}`},
		{"unknown resource", methodResourcesRead, `2`, `{"jsonrpc":"2.0","id":2,"error":{"code":-32002,"message":"Resource not found","data":{"uri":"x"}}}`,
			`{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Resource not found","data":{"uri":"x"}}}`},
		{"other error", methodToolsCall, `3`, `{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"Internal error"}}`,
			`{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"Internal error"}}`},
		{"longer code", methodToolsCall, `3`, `{"jsonrpc":"2.0","id":3,"error":{"code":-320021,"message":"x"}}`,
			`{"jsonrpc":"2.0","id":3,"error":{"code":-320021,"message":"x"}}`},
		{"escaped string id", methodToolsCall, `"a\"b,"`, `{"jsonrpc":"2.0","id":"a\"b,","result":{}}`,
			`{"jsonrpc":"2.0","id":"a\"b,","result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"srv","version":"1.0"}}}}`},
		{"null id", methodToolsCall, `null`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`, ""},
		{"no id", methodToolsCall, ``, `{"jsonrpc":"2.0","id":,"result":{}}`, ""},
		{"malformed result", methodToolsCall, `5`, `{"jsonrpc":"2.0","id":5,"result":{"a":}}`, ""},
		{"other envelope", methodToolsCall, `6`, `{"id":6,"jsonrpc":"2.0","result":{}}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := &request26{s: s, method: tc.method}
			if id, _, ok := responseID([]byte(tc.msg)); ok && string(id) != tc.id {
				t.Errorf("id %s, want %s", id, tc.id)
			}
			got, ok := q.spliceResponse([]byte("x"), []byte(tc.msg))
			if tc.want == "" {
				if ok {
					t.Errorf("spliced %s, want the general path", got)
				}
				return
			}
			if !ok || string(got) != "x"+tc.want {
				t.Errorf("got %s (%v)\nwant x%s", got, ok, tc.want)
			}
		})
	}
}
