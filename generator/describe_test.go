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
	}
	for _, tt := range tests {
		if got := toolDescription(tt.fn, tt.doc); got != tt.want {
			t.Errorf("toolDescription(%q, %q) = %q, want %q", tt.fn, tt.doc, got, tt.want)
		}
	}
}
