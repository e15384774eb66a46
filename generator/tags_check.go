package generator

import (
	"encoding/json"
	"fmt"
	"math/big"
	"regexp"
	"unicode/utf8"

	"github.com/invopop/jsonschema"
)

// tagKeys are the key=value items a jsonschema tag may hold, for any
// type; tagFlags the items without a value.
var (
	tagKeys = []string{
		"title", "description", "anchor", "type",
		"oneof_required", "anyof_required", "oneof_ref", "anyof_ref", "oneof_type", "anyof_type",
		"minLength", "maxLength", "pattern", "format", "readOnly", "writeOnly",
		"default", "example", "enum",
		"multipleOf", "minimum", "maximum", "exclusiveMaximum", "exclusiveMinimum",
		"minItems", "maxItems", "uniqueItems",
	}
	tagFlags = []string{"required", "nullable"}
)

// didYouMean returns ": did you mean "k"?" for the one known key k that
// name looks like a typo or another spelling of (keySuggestion), or "".
func didYouMean(name string, known []string) string {
	if k := keySuggestion(name, known); k != "" {
		return fmt.Sprintf(": did you mean %q?", k)
	}
	return ""
}

// checkDefault reports a default that the schema s itself rejects: outside
// its enum, bounds, pattern or length, or not an integer where one is
// required. A decoder applies the default without validating it, so such
// a default would reach the tool as a value no client could send.
func (a *tagApplier) checkDefault(s *jsonschema.Schema) {
	if s.Default == nil {
		return
	}
	if items, ok := s.Default.([]any); ok && s.Type == "array" {
		// Tags give the items as strings, whatever their type.
		if s.Items != nil && s.Items.Type == "string" {
			for _, it := range items {
				a.checkValue(s.Items, it, fmt.Sprintf("default item %v", it))
			}
		}
		return
	}
	a.checkValue(s, s.Default, fmt.Sprintf("default %v", s.Default))
}

// checkValue reports the keywords of s that reject v, a tag's value.
func (a *tagApplier) checkValue(s *jsonschema.Schema, v any, what string) {
	switch v := v.(type) {
	case string:
		if len(s.Enum) > 0 && !enumHas(s.Enum, func(e any) bool { es, ok := e.(string); return ok && es == v }) {
			a.problemf("%s is not one of the enum values %s", what, enumList(s.Enum))
		}
		n := uint64(utf8.RuneCountInString(v))
		if s.MinLength != nil && n < *s.MinLength {
			a.problemf("%s is shorter than minLength %d", what, *s.MinLength)
		}
		if s.MaxLength != nil && n > *s.MaxLength {
			a.problemf("%s is longer than maxLength %d", what, *s.MaxLength)
		}
		if s.Pattern != "" {
			if re, err := regexp.Compile(s.Pattern); err == nil && !re.MatchString(v) {
				a.problemf("%s does not match the pattern %s", what, s.Pattern)
			}
		}
	case json.Number:
		r, ok := new(big.Rat).SetString(v.String())
		if !ok {
			return
		}
		if s.Type == "integer" && !r.IsInt() {
			a.problemf("%s is not an integer", what)
		}
		if len(s.Enum) > 0 && !enumHas(s.Enum, func(e any) bool { er, ok := ratOf(e); return ok && er.Cmp(r) == 0 }) {
			a.problemf("%s is not one of the enum values %s", what, enumList(s.Enum))
		}
		for _, b := range []struct {
			bound json.Number
			bad   func(c int) bool
			word  string
		}{
			{s.Minimum, func(c int) bool { return c < 0 }, "below the minimum"},
			{s.Maximum, func(c int) bool { return c > 0 }, "above the maximum"},
			{s.ExclusiveMinimum, func(c int) bool { return c <= 0 }, "not above the exclusiveMinimum"},
			{s.ExclusiveMaximum, func(c int) bool { return c >= 0 }, "not below the exclusiveMaximum"},
		} {
			if br, ok := ratOf(b.bound); ok && b.bad(r.Cmp(br)) {
				a.problemf("%s is %s %s", what, b.word, b.bound)
			}
		}
		if m, ok := ratOf(s.MultipleOf); ok && m.Sign() > 0 && !new(big.Rat).Quo(r, m).IsInt() {
			a.problemf("%s is not a multiple of %s", what, s.MultipleOf)
		}
	case bool:
		if len(s.Enum) > 0 && !enumHas(s.Enum, func(e any) bool { eb, ok := e.(bool); return ok && eb == v }) {
			a.problemf("%s is not one of the enum values %s", what, enumList(s.Enum))
		}
	}
}

func enumHas(enum []any, match func(any) bool) bool {
	for _, e := range enum {
		if match(e) {
			return true
		}
	}
	return false
}

func enumList(enum []any) string {
	b, err := json.Marshal(enum)
	if err != nil {
		return fmt.Sprint(enum)
	}
	return string(b)
}

// ratOf returns a number held in a schema as an exact rational.
func ratOf(v any) (*big.Rat, bool) {
	lit, ok := numberLiteral(v)
	if !ok {
		return nil, false
	}
	return new(big.Rat).SetString(lit)
}
