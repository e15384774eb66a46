package generator

import (
	"go/ast"
	"go/token"
	"iter"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// directiveKey is one key of a directive line: key=value, key="quoted
// value" or a bare key.
type directiveKey struct {
	Key      string
	Value    string
	HasValue bool
	Pos      token.Position // of the key
	// valueOff is the offset of the value's first character in the
	// comment; quoted says it is a Go quoted string (so the value starts
	// one byte later and escapes shift what follows).
	valueOff int
	quoted   bool
}

// directiveLine is a parsed //mcp:<kind> line other than //mcp:tool.
type directiveLine struct {
	Kind  string
	Pos   token.Position // of the "//"
	Keys  []directiveKey
	slash token.Pos
	fset  *token.FileSet
}

// get returns the key named k, if given.
func (l *directiveLine) get(k string) (directiveKey, bool) {
	for _, kv := range l.Keys {
		if kv.Key == k {
			return kv, true
		}
	}
	return directiveKey{}, false
}

// valuePos returns the position of byte off of a key's value, as well as
// it can be told for a quoted value.
func (l *directiveLine) valuePos(kv directiveKey, off int) token.Position {
	o := kv.valueOff + off
	if kv.quoted {
		o++
	}
	return l.fset.Position(l.slash + token.Pos(o))
}

// directiveKeys yields the keys of the directive line c, after its prefix
// ("//mcp:tool"), in order: key=value, key="quoted value" (a Go quoted
// string) or a bare key. known and isFlag tell where an unquoted title or
// description ends (unquotedValueEnd). Problems of the line's syntax are
// appended to diags as they are met, before what the caller reports of the
// key that follows; a quoted value that does not end stops the line.
func directiveKeys(fset *token.FileSet, c *ast.Comment, prefix string, known []string, isFlag func(string) bool, diags *[]Diagnostic) iter.Seq[directiveKey] {
	return func(yield func(directiveKey) bool) {
		text := c.Text
		i := len(prefix)
		posAt := func(off int) token.Position { return fset.Position(c.Slash + token.Pos(off)) }
		for {
			for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
				i++
			}
			if i >= len(text) {
				return
			}
			start := i
			for i < len(text) && text[i] != '=' && text[i] != ' ' && text[i] != '\t' {
				i++
			}
			kv := directiveKey{Key: text[start:i], Pos: posAt(start)}
			if i < len(text) && text[i] == '=' {
				i++
				kv.HasValue = true
				kv.valueOff = i
				if i < len(text) && (text[i] == '"' || text[i] == '`') {
					q, err := strconv.QuotedPrefix(text[i:])
					if err != nil {
						*diags = append(*diags, diagf(posAt(i), "%s: %s: unterminated or invalid quoted string", prefix, kv.Key))
						return
					}
					kv.Value, _ = strconv.Unquote(q)
					kv.quoted = true
					i += len(q)
				} else {
					for i < len(text) && text[i] != ' ' && text[i] != '\t' {
						i++
					}
					if end := unquotedValueEnd(text, i, kv.Key, known, isFlag); end > i {
						*diags = append(*diags, diagf(kv.Pos, "%s: %s", prefix, quoteValue(kv.Key, text[kv.valueOff:end])))
						i = end
					}
					kv.Value = text[kv.valueOff:i]
				}
			}
			if !yield(kv) {
				return
			}
		}
	}
}

// parseDirectiveLine splits "//mcp:kind key=value …" into its keys,
// checking them against known (key → whether it takes a value: "value",
// "flag" for a bare key).
func parseDirectiveLine(fset *token.FileSet, c *ast.Comment, known map[string]string, order string) (*directiveLine, []Diagnostic) {
	l := &directiveLine{Kind: directiveKind(c.Text), Pos: fset.Position(c.Slash), slash: c.Slash, fset: fset}
	prefix := directivePrefix + l.Kind
	var diags []Diagnostic
	seen := map[string]bool{}
	isFlag := func(k string) bool { return known[k] == "flag" }
	for kv := range directiveKeys(fset, c, prefix, slices.Sorted(maps.Keys(known)), isFlag, &diags) {
		want, ok := known[kv.Key]
		switch {
		case !ok:
			diags = append(diags, diagf(kv.Pos, "%s: %s", prefix, unknownKeyMessage(kv.Key, order)))
			continue
		case seen[kv.Key]:
			diags = append(diags, diagf(kv.Pos, "%s: %s given twice", prefix, kv.Key))
			continue
		case want == "value" && (!kv.HasValue || strings.TrimSpace(kv.Value) == ""):
			diags = append(diags, diagf(kv.Pos, "%s: %s needs a value: %s=…", prefix, kv.Key, kv.Key))
			continue
		case want == "flag" && kv.HasValue:
			if _, err := strconv.ParseBool(kv.Value); err != nil {
				diags = append(diags, diagf(kv.Pos, "%s: %s=%s: want true or false", prefix, kv.Key, kv.Value))
				continue
			}
		}
		seen[kv.Key] = true
		l.Keys = append(l.Keys, kv)
	}
	return l, diags
}

// flag reports whether a bare or true flag key is set.
func (l *directiveLine) flag(k string) bool {
	kv, ok := l.get(k)
	if !ok {
		return false
	}
	if !kv.HasValue {
		return true
	}
	b, _ := strconv.ParseBool(kv.Value)
	return b
}

// value returns the value of key k, or "".
func (l *directiveLine) value(k string) string {
	kv, _ := l.get(k)
	return kv.Value
}
