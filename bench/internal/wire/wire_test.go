package wire

import "testing"

func TestFindID(t *testing.T) {
	for _, tc := range []struct {
		line string
		id   int64
		ok   bool
	}{
		{`{"jsonrpc":"2.0","id":42,"result":{}}`, 42, true},
		{`{"result":{},"id" : 7 ,"jsonrpc":"2.0"}`, 7, true},
		{`{"jsonrpc":"2.0","id":"42","result":{}}`, 0, false},
		{`{"jsonrpc":"2.0","id":4.5,"result":{}}`, 0, false},
		{`{"jsonrpc":"2.0","id":12345678901234567890123,"result":{}}`, 0, false},
		{`{"jsonrpc":"2.0","method":"x"}`, 0, false},
	} {
		id, ok := FindID([]byte(tc.line))
		if id != tc.id || ok != tc.ok {
			t.Errorf("FindID(%s) = %d, %v; want %d, %v", tc.line, id, ok, tc.id, tc.ok)
		}
	}
}

func TestFastMatch(t *testing.T) {
	c := Calls[0]
	ok := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":` + string(c.WantJSON) + `}]}}`
	for _, tc := range []struct {
		line string
		want bool
	}{
		{ok, true},
		{`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":` + string(c.WantJSON) + `}],"isError":false}}`, true},
		{`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":` + string(c.WantJSON) + `}],"isError": true}}`, false},
		{`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"other"}]}}`, false},
		{ok[:len(ok)-1], false}, // not well-formed
	} {
		if got := FastMatch([]byte(tc.line), c.WantJSON); got != tc.want {
			t.Errorf("FastMatch(%s) = %v, want %v", tc.line, got, tc.want)
		}
	}
}
