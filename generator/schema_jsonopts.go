package generator

import (
	"encoding/json"
	"go/types"

	"github.com/invopop/jsonschema"
)

// The patterns of quoted values and of integer map keys: the text
// encoding/json reads there. A quoted "null" leaves the field as it is, as
// in encoding/json.
const (
	quotedIntPattern    = `^(-?[0-9]+|null)$`
	quotedUintPattern   = `^([0-9]+|null)$`
	quotedNumberPattern = `^(-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?|null)$`
	quotedBoolPattern   = `^(true|false|null)$`
	quotedStringPattern = `^("([^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"|null)$`
	intKeyPattern       = `^-?[0-9]+$`
	uintKeyPattern      = `^[0-9]+$`
)

// quotedPattern returns the pattern of the quoted form of a scalar kind.
func quotedPattern(k Kind) string {
	switch k {
	case KindInt:
		return quotedIntPattern
	case KindUint:
		return quotedUintPattern
	case KindFloat:
		return quotedNumberPattern
	case KindBool:
		return quotedBoolPattern
	case KindString:
		return quotedStringPattern
	}
	return ""
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
	pattern := quotedPattern(base.Kind)
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
