package runtime

import (
	"math"
	"strings"
	"testing"
	"unsafe"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

func encodeItems(n int) *mcpimpl.Encoder {
	enc := new(mcpimpl.Encoder)
	enc.Open()
	enc.Key(`"items":`)
	enc.OpenArray()
	for i := range n {
		enc.Elem()
		enc.Open()
		enc.Key(`"id":`)
		enc.Int(int64(i))
		enc.Key(`"name":`)
		enc.String(`item "` + strings.Repeat(`\`, i%3) + `"`)
		enc.Close()
	}
	enc.CloseArray()
	enc.Close()
	return enc
}

// TestEncodedResult checks that an encoder's JSON becomes the structured
// content and the text block, that its error is the result's error, and
// that only structured content a generated encoder wrote, unchanged, goes
// out without being checked.
func TestEncodedResult(t *testing.T) {
	res, err := EncodedResult(encodeItems(3).JSON())
	if err != nil {
		t.Fatal(err)
	}
	want := `{"items":[{"id":0,"name":"item \"\""},{"id":1,"name":"item \"\\\""},{"id":2,"name":"item \"\\\\\""}]}`
	if string(res.StructuredContent) != want {
		t.Errorf("structured content %s, want %s", res.StructuredContent, want)
	}
	if text := res.Content[0].(*TextContent).Text; text != want {
		t.Errorf("text block %s, want %s", text, want)
	}
	nan := new(mcpimpl.Encoder)
	nan.Open()
	nan.Key(`"x":`)
	nan.Float(math.NaN(), 64)
	nan.Close()
	if _, err := EncodedResult(nan.JSON()); err == nil || !strings.Contains(err.Error(), "not a JSON number") {
		t.Errorf("EncodedResult of an encoder that failed: error %v, want the encoder's", err)
	}

	replaced, _ := EncodedResult(encodeItems(1).JSON())
	replaced.StructuredContent = []byte(`{"a":`)
	truncated, _ := EncodedResult(encodeItems(1).JSON())
	truncated.StructuredContent = truncated.StructuredContent[:5]
	for _, c := range []struct {
		name string
		res  *CallToolResult
		want bool
	}{
		{"encoded", res, true},
		{"encoded, then replaced by invalid JSON", replaced, false},
		{"encoded, then cut short", truncated, false},
		{"StructuredResult of valid JSON", StructuredResult([]byte(`{"a":1}`)), true},
		{"StructuredResult of invalid JSON", StructuredResult([]byte(`{"a":}`)), false},
	} {
		if got := c.res.validStructured(); got != c.want {
			t.Errorf("%s: validStructured() = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestSizeHint checks that appendJSON writes a result into a buffer
// allocated once: the hint covers what it writes, escapes of a structured
// result's text block included, so a buffer of the hint's size is not
// replaced.
func TestSizeHint(t *testing.T) {
	structured, err := EncodedResult(encodeItems(2000).JSON())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		res  *CallToolResult
	}{
		{"text", TextResult(strings.Repeat("x", 1<<20))},
		{"error", ErrorResult("no such file")},
		{"structured", structured},
		{"structured, escapes", StructuredResult([]byte(`{"a":"\"\\\"\\\\"}`))},
		{"two texts", ContentResult([]Content{TextContent{Text: "a"}, &TextContent{Text: strings.Repeat("y", 5000)}})},
	} {
		hint := c.res.sizeHint()
		buf := make([]byte, 0, hint)
		out := c.res.appendJSON(buf, rev20250618)
		if len(out) > hint || unsafe.SliceData(out) != unsafe.SliceData(buf) {
			t.Errorf("%s: wrote %d bytes into a buffer of the hint's %d, moved: %v", c.name, len(out), hint, unsafe.SliceData(out) != unsafe.SliceData(buf))
		}
	}
}
