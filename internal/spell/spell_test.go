package spell

import "testing"

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "uri", 3},
		{"uri", "", 3},
		{"readonly", "readonly", 0},
		{"readonyl", "readonly", 2}, // a swap is two edits
		{"url", "uri", 1},
		{"inpsect", "inspect", 2},
		{"doc", "docs", 1},
		{"kitten", "sitting", 3},
	} {
		if got := Distance(tc.a, tc.b); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
