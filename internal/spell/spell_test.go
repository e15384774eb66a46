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

func TestEdits(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "uri", 3},
		{"uri", "", 3},
		{"readonly", "readonly", 0},
		{"readonyl", "readonly", 1}, // a swap is one edit
		{"titel", "title", 1},
		{"ab", "ba", 1},
		{"abc", "ca", 3}, // no edit of a swapped pair again
		{"url", "uri", 1},
		{"nope", "name", 2},
		{"kitten", "sitting", 3},
		{"descrptoin", "description", 2},
	} {
		if got := Edits(tc.a, tc.b); got != tc.want {
			t.Errorf("Edits(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
