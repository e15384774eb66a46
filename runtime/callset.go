package runtime

// callSet holds a session's requests in flight by id. Integer ids, which
// nearly every client sends, are kept in a map of their own, whose
// lookups, insertions and deletions cost a fraction of those of a map
// keyed by requestKey, whose string makes every hash and comparison
// generic; a call's entry is made and removed once for each tools/call.
type callSet struct {
	byInt map[int64]*callContext
	byRaw map[string]*callContext // ids that are not plain integers
}

func (cs *callSet) get(k requestKey) *callContext {
	if k.raw == "" {
		return cs.byInt[k.n]
	}
	return cs.byRaw[k.raw]
}

func (cs *callSet) put(k requestKey, c *callContext) {
	if k.raw == "" {
		if cs.byInt == nil {
			cs.byInt = map[int64]*callContext{}
		}
		cs.byInt[k.n] = c
		return
	}
	if cs.byRaw == nil {
		cs.byRaw = map[string]*callContext{}
	}
	cs.byRaw[k.raw] = c
}

func (cs *callSet) remove(k requestKey) {
	if k.raw == "" {
		delete(cs.byInt, k.n)
		return
	}
	delete(cs.byRaw, k.raw)
}

func (cs *callSet) len() int { return len(cs.byInt) + len(cs.byRaw) }

// each calls f for every call in the set.
func (cs *callSet) each(f func(*callContext)) {
	for _, c := range cs.byInt {
		f(c)
	}
	for _, c := range cs.byRaw {
		f(c)
	}
}
