// Package spell measures how far a mistyped word is from the words meant,
// for the "did you mean" hints of the generator and the command.
package spell

// Distance is the Levenshtein distance of a and b, in bytes: the number of
// bytes inserted, deleted or replaced to turn a into b.
func Distance(a, b string) int { return edits(a, b, false) }

// Edits is the number of edits that turn a into b, in bytes, where an edit
// inserts, deletes or replaces a byte or swaps two adjacent ones (the
// optimal string alignment distance): readonyl is one edit from readonly,
// the commonest typo, where Distance counts two.
func Edits(a, b string) int { return edits(a, b, true) }

// edits is Distance, or Edits with swaps.
func edits(a, b string, swaps bool) int {
	// d[i][j] is the distance of a[:i] and b[:j]; three rows suffice.
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if swaps && i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
