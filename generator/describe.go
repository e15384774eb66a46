package generator

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// toolDescription turns a function's doc comment into its tool's (or
// resource's, or prompt's) description. Go doc comments begin with the function's name ("SearchFiles
// finds files …"), a name a model does not know the tool by, so a leading
// name followed by a lower-case verb is dropped and the verb capitalized:
// "Finds files …". A comment that does not start that way, or whose second
// word is a form of "be" ("SearchFiles is …"), is kept as written.
func toolDescription(funcName, doc string) string {
	doc = strings.TrimSpace(doc)
	rest, ok := strings.CutPrefix(doc, funcName)
	if !ok || !strings.HasPrefix(rest, " ") {
		return doc
	}
	rest = strings.TrimLeft(rest, " ")
	word, _, _ := strings.Cut(rest, " ")
	r, size := utf8.DecodeRuneInString(rest)
	if !unicode.IsLower(r) {
		return doc
	}
	switch strings.TrimRight(word, ".,;:") {
	case "is", "was", "are", "were", "be", "has", "had":
		return doc
	}
	return string(unicode.ToUpper(r)) + rest[size:]
}
