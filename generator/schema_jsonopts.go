package generator

import (
	"encoding/json"
	"go/types"
	"math"
	"strconv"
	"strings"

	"github.com/invopop/jsonschema"
)

// The patterns of quoted values: the text encoding/json reads there. A
// quoted "null" leaves the field as it is, as in encoding/json. Integers
// get theirs from intPattern.
const (
	quotedNumberPattern = `^(-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?|null)$`
	quotedBoolPattern   = `^(true|false|null)$`
	quotedStringPattern = `^("([^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"|null)$`
)

// quotedPattern returns the pattern of the quoted form of a scalar shape.
func quotedPattern(sh *Shape) string {
	switch sh.Kind {
	case KindInt, KindUint:
		return "^(" + intPattern(sh.Kind == KindInt, sh.Bits) + "|null)$"
	case KindFloat:
		return quotedNumberPattern
	case KindBool:
		return quotedBoolPattern
	case KindString:
		return quotedStringPattern
	}
	return ""
}

// keyPattern returns the propertyNames pattern of integer map keys.
func keyPattern(signed bool, bits int) string {
	return "^(" + intPattern(signed, bits) + ")$"
}

// intPattern returns an unanchored regular expression matching exactly the
// decimal texts strconv.ParseInt (signed) or ParseUint reads as an integer
// of the given size, without a '+' sign: the range is part of the pattern,
// so that the schema says all the decoder checks.
func intPattern(signed bool, bits int) string {
	if bits <= 0 || bits > 64 {
		bits = 64
	}
	if !signed {
		return "0*" + upTo(math.MaxUint64>>(64-bits))
	}
	limit := uint64(1)<<(bits-1) - 1
	return "-0*" + upTo(limit+1) + "|0*" + upTo(limit)
}

// upTo returns a regular expression, in parentheses, matching the decimal
// texts of 0 … n without leading zeros.
func upTo(n uint64) string {
	s := strconv.FormatUint(n, 10)
	k := len(s)
	if k == 1 {
		return "([0-" + s + "])"
	}
	digits := func(lo, hi byte) string {
		if lo == hi {
			return string('0' + lo)
		}
		return "[" + string('0'+lo) + "-" + string('0'+hi) + "]"
	}
	any := func(m int) string {
		switch m {
		case 0:
			return ""
		case 1:
			return "[0-9]"
		}
		return "[0-9]{" + strconv.Itoa(m) + "}"
	}
	alts := []string{"[0-9]"}
	switch {
	case k == 3:
		alts = append(alts, "[1-9][0-9]")
	case k > 3:
		alts = append(alts, "[1-9][0-9]{1,"+strconv.Itoa(k-2)+"}")
	}
	for i := range k {
		d := s[i] - '0'
		lo := byte(0)
		if i == 0 {
			lo = 1
		}
		if d > lo {
			alts = append(alts, s[:i]+digits(lo, d-1)+any(k-i-1))
		}
	}
	alts = append(alts, s)
	return "(" + strings.Join(alts, "|") + ")"
}

// quote turns the shape of a field with the ",string" option into the
// shape of its quoted form: a string schema, as invopop maps the option,
// with the pattern of the text encoding/json accepts inside the string. An
// enum from constants becomes the enum of their quoted texts. It returns a
// problem when the field's type decodes itself, which the option does not
// combine with here.
func quote(sh *Shape) string {
	base := sh
	if base.Kind == KindPointer {
		base = base.Elem
	}
	pattern := quotedPattern(base)
	if pattern == "" {
		return "the json tag option \",string\" is not supported on " + typeString(base.Type) + ", which has its own JSON or text methods"
	}
	sh.Quoted = true
	s := sh.Schema
	enum := s.Enum
	*s = jsonschema.Schema{Type: "string", Description: s.Description}
	s.Pattern = pattern
	for _, v := range enum {
		switch v := v.(type) {
		case json.Number:
			s.Enum = append(s.Enum, v.String())
		case string:
			b, _ := json.Marshal(v)
			s.Enum = append(s.Enum, string(b))
		}
	}
	return ""
}

// mapKey returns how the keys of a map with key type t are decoded, and
// false when encoding/json cannot decode them.
func mapKey(t types.Type) (MapKey, bool) {
	if hasMethod(t, "UnmarshalText", []types.Type{byteSliceType}, []types.Type{errorType}) {
		return KeyText, true
	}
	b, ok := types.Unalias(t).Underlying().(*types.Basic)
	switch {
	case !ok:
	case b.Info()&types.IsString != 0:
		return KeyString, true
	case b.Info()&types.IsInteger != 0 && b.Info()&types.IsUnsigned != 0:
		return KeyUint, true
	case b.Info()&types.IsInteger != 0:
		return KeyInt, true
	}
	return KeyString, false
}

// encodeKey returns how encoding/json writes the keys of a map with key
// type t, and false when it cannot: a key of string kind is itself, then
// a MarshalText method of the key's value (map keys are not addressable)
// gives the name, then integers are written in decimal.
func encodeKey(t types.Type) (MapKey, bool) {
	b, isBasic := types.Unalias(t).Underlying().(*types.Basic)
	if isBasic && b.Info()&types.IsString != 0 {
		return KeyString, true
	}
	if marshalsText(t) {
		return KeyText, true
	}
	switch {
	case !isBasic:
	case b.Info()&types.IsInteger != 0 && b.Info()&types.IsUnsigned != 0:
		return KeyUint, true
	case b.Info()&types.IsInteger != 0:
		return KeyInt, true
	}
	return KeyString, false
}

// marshalsText reports whether values of t (not only pointers to them)
// have encoding/json's MarshalText method.
func marshalsText(t types.Type) bool {
	sel := types.NewMethodSet(t).Lookup(nil, "MarshalText")
	if sel == nil {
		return false
	}
	sig := sel.Obj().(*types.Func).Signature()
	return !sig.Variadic() && tupleIs(sig.Params(), nil) && tupleIs(sig.Results(), []types.Type{byteSliceType, errorType})
}
