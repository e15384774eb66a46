package fuzzdecode

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// FuzzDecodeKinds decodes arbitrary arguments with the generated decoder
// of Kinds: it never panics, a refusal says what is wrong, and what it
// accepts encoding/json accepts too, with the same value. The seeds are
// in testdata/fuzz/FuzzDecodeKinds.
func FuzzDecodeKinds(f *testing.F) {
	f.Add([]byte(`{"bool":true}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var got Kinds
		d := mcpimpl.NewDecoder(data, "arguments")
		mcpDecodeKinds(d, &got)
		if err := d.Err(); err != nil {
			if msg := err.Error(); msg == "" || strings.Contains(msg, ".go:") || strings.Contains(msg, "goroutine ") {
				t.Fatalf("refusal of %q: %q", data, msg)
			}
			return
		}
		var want Kinds
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatalf("the generated decoder accepts %q, encoding/json refuses it: %v", data, err)
		}
		g, err1 := json.Marshal(got)
		w, err2 := json.Marshal(want)
		if err1 != nil || err2 != nil || !bytes.Equal(g, w) {
			t.Fatalf("%q decodes to\n%s\nencoding/json:\n%s (%v, %v)", data, g, w, err1, err2)
		}
	})
}
