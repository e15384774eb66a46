package generator

import "testing"

func TestToolDescription(t *testing.T) {
	tests := []struct {
		fn, doc, want string
	}{
		{"SearchFiles", "SearchFiles finds files by glob.\n", "Finds files by glob."},
		{"SearchFiles", "SearchFiles  returns\nthe matches.", "Returns\nthe matches."},
		{"Greet", "Greet greets someone.", "Greets someone."},
		{"Greet", "Says hello.", "Says hello."},                                 // no leading name
		{"Greet", "Greeter greets.", "Greeter greets."},                         // another identifier
		{"Greet", "Greet is the greeting tool.", "Greet is the greeting tool."}, // "be": kept
		{"Greet", "Greet has no verb here.", "Greet has no verb here."},
		{"Greet", "Greet, then leave.", "Greet, then leave."},
		{"Greet", "Greet Ada politely.", "Greet Ada politely."}, // no lower-case verb
		{"Greet", "Greet", "Greet"},
		{"Greet", "", ""},
		{"Greet", "Greet écrit.", "Écrit."},
		{"Search", "Search for files by name.", "Search for files by name."}, // a preposition, not a verb
		{"Weather", "Weather in a city.", "Weather in a city."},
		{"Greet", "Greet\ngreets someone.", "Greets someone."},
	}
	for _, tt := range tests {
		if got := toolDescription(tt.fn, tt.doc); got != tt.want {
			t.Errorf("toolDescription(%q, %q) = %q, want %q", tt.fn, tt.doc, got, tt.want)
		}
	}
}

func TestFieldDescription(t *testing.T) {
	tests := []struct {
		field, doc, want string
	}{
		// The Go name and "is"/"are" dropped.
		{"Pattern", "Pattern is the glob pattern to match.", "The glob pattern to match."},
		{"Tags", "Tags are the labels to filter by.\n", "The labels to filter by."},
		{"Limit", "Limit is optional; 0 means no limit.", "Optional; 0 means no limit."},
		{"Limit", "Limit is 10 when unset.", "10 when unset."},
		{"Root", "Root is\nthe folder to search.", "The folder to search."},
		// The Go name before a verb dropped.
		{"Limit", "Limit caps the number of results.", "Caps the number of results."},
		{"Verbose", "Verbose enables logging.", "Enables logging."},
		{"Limit", "Limit must be positive.", "Must be positive."},
		{"Limit", "Limit defaults to 10.", "Defaults to 10."},
		// A plural Go name dropped before a plain verb.
		{"Tags", "Tags filter the results.", "Filter the results."},
		{"Headers", "Headers map names to values.", "Map names to values."},
		{"IDs", "IDs select the notes to delete.", "Select the notes to delete."},
		{"Files", "Files default to every file.", "Default to every file."},
		{"Labels", "Labels apply to new notes only.", "Apply to new notes only."},
		{"Tags", "Tags represent the note's topics.", "Represent the note's topics."},
		{"Patterns", "Patterns must match the whole name.", "Must match the whole name."},
		{"Items", "Items contains one entry per file.", "Contains one entry per file."},
		// The Go name before a comma or colon dropped.
		{"Pattern", "Pattern, if set, restricts the results.", "If set, restricts the results."},
		{"Pattern", "Pattern: the glob to match.", "The glob to match."},
		{"Pattern", "Pattern: *.go or similar.", "*.go or similar."},
		// Noun phrases and other sentences kept as written.
		{"Path", "Path to the file.", "Path to the file."},
		{"Name", "Name of the user.", "Name of the user."},
		{"Query", "Query string to search for.", "Query string to search for."},
		{"Page", "Page number, from 1.", "Page number, from 1."},
		{"Class", "Class class of the item.", "Class class of the item."},
		{"Timeout", "Timeout as a Go duration.", "Timeout as a Go duration."},
		{"Items", "Items has one entry per file.", "Items has one entry per file."},
		{"Pattern", "Pattern, Limit and Sort are optional.", "Pattern, Limit and Sort are optional."},
		{"Pattern", "The glob pattern to match.", "The glob pattern to match."},
		{"Pattern", "pattern is the glob.", "pattern is the glob."},
		{"Pattern", "Patterns to match.", "Patterns to match."},
		{"Pattern", "Pattern's syntax is path.Match's.", "Pattern's syntax is path.Match's."},
		{"Pattern", "Pattern Glob.", "Pattern Glob."},
		{"Pattern", "Pattern is, by default, *.", "Pattern is, by default, *."},
		// A plural Go name kept in noun phrases, before what is not its
		// verb, and before a word that only looks like one.
		{"Tags", "Tags to apply.", "Tags to apply."},
		{"Tags", "Tags separated by commas.", "Tags separated by commas."},
		{"Files", "Files matching the pattern.", "Files matching the pattern."},
		{"Paths", "Paths relative to the root.", "Paths relative to the root."},
		{"Values", "Values greater than zero.", "Values greater than zero."},
		{"Tags", "Tags such as draft or done.", "Tags such as draft or done."},
		{"Tags", "Tags given by the user.", "Tags given by the user."},
		{"Tags", "Tags set by the user.", "Tags set by the user."},
		{"Tags", "Tags optionally filter the results.", "Tags optionally filter the results."},
		{"Tags", "Tags like draft.", "Tags like draft."},
		{"Items", "Items have no order.", "Items have no order."},
		{"Tags", "Tags filter, comma-separated.", "Tags filter, comma-separated."},
		{"Tags", "Tags Alpha and Beta.", "Tags Alpha and Beta."},
		{"Tags", "Tags only of the first page.", "Tags only of the first page."},
		{"Tags", "Tags list_items returns.", "Tags list_items returns."},
		// A singular name whose verb has no "s" is no sentence: kept.
		{"Status", "Status code of the response.", "Status code of the response."},
		{"Address", "Address line of the user.", "Address line of the user."},
		{"Basis", "Basis point value.", "Basis point value."},
		{"Alias", "Alias name to use.", "Alias name to use."},
		{"Limit", "Limit filter the results.", "Limit filter the results."},
		// Never empty.
		{"Pattern", "Pattern", "Pattern"},
		{"Pattern", "Pattern is", "Pattern is"},
		{"Pattern", "Pattern is ", "Pattern is"},
		{"Pattern", "Pattern: ", "Pattern:"},
		{"Pattern", "Pattern, ", "Pattern,"},
		{"Pattern", "", ""},
	}
	for _, tt := range tests {
		got := fieldDescription(tt.field, tt.doc)
		if got != tt.want {
			t.Errorf("fieldDescription(%q, %q) = %q, want %q", tt.field, tt.doc, got, tt.want)
		}
		if got == "" && tt.doc != "" {
			t.Errorf("fieldDescription(%q, %q) is empty", tt.field, tt.doc)
		}
	}
}

// TestTypeDescription: a named type's doc loses its leading Go name as a
// field's does, since the model never sees the type's name either.
func TestTypeDescription(t *testing.T) {
	tests := []struct {
		typeName, doc, want string
	}{
		{"SearchArgs", "SearchArgs are the arguments of search_files.", "The arguments of search_files."},
		{"Sort", "Sort orders the entries.", "Orders the entries."},
		{"Level", "Level is how much to log.", "How much to log."},
		{"Entry", "Entry describes one file.", "Describes one file."},
		{"Entry", "A file or a folder.", "A file or a folder."},
		{"Entry", "Entry of a folder listing.", "Entry of a folder listing."},
		{"Entry", "Entry", "Entry"},
		{"Options", "Options configure the server.", "Configure the server."},
		{"Options", "Options for the server.", "Options for the server."},
		{"Items", "Items is list_items' answer.", "Items is list_items' answer."},
	}
	for _, tt := range tests {
		if got := typeDescription(tt.typeName, tt.doc); got != tt.want {
			t.Errorf("typeDescription(%q, %q) = %q, want %q", tt.typeName, tt.doc, got, tt.want)
		}
	}
}
