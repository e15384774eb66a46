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

// TestCallSetOutsideMaps checks that the call kept outside the maps and
// those in them are found, counted and removed alike, whichever ends
// first.
func TestCallSetOutsideMaps(t *testing.T) {
	var cs callSet
	calls := map[int64]*callContext{}
	has := func(ids ...int64) {
		t.Helper()
		if got := cs.len(); got != len(ids) {
			t.Errorf("%d calls, want %d (%v)", got, len(ids), ids)
		}
		listed := map[*callContext]bool{}
		cs.each(func(c *callContext) { listed[c] = true })
		for _, id := range ids {
			if c := cs.get(requestKey{n: id}); c != calls[id] || c == nil {
				t.Errorf("%d: found %p, want %p", id, c, calls[id])
			}
			if !listed[calls[id]] {
				t.Errorf("each did not list %d", id)
			}
		}
		if len(listed) != len(ids) {
			t.Errorf("each listed %d calls, want %d", len(listed), len(ids))
		}
	}
	add := func(id int64) {
		calls[id] = &callContext{key: requestKey{n: id}}
		cs.put(requestKey{n: id}, calls[id])
	}
	drop := func(id int64) {
		cs.remove(requestKey{n: id})
		if cs.get(requestKey{n: id}) != nil {
			t.Errorf("%d found after it was removed", id)
		}
	}
	add(1)
	has(1)
	add(2)
	add(3)
	has(1, 2, 3)
	drop(1) // the one outside the maps ends first
	has(2, 3)
	add(4) // takes its place
	has(2, 3, 4)
	drop(3)
	has(2, 4)
	drop(4)
	drop(2)
	has()
	add(2) // an id used before, outside the maps again
	has(2)
	drop(5) // not in the set
	has(2)
}
