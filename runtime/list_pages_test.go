package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	goruntime "runtime"
	"testing"
)

// A list's pages are built once per revision; each must be allocated at
// its size, not grown by append, which for a page of a hundred tools of
// about 900 bytes each made some 25 allocations and five times the page in
// garbage.
func TestListPagesAllocateOnce(t *testing.T) {
	const n, size = 1000, 100
	s := NewServer("t", "0", WithPageSize(size))
	for i := range n {
		s.AddTool(Tool{
			Name:        fmt.Sprintf("tool_%04d", i),
			Title:       "A \"tool\"", // escaped: longer than its text
			Description: fmt.Sprintf("Searches the items of collection %d.", i),
			InputSchema: json.RawMessage(fmt.Sprintf(`{"type":"object","properties":{"query":{"type":"string","minLength":1,"description":"The text to look for in collection %d, %s."}},"required":["query"]}`, i, bytes.Repeat([]byte("x"), 700))),
			Annotations: &ToolAnnotations{ReadOnlyHint: Bool(true), OpenWorldHint: Bool(false)},
			Handler: func(context.Context, *ToolRequest) (*CallToolResult, error) {
				return TextResult(""), nil
			},
		})
		s.AddPrompt(Prompt{
			Name:        fmt.Sprintf("prompt_%04d", i),
			Description: string(bytes.Repeat([]byte("y"), 800)),
			Handler: func(context.Context, *PromptRequest) (*GetPromptResult, error) {
				return &GetPromptResult{}, nil
			},
		})
	}
	for _, tc := range []struct {
		name      string
		build     func() [][]byte
		maxAllocs float64 // per page: the page, 3 for its cursor
		maxBytes  float64 // allocated, for each byte of the pages
	}{
		// Each page allocated once, at about its size.
		{"tools", func() [][]byte {
			s.lists.reset()
			p, _ := s.toolPages(rev20250618)
			return p
		}, 4*n/size + 8, 1.5},
		// Pages are built in a scratch buffer that grows once, to the
		// longest page, and copied out at their size.
		{"prompts", func() [][]byte {
			s.prims.promptPages.reset()
			p, _ := s.pages(&s.prims.promptPages, rev20250618, s.promptPage)
			return p
		}, 4*n/size + 8 + 30, 2.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pages := tc.build()
			if len(pages) != n/size {
				t.Fatalf("%d pages, want %d", len(pages), n/size)
			}
			for i, p := range pages {
				if !json.Valid(p) {
					t.Fatalf("page %d is not JSON: %.200s", i, p)
				}
			}
			total := 0
			for _, p := range pages {
				total += len(p)
			}
			if got := testing.AllocsPerRun(10, func() { tc.build() }); got > tc.maxAllocs {
				t.Errorf("building %d pages allocates %.0f times, want at most %.0f", len(pages), got, tc.maxAllocs)
			}
			var before, after goruntime.MemStats
			goruntime.ReadMemStats(&before)
			tc.build()
			goruntime.ReadMemStats(&after)
			if got := float64(after.TotalAlloc-before.TotalAlloc) / float64(total); got > tc.maxBytes {
				t.Errorf("building %d pages of %d bytes in all allocates %.1f bytes for each, want at most %.1f", len(pages), total, got, tc.maxBytes)
			}
		})
	}
}
