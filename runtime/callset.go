package runtime

// callSet holds a session's requests in flight by id. Integer ids, which
// nearly every client sends, are kept in a map of their own, whose
// lookups, insertions and deletions cost a fraction of those of a map
// keyed by requestKey, whose string makes every hash and comparison
// generic; a call's entry is made and removed once for each tools/call.
// One call with an integer id is kept outside the maps: a client that
// waits for each answer, or whose calls run one after another on the
// reading goroutine, has only one call in flight, whose entry then costs
// no map insertion and deletion.
type callSet struct {
	one   *callContext // nil, or the call with integer id oneID
	oneID int64
	byInt map[int64]*callContext
	byRaw map[string]*callContext // ids that are not plain integers
}

func (cs *callSet) get(k requestKey) *callContext {
	if k.raw == "" {
		if cs.one != nil && cs.oneID == k.n {
			return cs.one
		}
		return cs.byInt[k.n]
	}
	return cs.byRaw[k.raw]
}

// put adds c under k, which is not in the set.
func (cs *callSet) put(k requestKey, c *callContext) {
	if k.raw == "" {
		if cs.one == nil {
			cs.one, cs.oneID = c, k.n
			return
		}
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
		if cs.one != nil && cs.oneID == k.n {
			cs.one = nil
			return
		}
		delete(cs.byInt, k.n)
		return
	}
	delete(cs.byRaw, k.raw)
}

func (cs *callSet) len() int {
	n := len(cs.byInt) + len(cs.byRaw)
	if cs.one != nil {
		n++
	}
	return n
}

// each calls f for every call in the set.
func (cs *callSet) each(f func(*callContext)) {
	if cs.one != nil {
		f(cs.one)
	}
	for _, c := range cs.byInt {
		f(c)
	}
	for _, c := range cs.byRaw {
		f(c)
	}
}
