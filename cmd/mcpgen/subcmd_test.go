package main

import "testing"

func TestMistypedCommand(t *testing.T) {
	for _, tt := range []struct{ arg, want string }{
		{"inpsect", "inspect"},
		{"doc", "docs"},
		{"dcos", "docs"},
		{"wacth", "watch"},
		{"int", "init"},
		{"ins", "inspect"},
		{"search", ""},      // a package path without ./, which go list reports
		{"./docs", ""},      // a folder named docs
		{"example.com", ""}, // an import path
		{"-check", ""},
		{"all", ""},
	} {
		if got := mistypedCommand(tt.arg); got != tt.want {
			t.Errorf("mistypedCommand(%q) = %q, want %q", tt.arg, got, tt.want)
		}
	}
}
