package generator

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// toolDescription turns a function's doc comment into its tool's (or
// resource's, or prompt's) description. Go doc comments begin with the
// function's name ("SearchFiles finds files …"), a name a model does not
// know the tool by, so a leading name followed by a lower-case verb is
// dropped and the verb capitalized: "Finds files …". A comment that does
// not start that way, whose second word is a form of "be" ("SearchFiles is
// …") or a word that cannot be a verb ("Search for files …"), is kept as
// written.
func toolDescription(funcName, doc string) string {
	return withoutGoName(funcName, doc, false)
}

// fieldDescription turns a struct field's doc comment into its property's
// description. The model knows the property by its JSON name, so the
// leading Go name is dropped as toolDescription drops a function's, and
// also before "is"/"are" ("Pattern is the glob …" → "The glob …") and
// before a comma or colon ("Pattern, if set, …" → "If set, …"). Field
// comments are often noun phrases ("Query string to search for", "Path to
// the file"), so the word after the name must look like a verb of a doc
// sentence: one ending in "s" ("Limit caps …" → "Caps …") or a modal
// ("Limit must …").
func fieldDescription(fieldName, doc string) string {
	return withoutGoName(fieldName, doc, true)
}

// typeDescription turns a named type's doc comment into the description
// of its schema. The model never sees the type's Go name either, so it is
// dropped as fieldDescription drops a field's: "SearchArgs are the
// arguments of search_files." → "The arguments of search_files.", "Sort
// orders the entries." → "Orders the entries.".
func typeDescription(typeName, doc string) string {
	return withoutGoName(typeName, doc, true)
}

// withoutGoName drops the Go name that begins doc, when what follows reads
// as a sentence about it, and capitalizes the rest; otherwise, and when
// nothing would be left, it returns doc as written (trimmed).
func withoutGoName(name, doc string, field bool) string {
	doc = strings.TrimSpace(doc)
	rest, ok := strings.CutPrefix(doc, name)
	if !ok || rest == "" {
		return doc
	}
	switch {
	case field && (strings.HasPrefix(rest, ", ") || strings.HasPrefix(rest, ": ")):
		comma := rest[0] == ','
		rest = strings.TrimLeftFunc(rest[1:], unicode.IsSpace)
		if r, _ := utf8.DecodeRuneInString(rest); comma && !unicode.IsLower(r) {
			return doc // "Pattern, Limit and Sort are …"
		}
	case startsWithSpace(rest):
		rest = strings.TrimLeftFunc(rest, unicode.IsSpace)
		end := strings.IndexFunc(rest, unicode.IsSpace)
		if end < 0 {
			end = len(rest)
		}
		word := strings.TrimRight(rest[:end], ".,;:")
		if r, _ := utf8.DecodeRuneInString(rest); !unicode.IsLower(r) {
			return doc
		}
		switch {
		case field && (word == "is" || word == "are") && word == rest[:end]:
			rest = strings.TrimLeftFunc(rest[end:], unicode.IsSpace)
		case beOrHave[word], notVerbs[word]:
			return doc
		case field && !modals[word] && (!strings.HasSuffix(word, "s") || strings.HasSuffix(word, "ss")):
			return doc
		}
	default:
		return doc // "Patterns …", "Pattern's …"
	}
	r, size := utf8.DecodeRuneInString(rest)
	if rest == "" || r == utf8.RuneError {
		return doc
	}
	if first, _, _ := strings.Cut(rest, " "); strings.Contains(first, "_") {
		return doc // an identifier must keep its case: "Items is list_items' answer."
	}
	return string(unicode.ToUpper(r)) + rest[size:]
}

func startsWithSpace(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsSpace(r)
}

// beOrHave are the words after a leading name that make the doc describe
// what the thing is or has rather than what it does: kept as written.
var beOrHave = map[string]bool{"is": true, "was": true, "are": true, "were": true, "be": true, "has": true, "had": true}

// notVerbs are lower-case words that follow a leading name without being a
// verb of it ("Path to the file", "Search for files", "Name of the user"):
// the name is part of a phrase, kept as written.
var notVerbs = map[string]bool{
	"a": true, "an": true, "the": true, "this": true, "that": true, "these": true, "those": true, "its": true,
	"of": true, "for": true, "to": true, "in": true, "on": true, "at": true, "by": true, "with": true,
	"from": true, "into": true, "as": true, "about": true, "over": true, "under": true, "per": true,
	"via": true, "without": true, "across": true, "unless": true, "plus": true,
	"and": true, "or": true, "but": true, "nor": true, "if": true, "when": true, "while": true,
}

// modals are verbs that begin a field's doc sentence without an "s":
// "Limit must be positive."
var modals = map[string]bool{
	"must": true, "should": true, "may": true, "can": true, "cannot": true, "will": true,
	"might": true, "could": true, "would": true, "shall": true,
}
