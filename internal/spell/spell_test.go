package spell

import "testing"

// TestDistances holds Distance and Edits to the same table: they differ
// only in a swap of two adjacent bytes, two edits for Distance and one for
// Edits.
func TestDistances(t *testing.T) {
	for _, tc := range []struct {
		a, b            string
		distance, edits int
	}{
		{"", "", 0, 0},
		{"", "uri", 3, 3},
		{"uri", "", 3, 3},
		{"readonly", "readonly", 0, 0},
		{"readonyl", "readonly", 2, 1}, // a swap
		{"titel", "title", 2, 1},
		{"ab", "ba", 2, 1},
		{"abc", "ca", 3, 3}, // no edit of a swapped pair again
		{"url", "uri", 1, 1},
		{"inpsect", "inspect", 2, 1},
		{"doc", "docs", 1, 1},
		{"nope", "name", 2, 2},
		{"kitten", "sitting", 3, 3},
		{"descrptoin", "description", 3, 2},
	} {
		if got := Distance(tc.a, tc.b); got != tc.distance {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.distance)
		}
		if got := Edits(tc.a, tc.b); got != tc.edits {
			t.Errorf("Edits(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.edits)
		}
	}
}
