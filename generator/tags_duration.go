package generator

import (
	"strconv"
	"strings"
	"time"

	"github.com/invopop/jsonschema"
)

// durationValues returns the tag items of a time.Duration site (sh, or
// the element of a pointer) without those whose value is written as a Go
// duration (5s, 1h30m), which it reports with the number of nanoseconds
// to write instead: encoding/json, and so the schema, takes a Duration as
// an integer of nanoseconds.
func (a *tagApplier) durationValues(sh *Shape, items []string) []string {
	for sh != nil && sh.Kind == KindPointer {
		sh = sh.Elem
	}
	if sh == nil || !isNamed(sh.Type, "time", "Duration") {
		return items
	}
	var rest []string
	for _, it := range items {
		name, val, ok := strings.Cut(it, "=")
		if ok {
			if _, err := strconv.ParseFloat(val, 64); err != nil {
				if d, err := time.ParseDuration(val); err == nil {
					a.problemf("jsonschema tag %q: a time.Duration is an integer of nanoseconds in JSON: write %s=%d", it, name, int64(d))
					continue
				}
			}
		}
		rest = append(rest, it)
	}
	return rest
}

// isDuration reports whether sh is a time.Duration, or a pointer to,
// slice of or map of them.
func isDuration(sh *Shape) bool {
	for sh != nil && sh.Elem != nil && (sh.Kind == KindPointer || sh.Kind == KindSlice || sh.Kind == KindArray || sh.Kind == KindMap) {
		sh = sh.Elem
	}
	return sh != nil && isNamed(sh.Type, "time", "Duration")
}

// saysNanoseconds reports whether a property's description (or that of
// the schemas it is made of) speaks of nanoseconds.
func saysNanoseconds(s *jsonschema.Schema) bool {
	if s == nil {
		return false
	}
	if strings.Contains(strings.ToLower(s.Description), "nanosecond") {
		return true
	}
	for _, o := range s.OneOf {
		if saysNanoseconds(o) {
			return true
		}
	}
	return s.Items != nil && saysNanoseconds(s.Items)
}
