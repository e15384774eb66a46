package runtime

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	goruntime "runtime"
	"strings"
	"testing"
	"time"
)

// listServer has n tools with titles, output schemas and annotations, and
// n prompts.
func listServer(n int, opts ...Option) *Server {
	s := NewServer("lists", "1.0.0", opts...)
	for i := range n {
		s.AddTool(Tool{
			Name:         fmt.Sprintf("tool_%03d", i),
			Title:        fmt.Sprintf("Tool <%d> & \"more\"", i),
			Description:  strings.Repeat("Finds things. ", 20),
			InputSchema:  json.RawMessage(`{"type":"object","properties":{"q":{"type":"string","description":"What to find."}},"required":["q"]}`),
			OutputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`),
			Annotations:  &ToolAnnotations{ReadOnlyHint: Bool(true)},
			Handler: func(context.Context, *ToolRequest) (*CallToolResult, error) {
				return TextResult(""), nil
			},
		})
		s.AddPrompt(Prompt{
			Name:        fmt.Sprintf("prompt_%03d", i),
			Description: "Asks.",
			Handler: func(context.Context, *PromptRequest) (*GetPromptResult, error) {
				return &GetPromptResult{}, nil
			},
		})
	}
	return s
}

// The pages of revision 2026-07-28 are built complete; each must be what
// completing the same page of revision 2025-11-25 gives, as every other
// 2026-07-28 result is completed (request26.rewrite).
func TestListPages2026(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []Option
	}{
		{"defaults", nil},
		{"cache hint and title", []Option{WithCacheHint(90*time.Second, CachePublic), WithTitle("Lists <&>")}},
		{"one page", []Option{WithPageSize(0)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := listServer(7, append([]Option{WithPageSize(3)}, tc.opts...)...)
			for _, l := range []struct {
				what  string
				pages func(rev revision) [][]byte
			}{
				{"tools", func(rev revision) [][]byte { p, _ := s.toolPages(rev); return p }},
				{"prompts", func(rev revision) [][]byte {
					p, _ := s.pages(&s.prims.promptPages, rev, s.promptPage)
					return p
				}},
			} {
				older, newer := l.pages(rev20251125), l.pages(rev20260728)
				if len(newer) != len(older) {
					t.Fatalf("%s: %d pages, want %d", l.what, len(newer), len(older))
				}
				for i := range newer {
					var got, want any
					if err := json.Unmarshal(newer[i], &got); err != nil {
						t.Fatalf("%s page %d: %v\n%s", l.what, i, err, newer[i])
					}
					json.Unmarshal(s.complete26(older[i], "complete", true), &want)
					if !reflect.DeepEqual(got, want) {
						t.Errorf("%s page %d:\n%s\nwant the equivalent of\n%s", l.what, i, newer[i], s.complete26(older[i], "complete", true))
					}
				}
			}
		})
	}
}

// A 2026-07-28 tools/list is answered with the page as cached: it was
// decoded and encoded again for every request, some four times the page
// in allocations.
func TestListTools2026AsCached(t *testing.T) {
	s := listServer(60, WithPageSize(50))
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.Serve(ctx, inR, outW)
	defer inW.Close()
	out := bufio.NewReaderSize(outR, 1<<20)
	req := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}` + "\n"
	roundTrip := func() []byte {
		t.Helper()
		if _, err := io.WriteString(inW, req); err != nil {
			t.Fatal(err)
		}
		line, err := out.ReadSlice('\n')
		if err != nil {
			t.Fatal(err)
		}
		return line
	}
	first := roundTrip()
	var res struct {
		Result struct {
			ResultType string `json:"resultType"`
			NextCursor string `json:"nextCursor"`
			Tools      []any  `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal(first, &res); err != nil || res.Result.ResultType != "complete" || len(res.Result.Tools) != 50 || res.Result.NextCursor == "" {
		t.Fatalf("tools/list answered %.300s (%v)", first, err)
	}
	// The least of five runs: under the race detector sync.Pool drops
	// what it is given at random, and a run that lost the pooled buffers
	// allocates them again. A page encoded anew for each request would
	// show in every run.
	page := uint64(len(first))
	least := uint64(1 << 62)
	for range 5 {
		var before, after goruntime.MemStats
		goruntime.ReadMemStats(&before)
		const n = 20
		for range n {
			roundTrip()
		}
		goruntime.ReadMemStats(&after)
		least = min(least, (after.TotalAlloc-before.TotalAlloc)/n)
	}
	if least > page/2 {
		t.Errorf("a tools/list of a page of %d bytes allocates %d bytes", page, least)
	}
}
