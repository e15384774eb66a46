package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/bench/internal/largetool"
)

// LargeCall is one call of the large-message benchmarks: a long argument
// (in), a long answer (out) or a structured answer of many items (items).
type LargeCall struct {
	Label string // e.g. "in=64KiB", "items=10000"
	Tool  string
	Args  string
	N     int // bytes of text, or items
	Bytes int // payload bytes, for throughput
	quick []byte
}

// LargeSizes are the text sizes and ItemCounts the item counts of the
// series, small to large, so that growth with size shows.
var (
	LargeSizes = []int{1 << 10, 64 << 10, 1 << 20}
	ItemCounts = []int{100, 1000, 10000}
)

// LargeCalls returns the series of large-message calls.
func LargeCalls() []LargeCall {
	var calls []LargeCall
	for _, n := range LargeSizes {
		want, _ := json.Marshal(largetool.Measure(strings.Repeat("x", n)))
		calls = append(calls, LargeCall{
			Label: "in=" + sizeLabel(n), Tool: largetool.MeasureName,
			Args: `{"text":"` + strings.Repeat("x", n) + `"}`, N: n, Bytes: n, quick: want,
		})
	}
	for _, n := range LargeSizes {
		calls = append(calls, LargeCall{
			Label: "out=" + sizeLabel(n), Tool: largetool.MakeName,
			Args: `{"size":` + strconv.Itoa(n) + `}`, N: n, Bytes: n, quick: []byte(`xxxxxxxx"`),
		})
	}
	for _, n := range ItemCounts {
		last, _ := json.Marshal(largetool.Item{ID: n - 1, Name: "item-" + strconv.Itoa(n-1)})
		calls = append(calls, LargeCall{
			Label: "items=" + strconv.Itoa(n), Tool: largetool.ItemsName,
			Args: `{"count":` + strconv.Itoa(n) + `}`, N: n, quick: last,
		})
	}
	return calls
}

func sizeLabel(n int) string {
	if n >= 1<<20 {
		return strconv.Itoa(n>>20) + "MiB"
	}
	return strconv.Itoa(n>>10) + "KiB"
}

// QuickCheck is the cheap per-call check of an answer line: its id, a
// length the answer must reach, and bytes it must hold.
func (c LargeCall) QuickCheck(line []byte, id int64) error {
	got, ok := FindID(line)
	if !ok || got != id {
		return fmt.Errorf("%s: want id %d in %.200q", c.Label, id, line)
	}
	if c.Tool == largetool.MakeName && len(line) < c.N || !bytes.Contains(line, c.quick) {
		return fmt.Errorf("%s: unexpected answer %.200q", c.Label, line)
	}
	return nil
}

// Check checks an answer in full.
func (c LargeCall) Check(m *Message) error {
	r, err := DecodeCallResult(m)
	if err != nil {
		return fmt.Errorf("%s: %v", c.Label, err)
	}
	if r.IsError || len(r.Content) == 0 || r.Content[0].Type != "text" {
		return fmt.Errorf("%s: want a text result, got %.300s", c.Label, m.Result)
	}
	text := r.Content[0].Text
	switch c.Tool {
	case largetool.MeasureName:
		if want := strconv.Itoa(c.N) + " bytes"; text != want {
			return fmt.Errorf("%s: answered %q, want %q", c.Label, text, want)
		}
	case largetool.MakeName:
		if len(text) != c.N || strings.Trim(text, "x") != "" {
			return fmt.Errorf("%s: answered %d bytes, want %d of 'x'", c.Label, len(text), c.N)
		}
	case largetool.ItemsName:
		var items largetool.Items
		if err := json.Unmarshal(r.StructuredContent, &items); err != nil {
			return fmt.Errorf("%s: structuredContent: %v", c.Label, err)
		}
		if len(items.Items) != c.N {
			return fmt.Errorf("%s: %d items, want %d", c.Label, len(items.Items), c.N)
		}
		for i, it := range items.Items {
			if it.ID != i || it.Name != "item-"+strconv.Itoa(i) {
				return fmt.Errorf("%s: item %d is %+v", c.Label, i, it)
			}
		}
		var fromText largetool.Items
		if err := json.Unmarshal([]byte(text), &fromText); err != nil || len(fromText.Items) != c.N {
			return fmt.Errorf("%s: the text block is not the structured content as JSON (%v)", c.Label, err)
		}
	}
	return nil
}
