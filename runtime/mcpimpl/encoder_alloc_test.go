package mcpimpl_test

import (
	"strconv"
	"testing"

	rt "github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

type allocItem struct {
	ID   int
	Name string
}

// TestEncoderAllocsPerItem checks that encoding a list of {id, name}
// items, as generated code does, allocates only to grow the buffer: a few
// times in all, however many items there are, never once per item.
func TestEncoderAllocsPerItem(t *testing.T) {
	for _, n := range []int{100, 10000} {
		items := make([]allocItem, n)
		for i := range items {
			items[i] = allocItem{ID: i, Name: "item-" + strconv.Itoa(i)}
		}
		allocs := testing.AllocsPerRun(3, func() {
			enc := new(rt.Encoder)
			enc.Open()
			enc.Key(`"items":`)
			enc.OpenArray()
			for i := range items {
				enc.Elem()
				enc.Open()
				enc.Key(`"id":`)
				enc.Int(int64(items[i].ID))
				enc.Key(`"name":`)
				enc.String(items[i].Name)
				enc.Close()
			}
			enc.CloseArray()
			enc.Close()
			if _, err := enc.JSON(); err != nil {
				t.Fatal(err)
			}
		})
		if allocs > 20 {
			t.Errorf("%d items: %v allocations, want a few for the buffer's growth only", n, allocs)
		}
		t.Logf("%d items: %v allocations", n, allocs)
	}
}
