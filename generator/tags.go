package generator

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/invopop/jsonschema"
)

// jsonTag is the encoding/json view of a struct field's tag.
type jsonTag struct {
	name      string // valid key from the tag, or ""
	skip      bool   // json:"-"
	omitEmpty bool
	omitZero  bool
	quoted    bool // the ",string" option
}

func parseJSONTag(tag reflect.StructTag) jsonTag {
	v := tag.Get("json")
	if v == "-" {
		return jsonTag{skip: true}
	}
	name, opts, _ := strings.Cut(v, ",")
	var jt jsonTag
	if isValidJSONName(name) {
		jt.name = name
	}
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		switch o {
		case "omitempty":
			jt.omitEmpty = true
		case "omitzero":
			jt.omitZero = true
		case "string":
			jt.quoted = true
		}
	}
	return jt
}

// isValidJSONName reports whether encoding/json accepts s as a key taken
// from a tag; otherwise encoding/json uses the Go field name.
func isValidJSONName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

// schemaFlags are the jsonschema tag items that decide whether and how a
// field appears: they are read from the tag split on every comma, as
// invopop's reflectFieldName reads them.
type schemaFlags struct {
	skip     bool // first item is "-"
	required bool
	nullable bool
}

func parseSchemaFlags(tag reflect.StructTag) schemaFlags {
	items := strings.Split(tag.Get("jsonschema"), ",")
	if items[0] == "-" {
		return schemaFlags{skip: true}
	}
	var f schemaFlags
	for _, it := range items {
		switch it {
		case "required":
			f.required = true
		case "nullable":
			f.nullable = true
		}
	}
	return f
}

// splitOnUnescapedCommas splits a tag value on commas not preceded by a
// backslash; the backslash of an escaped comma is dropped.
func splitOnUnescapedCommas(s string) []string {
	parts := strings.Split(s, ",")
	out := []string{parts[0]}
	for _, next := range parts[1:] {
		last := out[len(out)-1]
		if last != "" && last[len(last)-1] == '\\' {
			out[len(out)-1] = last[:len(last)-1] + "," + next
			continue
		}
		out = append(out, next)
	}
	return out
}

// tagApplier applies one field's jsonschema, jsonschema_description and
// jsonschema_extras tags to the field's site schema with the meaning
// invopop's structKeywordsFromTags gives them. Every tag item that invopop
// would ignore, or whose value does not parse, becomes a problem.
type tagApplier struct {
	problems []string
	// enumFromTag marks schemas whose enum has been started by a tag, which
	// then replaces an enum derived from constants.
	enumFromTag map[*jsonschema.Schema]bool
}

func (a *tagApplier) problemf(format string, args ...any) {
	a.problems = append(a.problems, fmt.Sprintf(format, args...))
}

// acceptsAny reports whether the decoder of sh accepts any JSON value, so
// that tags may change the schema's type.
func acceptsAny(sh *Shape) bool {
	for sh != nil && sh.Kind == KindPointer {
		sh = sh.Elem
	}
	if sh == nil {
		return false
	}
	switch sh.Kind {
	case KindAny, KindRawMessage, KindUnmarshaler:
		return true
	}
	return false
}

// itemShape returns the shape of the elements of a slice or array site.
func itemShape(sh *Shape) *Shape {
	for sh != nil && sh.Kind == KindPointer {
		sh = sh.Elem
	}
	if sh == nil || (sh.Kind != KindSlice && sh.Kind != KindArray) {
		return nil
	}
	return sh.Elem
}

// apply applies tag to s, the schema of the site whose shape is sh, held as
// property prop of the struct schema parent.
func (a *tagApplier) apply(s *jsonschema.Schema, sh *Shape, parent *jsonschema.Schema, prop string, tag reflect.StructTag) {
	if d, ok := tag.Lookup("jsonschema_description"); ok {
		s.Description = d
	}
	items := splitOnUnescapedCommas(tag.Get("jsonschema"))
	rest := a.genericKeywords(s, sh, parent, prop, items)
	switch s.Type {
	case "string":
		a.stringKeywords(s, rest, "")
	case "number", "integer":
		a.numericalKeywords(s, a.durationValues(sh, rest), "")
	case "array":
		a.arrayKeywords(s, sh, rest)
	case "boolean":
		a.booleanKeywords(s, rest, "")
	default:
		for _, it := range rest {
			a.problemf("jsonschema tag %q does not apply to %s", it, schemaKindName(s))
		}
	}
	a.extras(s, tag)
	a.checkDefault(s)
}

func schemaKindName(s *jsonschema.Schema) string {
	switch {
	case s.Ref != "":
		return "a $ref schema"
	case s.Type == "":
		return "a schema without a type"
	}
	return "a schema of type " + s.Type
}

// genericKeywords handles the keys that apply to every schema and returns
// the remaining key=value items.
func (a *tagApplier) genericKeywords(s *jsonschema.Schema, sh *Shape, parent *jsonschema.Schema, prop string, items []string) []string {
	var rest []string
	for i, it := range items {
		name, val, ok := strings.Cut(it, "=")
		if !ok {
			switch {
			case it == "", it == "required", it == "nullable":
			case it == "-" && i == 0:
			default:
				a.problemf("jsonschema tag %q: unknown flag%s", it, didYouMean(it, append(tagFlags[:len(tagFlags):len(tagFlags)], tagKeys...)))
			}
			continue
		}
		switch name {
		case "title":
			s.Title = val
		case "description":
			s.Description = val
		case "anchor":
			s.Anchor = val
		case "type":
			if !a.typeChangeAllowed(it, sh) {
				continue
			}
			if !validSchemaType(val) {
				a.problemf("jsonschema tag %q: not a JSON Schema type", it)
				continue
			}
			s.Type = val
		case "oneof_required":
			parent.OneOf = addRequiredGroup(parent.OneOf, val, prop)
		case "anyof_required":
			parent.AnyOf = addRequiredGroup(parent.AnyOf, val, prop)
		case "oneof_ref", "anyof_ref":
			target, tsh := s, sh
			if s.Items != nil {
				target, tsh = s.Items, itemShape(sh)
			}
			if !a.typeChangeAllowed(it, tsh) {
				continue
			}
			target.Ref = ""
			for _, r := range strings.Split(val, ";") {
				if name == "oneof_ref" {
					target.OneOf = append(target.OneOf, &jsonschema.Schema{Ref: r})
				} else {
					target.AnyOf = append(target.AnyOf, &jsonschema.Schema{Ref: r})
				}
			}
		case "oneof_type", "anyof_type":
			if !a.typeChangeAllowed(it, sh) {
				continue
			}
			s.Type = ""
			for _, ty := range strings.Split(val, ";") {
				if !validSchemaType(ty) {
					a.problemf("jsonschema tag %q: %q is not a JSON Schema type", it, ty)
				}
				if name == "oneof_type" {
					s.OneOf = append(s.OneOf, &jsonschema.Schema{Type: ty})
				} else {
					s.AnyOf = append(s.AnyOf, &jsonschema.Schema{Type: ty})
				}
			}
		default:
			if !slices.Contains(tagKeys, name) {
				a.problemf("jsonschema tag %q: unknown key %s%s", it, name, didYouMean(name, tagKeys))
				continue
			}
			rest = append(rest, it)
		}
	}
	return rest
}

// typeChangeAllowed reports whether a tag item that replaces the JSON type
// may be used at sh: only where the decoder accepts any JSON value.
func (a *tagApplier) typeChangeAllowed(item string, sh *Shape) bool {
	if sh != nil && acceptsAny(sh) {
		return true
	}
	what := "this type"
	if sh != nil && sh.Type != nil {
		what = typeString(sh.Type)
	}
	a.problemf("jsonschema tag %q changes the JSON type, but %s is decoded as a %s", item, what, shapeKindName(sh))
	return false
}

func shapeKindName(sh *Shape) string {
	for sh != nil && sh.Kind == KindPointer {
		sh = sh.Elem
	}
	if sh == nil {
		return "fixed type"
	}
	return sh.Kind.String()
}

func validSchemaType(t string) bool {
	switch t {
	case "string", "number", "integer", "boolean", "object", "array", "null":
		return true
	}
	return false
}

func addRequiredGroup(groups []*jsonschema.Schema, title, prop string) []*jsonschema.Schema {
	for _, g := range groups {
		if g.Title == title {
			g.Required = append(g.Required, prop)
			return groups
		}
	}
	return append(groups, &jsonschema.Schema{Title: title, Required: []string{prop}})
}

// appendEnum adds v to the enum of s; the first enum value from a tag
// replaces an enum derived from constants.
func (a *tagApplier) appendEnum(s *jsonschema.Schema, v any) {
	if !a.enumFromTag[s] {
		if a.enumFromTag == nil {
			a.enumFromTag = map[*jsonschema.Schema]bool{}
		}
		a.enumFromTag[s] = true
		s.Enum = nil
	}
	s.Enum = append(s.Enum, v)
}

func (a *tagApplier) stringKeywords(s *jsonschema.Schema, items []string, where string) {
	for _, it := range items {
		name, val, _ := strings.Cut(it, "=")
		switch name {
		case "minLength":
			s.MinLength = a.parseUint(it, val)
		case "maxLength":
			s.MaxLength = a.parseUint(it, val)
		case "pattern":
			a.checkPattern(it, val)
			s.Pattern = val
		case "format":
			s.Format = val
		case "readOnly":
			s.ReadOnly = a.parseBool(it, val)
		case "writeOnly":
			s.WriteOnly = a.parseBool(it, val)
		case "default":
			s.Default = val
		case "example":
			s.Examples = append(s.Examples, val)
		case "enum":
			a.appendEnum(s, val)
		default:
			a.problemf("jsonschema tag %q does not apply to a string%s", it, where)
		}
	}
}

func (a *tagApplier) numericalKeywords(s *jsonschema.Schema, items []string, where string) {
	for _, it := range items {
		name, val, ok := splitOnce(it)
		if !ok {
			a.problemf("jsonschema tag %q: a value with '=' is ignored on a number%s", it, where)
			continue
		}
		switch name {
		case "multipleOf":
			s.MultipleOf = a.number(it, val)
		case "minimum":
			s.Minimum = a.number(it, val)
		case "maximum":
			s.Maximum = a.number(it, val)
		case "exclusiveMaximum":
			s.ExclusiveMaximum = a.number(it, val)
		case "exclusiveMinimum":
			s.ExclusiveMinimum = a.number(it, val)
		case "default":
			if n := a.number(it, val); n != "" {
				s.Default = n
			}
		case "example":
			if n := a.number(it, val); n != "" {
				s.Examples = append(s.Examples, n)
			}
		case "enum":
			if n := a.number(it, val); n != "" {
				a.appendEnum(s, n)
			}
		default:
			a.problemf("jsonschema tag %q does not apply to a number%s", it, where)
		}
	}
}

func (a *tagApplier) booleanKeywords(s *jsonschema.Schema, items []string, where string) {
	for _, it := range items {
		name, val, ok := splitOnce(it)
		if !ok || name != "default" {
			a.problemf("jsonschema tag %q does not apply to a boolean%s", it, where)
			continue
		}
		switch val {
		case "true":
			s.Default = true
		case "false":
			s.Default = false
		default:
			a.problemf("jsonschema tag %q: not true or false", it)
		}
	}
}

func (a *tagApplier) arrayKeywords(s *jsonschema.Schema, sh *Shape, items []string) {
	var defaults []any
	var rest []string
	for _, it := range items {
		name, val, ok := splitOnce(it)
		if !ok {
			a.problemf("jsonschema tag %q: a value with '=' is ignored on an array", it)
			continue
		}
		switch name {
		case "minItems":
			s.MinItems = a.parseUint(it, val)
		case "maxItems":
			s.MaxItems = a.parseUint(it, val)
		case "uniqueItems":
			if val != "true" {
				a.problemf("jsonschema tag %q: uniqueItems takes only the value true", it)
			}
			s.UniqueItems = true
		case "default":
			defaults = append(defaults, val)
		case "format":
			if s.Items == nil {
				a.problemf("jsonschema tag %q: the array has no items schema", it)
				continue
			}
			s.Items.Format = val
		case "pattern":
			if s.Items == nil {
				a.problemf("jsonschema tag %q: the array has no items schema", it)
				continue
			}
			a.checkPattern(it, val)
			s.Items.Pattern = val
		default:
			rest = append(rest, it)
		}
	}
	if len(defaults) > 0 {
		s.Default = defaults
	}
	if len(rest) == 0 {
		return
	}
	const where = " (array items)"
	if s.Items == nil {
		for _, it := range rest {
			a.problemf("jsonschema tag %q: the array has no items schema", it)
		}
		return
	}
	switch s.Items.Type {
	case "string":
		a.stringKeywords(s.Items, rest, where)
	case "number", "integer":
		a.numericalKeywords(s.Items, rest, where)
	case "boolean":
		a.booleanKeywords(s.Items, rest, where)
	default:
		for _, it := range rest {
			a.problemf("jsonschema tag %q does not apply to array items of %s", it, schemaKindName(s.Items))
		}
	}
}

// extras applies jsonschema_extras as invopop's setExtra does.
func (a *tagApplier) extras(s *jsonschema.Schema, tag reflect.StructTag) {
	v, ok := tag.Lookup("jsonschema_extras")
	if !ok {
		return
	}
	var keys []string
	for _, it := range splitOnUnescapedCommas(v) {
		key, val, ok := strings.Cut(it, "=")
		if !ok {
			if it != "" {
				a.problemf("jsonschema_extras tag %q: not key=value", it)
			}
			continue
		}
		if s.Extras == nil {
			s.Extras = map[string]any{}
		}
		if old, ok := s.Extras[key]; ok {
			switch old := old.(type) {
			case string:
				s.Extras[key] = []string{old, val}
			case []string:
				s.Extras[key] = append(old, val)
			case int:
				n, err := strconv.Atoi(val)
				if err != nil {
					a.problemf("jsonschema_extras tag %q: not an integer", it)
				}
				s.Extras[key] = n
			case bool:
				s.Extras[key] = val == "true" || val == "t"
			}
			continue
		}
		keys = append(keys, key)
		switch {
		case key == "minimum":
			n, err := strconv.Atoi(val)
			if err != nil {
				a.problemf("jsonschema_extras tag %q: not an integer", it)
			}
			s.Extras[key] = n
		case val == "true":
			s.Extras[key] = true
		case val == "false":
			s.Extras[key] = false
		default:
			s.Extras[key] = val
		}
	}
	if len(keys) == 0 {
		return
	}
	own := schemaKeys(s)
	for _, k := range keys {
		if own[k] {
			a.problemf("jsonschema_extras tag: key %q duplicates a keyword the schema already has", k)
		}
	}
}

// schemaKeys returns the JSON keys s has without its extras.
func schemaKeys(s *jsonschema.Schema) map[string]bool {
	c := *s
	c.Extras = nil
	b, err := json.Marshal(&c)
	keys := map[string]bool{}
	if err != nil {
		return keys
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) == nil {
		for k := range m {
			keys[k] = true
		}
	}
	return keys
}

// splitOnce splits key=value the way invopop's numeric, array and boolean
// keywords do: a value holding another '=' is not a key=value item.
func splitOnce(it string) (name, val string, ok bool) {
	parts := strings.Split(it, "=")
	if len(parts) != 2 {
		return "", "", false
	}
	return parts[0], parts[1], true
}

func (a *tagApplier) parseUint(item, val string) *uint64 {
	n, err := strconv.ParseUint(val, 10, 64)
	if err != nil {
		a.problemf("jsonschema tag %q: not a non-negative integer", item)
		return nil
	}
	return &n
}

func (a *tagApplier) parseBool(item, val string) bool {
	b, err := strconv.ParseBool(val)
	if err != nil {
		a.problemf("jsonschema tag %q: not a boolean", item)
	}
	return b
}

// number returns val as a json.Number when invopop's toJSONNumber accepts
// it and it is a JSON number literal, else "" and a problem.
func (a *tagApplier) number(item, val string) json.Number {
	n := json.Number(val)
	_, ierr := n.Int64()
	_, ferr := n.Float64()
	if (ierr != nil && ferr != nil) || !isJSONNumber(val) {
		a.problemf("jsonschema tag %q: not a number", item)
		return ""
	}
	return n
}

func (a *tagApplier) checkPattern(item, val string) {
	if _, err := regexp.Compile(val); err != nil {
		a.problemf("jsonschema tag %q: invalid pattern: %v", item, err)
	}
}

// isJSONNumber reports whether s is a number literal in JSON syntax.
func isJSONNumber(s string) bool {
	if s == "" {
		return false
	}
	if s[0] == '-' {
		s = s[1:]
		if s == "" {
			return false
		}
	}
	switch {
	case s[0] == '0':
		s = s[1:]
	case '1' <= s[0] && s[0] <= '9':
		s = s[1:]
		for s != "" && isDigit(s[0]) {
			s = s[1:]
		}
	default:
		return false
	}
	if len(s) >= 2 && s[0] == '.' && isDigit(s[1]) {
		s = s[2:]
		for s != "" && isDigit(s[0]) {
			s = s[1:]
		}
	}
	if len(s) >= 2 && (s[0] == 'e' || s[0] == 'E') {
		s = s[1:]
		if s[0] == '+' || s[0] == '-' {
			s = s[1:]
			if s == "" {
				return false
			}
		}
		for s != "" && isDigit(s[0]) {
			s = s[1:]
		}
	}
	return s == ""
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
