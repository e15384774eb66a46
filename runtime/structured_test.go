package runtime_test

import (
	"testing"

	rt "github.com/mcpgen/mcpgen/runtime"
)

// TestStructuredResultSharesBytes checks that StructuredResult sends raw
// both as structured content and as the text block, in one allocation:
// the text shares raw's bytes rather than copying them, which is what
// generated tools rely on for large results.
func TestStructuredResultSharesBytes(t *testing.T) {
	for _, raw := range []string{`{}`, `{"k":["v",1]}`, `{"s":"é\n"}`} {
		r := rt.StructuredResult([]byte(raw))
		if string(r.StructuredContent) != raw {
			t.Errorf("structuredContent %s, want %s", r.StructuredContent, raw)
		}
		if len(r.Content) != 1 {
			t.Fatalf("%d content blocks, want 1", len(r.Content))
		}
		if text, ok := r.Content[0].(*rt.TextContent); !ok || text.Text != raw {
			t.Errorf("text block %#v, want the text %s", r.Content[0], raw)
		}
	}
	raw := []byte(`{"k":1}`)
	if n := testing.AllocsPerRun(100, func() { _ = rt.StructuredResult(raw) }); n != 1 {
		t.Errorf("StructuredResult allocates %v times, want 1", n)
	}
}
