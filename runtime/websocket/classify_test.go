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
		{"batch with a non-object", `[{"jsonrpc":"2.0","id":1,"result":{}},1]`, kindRequest, ""},
		{"trailing text", `{"jsonrpc":"2.0","method":"n"} x`, kindRequest, ""},
		{"escaped key", `{"jsonrpc":"2.0","\u0069d":3,"method":"ping"}`, kindRequest, "3"},
		{"blank", "  ", kindResponse, ""},
	}
	var c classifier // one for all, as a connection has
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kind, id := c.classify([]byte(tt.msg))
			if kind != tt.kind || string(id) != tt.id {
				t.Errorf("classify(%s) = %d, %q; want %d, %q", tt.msg, kind, id, tt.kind, tt.id)
			}
		})
	}
}

// BenchmarkClassify: what the rate limit adds to reading a request.
func BenchmarkClassify(b *testing.B) {
	msg := []byte(`{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a short argument"}}}`)
	var c classifier
	b.ReportAllocs()
	for b.Loop() {
		c.classify(msg)
	}
}
