package generator

import (
	"strings"
	"testing"
)

func TestUnknownKeyMessage(t *testing.T) {
	for _, c := range []struct {
		key, order string
		want       string // the message after `unknown key "key"`
	}{
		// A typo of up to two edits.
		{"readonyl", toolKeys, `: did you mean "readonly"? (known: ` + toolKeys + ")"},
		{"nme", promptKeyList, `: did you mean "name"? (known: ` + promptKeyList + ")"},
		{"url", resourceKeyList, `: did you mean "uri"? (known: ` + resourceKeyList + ")"},
		{"idempotnet", toolKeys, `: did you mean "idempotent"? (known: ` + toolKeys + ")"},
		// Another spelling: case, snake or kebab case, the MCP hint name.
		{"readOnlyHint", toolKeys, `: did you mean "readonly"? (known: ` + toolKeys + ")"},
		{"open_world", toolKeys, `: did you mean "openworld"? (known: ` + toolKeys + ")"},
		{"Title", toolKeys, `: did you mean "title"? (known: ` + toolKeys + ")"},
		// A prefix, either way round.
		{"desc", toolKeys, `: did you mean "description"? (known: ` + toolKeys + ")"},
		{"subscribes", resourceKeyList, `: did you mean "subscribe"? (known: ` + resourceKeyList + ")"},
		{"time", toolKeys, `: did you mean "timeout"? (known: ` + toolKeys + ")"},
		// Several as likely, or none close: only the list.
		{"de", toolKeys, ` (known: ` + toolKeys + ")"}, // description, destructive
		{"titel", toolKeys, `: did you mean "title"? (known: ` + toolKeys + ")"},
		{"descrptoin", toolKeys, `: did you mean "description"? (known: ` + toolKeys + ")"},
		{"nope", toolKeys, ` (known: ` + toolKeys + ")"}, // two edits from name, a key of four
		{"bogus", toolKeys, ` (known: ` + toolKeys + ")"},
		{"all", resourceKeyList, ` (known: ` + resourceKeyList + ")"}, // two edits from ttl
		{"colour", resourceKeyList, ` (known: ` + resourceKeyList + ")"},
	} {
		got := unknownKeyMessage(c.key, c.order)
		want := `unknown key "` + c.key + `"` + c.want
		if got != want {
			t.Errorf("unknownKeyMessage(%q):\n got %s\nwant %s", c.key, got, want)
		}
	}
}

func TestDidYouMeanTagKey(t *testing.T) {
	flagsAndKeys := append(tagFlags[:len(tagFlags):len(tagFlags)], tagKeys...)
	for _, c := range []struct {
		name  string
		known []string
		want  string
	}{
		{"minimun", tagKeys, `: did you mean "minimum"?`},
		{"maxlength", tagKeys, `: did you mean "maxLength"?`}, // not minLength, two edits away
		{"uniqueitems", tagKeys, `: did you mean "uniqueItems"?`},
		{"requried", flagsAndKeys, `: did you mean "required"?`},
		{"min", tagKeys, ""}, // minLength, minimum, minItems
		{"colour", tagKeys, ""},
		{"uniqueItems", flagsAndKeys, ""}, // a key written as a flag is no typo
	} {
		if got := didYouMean(c.name, c.known); got != c.want {
			t.Errorf("didYouMean(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

// A word of an unquoted title ends the title only when it is surely a
// misspelt key: the looser test of the suggestions would cut prose.
func TestMisspeltKeyIsStrict(t *testing.T) {
	known := strings.Split(resourceKeyList, ", ")
	for w, want := range map[string]bool{
		"all": false, "nice": false, "names": true, "url": true, "subscirbe": true,
		"Mime": true, "uri": false, "notes://x": true, "desc": false,
	} {
		if got := misspeltKey(w, known); got != want {
			t.Errorf("misspeltKey(%q) = %v, want %v", w, got, want)
		}
	}
}
