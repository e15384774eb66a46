package mcpimpl_test

import (
	"strconv"
	"strings"
	"testing"

	rt "github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// largeStrings are the texts of the string benchmarks: plain ASCII, the
// JSON of a list of items (a quote every few bytes, as the text block of a
// structured result holds), and prose with non-ASCII letters.
func largeStrings() []struct {
	name string
	s    string
} {
	var items strings.Builder
	items.WriteString(`{"items":[`)
	for i := 0; items.Len() < 1<<20; i++ {
		if i > 0 {
			items.WriteByte(',')
		}
		items.WriteString(`{"id":` + strconv.Itoa(i) + `,"name":"item-` + strconv.Itoa(i) + `"}`)
	}
	items.WriteString(`]}`)
	return []struct {
		name string
		s    string
	}{
		{"plain", strings.Repeat("x", 1<<20)},
		{"json", items.String()},
		{"prose", strings.Repeat("Grüße aus Köln, naïve café — ", (1<<20)/32)},
	}
}

// BenchmarkAppendString writes 1 MiB strings as JSON strings.
func BenchmarkAppendString(b *testing.B) {
	for _, c := range largeStrings() {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.s)))
			b.ReportAllocs()
			var dst []byte
			for b.Loop() {
				dst = rt.AppendString(dst[:0], c.s)
			}
		})
	}
}

// BenchmarkDecodeString reads 1 MiB JSON strings.
func BenchmarkDecodeString(b *testing.B) {
	for _, c := range largeStrings() {
		doc := rt.AppendString(nil, c.s)
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			d := rt.NewDecoder(nil, "")
			for b.Loop() {
				d.Reset(doc, "")
				if _, ok := d.String(); !ok || d.Done() != nil {
					b.Fatal("bad string")
				}
			}
		})
	}
}
