package generator

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/internal/spell"
)

// unknownKeyMessage says that a directive has no key named key, leading
// with the known key it looks like a typo or another spelling of
// (keySuggestion), then listing them all (order: the known keys,
// comma-separated).
func unknownKeyMessage(key, order string) string {
	known := strings.Split(order, ", ")
	if strings.Contains(key, "://") && slices.Contains(known, "uri") {
		return fmt.Sprintf("%q is no key: %s", key, uriHint(key))
	}
	if k := keySuggestion(key, known); k != "" {
		return fmt.Sprintf("unknown key %q: did you mean %q? (known: %s)", key, k, order)
	}
	return fmt.Sprintf("unknown key %q (known: %s)", key, order)
}

// keySuggestion returns the one key of known that key, which is none of
// them, most likely stands for, or "" when none or several are as likely.
// The closest kind of likeness that any known key has decides: first
// another spelling of it (a case variant, snake or kebab case, or the MCP
// spelling of a tool annotation, readOnlyHint); then a prefix of it, or it
// a prefix of key (desc, titles); then a typo of at most two edits (a
// swap of two letters is one), and at most one for every three bytes of
// the known key, so that a short key does not stand for every short word.
func keySuggestion(key string, known []string) string {
	lower := strings.ToLower(key)
	tiers := [3][]string{}
	for _, k := range known {
		lk := strings.ToLower(k)
		switch {
		case k == key:
			return ""
		case keySpelling(key) == lk:
			tiers[0] = append(tiers[0], k)
		case min(len(lower), len(lk)) >= 2 && (strings.HasPrefix(lk, lower) || strings.HasPrefix(lower, lk)):
			tiers[1] = append(tiers[1], k)
		default:
			if d := spell.Edits(lower, lk); d <= 2 && 3*d <= len(lk) {
				tiers[2] = append(tiers[2], k)
			}
		}
	}
	for _, t := range tiers {
		if len(t) == 1 {
			return t[0]
		}
		if len(t) > 1 {
			return ""
		}
	}
	return ""
}

// keySpelling is key in lower case without '_', '-' and a trailing "hint":
// what a directive key spelt in another convention is in mcpgen's.
func keySpelling(key string) string {
	norm := strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(key))
	return strings.TrimSuffix(norm, "hint")
}

// uriHint says where a URI written without its key goes.
func uriHint(uri string) string {
	return "write the URI as the value of uri=, as in uri=" + uri
}

// resultHint is what to do instead of returning t, a type a tool cannot
// return, when there is a common fix: a number or boolean goes into a
// struct (structured content is a JSON object) or into text.
func resultHint(t types.Type, pkg *types.Package) string {
	b, ok := t.Underlying().(*types.Basic)
	if !ok || b.Info()&(types.IsNumeric|types.IsBoolean) == 0 {
		return ""
	}
	return fmt.Sprintf(": return a struct with a field of type %s (structured content is a JSON object), or the value as a string", typeName(t, pkg))
}

// detachedDirective says why the directive c is attached to no function,
// with the fix when the declaration that follows it is a function whose doc
// comment it was meant to be in: a blank line or another comment group
// separates them.
func detachedDirective(fset *token.FileSet, file *ast.File, c *ast.Comment) string {
	msg := fmt.Sprintf("//mcp:%s must be in the doc comment of a top-level function or method", directiveKind(c.Text))
	for _, decl := range file.Decls {
		if decl.End() < c.Slash {
			continue
		}
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || decl.Pos() < c.Slash {
			return msg // inside a declaration, or before one that is no function
		}
		if fd.Doc != nil && fd.Doc.Pos() <= c.Slash {
			return msg
		}
		return fmt.Sprintf("%s; a blank line separates it from func %s below: remove the blank line, so that it is part of %s's doc comment", msg, fd.Name.Name, fd.Name.Name)
	}
	return msg
}

// unquotedValueEnd returns where the value of key ends when it was
// written without quotes, from i, the end of its first word: for the keys
// whose values are prose, title and description, the words that follow
// belong to it (title=Search files) unless they contain '=', are flag keys
// (isFlag), or look like a misspelt key of known. It returns i when no word
// belongs to the value.
func unquotedValueEnd(text string, i int, key string, known []string, isFlag func(string) bool) int {
	if key != "title" && key != "description" {
		return i
	}
	end := i
	for {
		j := end
		for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
			j++
		}
		k := j
		for k < len(text) && text[k] != ' ' && text[k] != '\t' {
			k++
		}
		w := text[j:k]
		if w == "" || strings.Contains(w, "=") || isFlag(w) || misspeltKey(w, known) {
			return end
		}
		end = k
	}
}

// misspeltKey tells whether w is not a key of known but looks like
// another spelling of one, or a typo of one of at most a third of its
// length: a stricter test than keySuggestion's, since the words it is
// asked about may be prose that belongs to an unquoted title.
func misspeltKey(w string, known []string) bool {
	if slices.Contains(known, w) {
		return false
	}
	if strings.Contains(w, "://") && slices.Contains(known, "uri") {
		return true
	}
	for _, k := range known {
		if keySpelling(w) == k || spell.Distance(strings.ToLower(w), strings.ToLower(k)) <= max(1, min(3, len(k)/3)) {
			return true
		}
	}
	return false
}

// quoteValue says that the value of key, with spaces, must be quoted.
func quoteValue(key, value string) string {
	return fmt.Sprintf("%s=%s: a value with spaces must be quoted: %s=%s", key, value, key, strconv.Quote(value))
}

// genericMessage says why the generic function or method f cannot be one
// of what (tools, resources, …), and for a method of a generic type what
// to do instead.
func genericMessage(name string, sig *types.Signature, what string) string {
	if sig.RecvTypeParams().Len() == 0 {
		return fmt.Sprintf("%s: generic functions cannot be %s", name, what)
	}
	recv := sig.Recv().Type()
	if p, ok := recv.(*types.Pointer); ok {
		recv = p.Elem()
	}
	typ := "its receiver"
	if n, ok := types.Unalias(recv).(*types.Named); ok {
		typ = n.Obj().Name()
	}
	return fmt.Sprintf("%s: methods of the generic type %s cannot be %s (RegisterMCP takes one value of each receiver type, and %s is a type only with its type arguments); declare it on a type that is not generic, such as a struct holding a *%s[Item], or as a function", name, typ, what, typ, typ)
}
