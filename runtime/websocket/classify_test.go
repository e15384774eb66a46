package websocket

import "testing"

func TestClassify(t *testing.T) {
	tests := []struct {
		name string
		msg  string
		kind int
		id   string
	}{
		{"request", `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`, kindRequest, "7"},
		{"request with a string id", `{"jsonrpc":"2.0","method":"ping","id":"a b"}`, kindRequest, `"a b"`},
		{"request with a null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, kindRequest, ""},
		{"notification", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`, kindNotification, ""},
		{"result", `{"jsonrpc":"2.0","id":1,"result":{}}`, kindResponse, ""},
		{"error", `{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"no"}}`, kindResponse, ""},
		{"batch with a request", `[{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":2,"method":"ping"}]`, kindRequest, ""},
		{"batch of notifications and responses", `[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","method":"n"}]`, kindNotification, ""},
		{"batch of responses", `[{"jsonrpc":"2.0","id":1,"result":{}}]`, kindResponse, ""},
		{"empty batch", `[]`, kindRequest, ""},
		{"not JSON", `{"jsonrpc":"2.0","id":1,"method":`, kindRequest, ""},
		{"not an object", `"ping"`, kindRequest, ""},
		{"blank", "  ", kindResponse, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kind, id := classify([]byte(tt.msg))
			if kind != tt.kind || string(id) != tt.id {
				t.Errorf("classify(%s) = %d, %q; want %d, %q", tt.msg, kind, id, tt.kind, tt.id)
			}
		})
	}
}
