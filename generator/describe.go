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
// sentence: one ending in "s" ("Limit caps …" → "Caps …"), a modal
// ("Limit must …"), or, after a plural name, a plain verb ("Tags filter
// the results." → "Filter the results."; see pluralVerb).
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
		case field && !modals[word] && (!strings.HasSuffix(word, "s") || strings.HasSuffix(word, "ss")) &&
			!(pluralName(name) && word == rest[:end] && pluralVerb(word)):
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

// pluralName reports whether a Go name reads as a plural noun, whose verb
// has no "s" ("Tags filter …"): it ends in "s", but not as a singular does
// ("Status", "Address", "Basis", "Alias").
func pluralName(name string) bool {
	lower := strings.ToLower(name)
	if len(lower) < 3 || !strings.HasSuffix(lower, "s") {
		return false
	}
	for _, end := range []string{"ss", "us", "is", "ias", "vas", "las", "news", "series", "species"} {
		if strings.HasSuffix(lower, end) {
			return false
		}
	}
	return true
}

// pluralVerb reports whether a word after a plural name reads as its verb
// ("Tags filter …", "Headers map …") rather than as the rest of a noun
// phrase: a participle ("Tags separated by commas", "Files matching …",
// "Tags given …"), an adjective ("Paths relative to …", "Values greater
// than …") or another word that cannot be a verb. When in doubt the doc
// keeps the name, which is never wrong.
func pluralVerb(word string) bool {
	if len(word) < 2 || notVerbs[word] || beOrHave[word] || notPluralVerbs[word] {
		return false
	}
	for _, r := range word {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	for _, end := range []string{"ed", "ing", "ly", "ive", "ble", "ous", "ful", "less", "ic", "ary", "ent", "ant", "er", "est", "en"} {
		if strings.HasSuffix(word, end) && !pluralVerbEndings[word] {
			return false
		}
	}
	if strings.HasSuffix(word, "al") && !strings.HasSuffix(word, "eal") {
		return false // "Tags optional …", but "Tags reveal …"
	}
	return true
}

// notPluralVerbs are words without a telling ending that follow a plural
// name in a noun phrase: irregular participles, adjectives, quantifiers,
// adverbs and relative words.
var notPluralVerbs = map[string]bool{
	"have": true, "like": true, "unlike": true, "such": true, "than": true, "which": true, "who": true,
	"whose": true, "whom": true, "where": true, "not": true, "only": true, "each": true, "all": true,
	"both": true, "more": true, "most": true, "least": true, "same": true, "fewer": true,
	"made": true, "found": true, "kept": true, "held": true, "sent": true, "built": true, "left": true,
	"set": true, "put": true, "cut": true, "read": true, "let": true, "split": true, "shut": true,
	"spread": true, "done": true, "gone": true, "drawn": true, "thrown": true, "spent": true,
	"lost": true, "meant": true, "paid": true, "told": true, "sold": true, "bought": true,
	"brought": true, "caught": true, "taught": true, "thought": true, "won": true, "bound": true,
	"struck": true, "stuck": true, "hung": true, "begun": true, "run": true, "shown": true,
	"too": true, "here": true, "there": true, "now": true, "then": true, "first": true, "last": true,
	"next": true, "above": true, "below": true, "after": true, "before": true, "between": true,
	"within": true, "except": true, "up": true, "down": true, "out": true, "off": true,
	"no": true, "none": true, "any": true, "some": true, "many": true, "few": true, "own": true,
	"so": true, "yet": true, "either": true, "neither": true, "else": true, "also": true,
	"even": true, "just": true, "still": true, "already": true, "always": true, "never": true,
	"often": true, "new": true, "old": true, "extra": true, "due": true, "alone": true,
	"one": true, "two": true, "three": true, "whatever": true, "whichever": true, "separate": true,
	"private": true, "public": true, "empty": true, "valid": true, "invalid": true,
	"unique": true, "absolute": true, "complete": true, "incomplete": true, "entire": true,
}

// pluralVerbEndings are verbs whose ending is otherwise that of a
// participle, adjective or noun: "Tags represent …", "Headers enter …".
var pluralVerbEndings = map[string]bool{
	"represent": true, "prevent": true, "implement": true, "document": true, "augment": true,
	"comment": true, "invent": true, "grant": true, "want": true, "enter": true, "filter": true,
	"order": true, "render": true, "alter": true, "gather": true, "cover": true, "deliver": true,
	"offer": true, "answer": true, "register": true, "trigger": true, "consider": true,
	"remember": true, "number": true, "differ": true, "refer": true, "defer": true, "infer": true,
	"transfer": true, "prefer": true, "open": true, "listen": true, "happen": true,
	"govern": true, "need": true, "feed": true, "exceed": true, "proceed": true, "succeed": true,
	"seed": true, "embed": true, "shed": true, "apply": true, "supply": true, "reply": true,
	"bring": true, "give": true, "drive": true, "receive": true, "derive": true,
	"arrive": true, "archive": true, "live": true, "enable": true, "disable": true,
	"double": true, "bundle": true, "handle": true, "assemble": true, "resemble": true,
	"toggle": true, "scramble": true, "label": true, "reveal": true, "appeal": true,
	"request": true, "suggest": true, "test": true, "ingest": true, "digest": true, "nest": true,
}
