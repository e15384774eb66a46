package runtime

import (
	"sort"
	"testing"
)

// TestCallSet checks that calls are found, counted, listed and removed by
// their ids, integer or not, and that ids equal as text but not as JSON
// (1 and "1") are different requests.
func TestCallSet(t *testing.T) {
	ids := []string{`1`, `"1"`, `-5`, `0`, `1.5`, `1e3`, `"abc"`, `123456789012345678`, `1234567890123456789`}
	var cs callSet
	calls := map[string]*callContext{}
	for i, id := range ids {
		k := keyOf([]byte(id))
		if cs.get(k) != nil {
			t.Fatalf("%s found before it was added", id)
		}
		c := &callContext{key: k}
		calls[id] = c
		cs.put(k, c)
		if got := cs.len(); got != i+1 {
			t.Fatalf("after adding %s: %d calls, want %d", id, got, i+1)
		}
	}
	for _, id := range ids {
		if got := cs.get(keyOf([]byte(id))); got != calls[id] {
			t.Errorf("%s: found %p, want %p", id, got, calls[id])
		}
	}
	var listed []string
	cs.each(func(c *callContext) {
		for id, want := range calls {
			if c == want {
				listed = append(listed, id)
			}
		}
	})
	sort.Strings(listed)
	want := append([]string(nil), ids...)
	sort.Strings(want)
	if len(listed) != len(want) {
		t.Fatalf("each listed %v, want %v", listed, want)
	}
	for i := range want {
		if listed[i] != want[i] {
			t.Fatalf("each listed %v, want %v", listed, want)
		}
	}
	for i, id := range ids {
		cs.remove(keyOf([]byte(id)))
		if cs.get(keyOf([]byte(id))) != nil {
			t.Errorf("%s found after it was removed", id)
		}
		if got := cs.len(); got != len(ids)-i-1 {
			t.Errorf("after removing %s: %d calls, want %d", id, got, len(ids)-i-1)
		}
	}
}
