package main

import "testing"

func TestStaleMessage(t *testing.T) {
	tests := []struct {
		stale, patterns []string
		want            string
	}{
		{[]string{"mcp_gen.go"}, nil,
			"mcpgen: mcp_gen.go is stale; to update it, run go generate (or this mcpgen command without -check)"},
		{[]string{"search/mcp_gen.go"}, []string{"./..."},
			"mcpgen: search/mcp_gen.go is stale; to update it, run go generate ./... (or this mcpgen command without -check)"},
		{[]string{"a/mcp_gen.go", "b/mcp_gen.go"}, []string{"./a", "./b"},
			"mcpgen: 2 generated files are stale (a/mcp_gen.go, b/mcp_gen.go); to update them, run go generate ./a ./b (or this mcpgen command without -check)"},
		{[]string{"mcp_gen.go (missing)"}, nil,
			"mcpgen: mcp_gen.go is missing; to write it, run go generate (or this mcpgen command without -check)"},
		{[]string{"a/mcp_gen.go", "b/mcp_gen.go (missing)"}, []string{"./..."},
			"mcpgen: 2 generated files are stale (a/mcp_gen.go, b/mcp_gen.go (missing)); to update them, run go generate ./... (or this mcpgen command without -check)"},
	}
	for _, tt := range tests {
		if got := staleMessage(tt.stale, tt.patterns); got != tt.want {
			t.Errorf("staleMessage(%q, %q) =\n%s\nwant\n%s", tt.stale, tt.patterns, got, tt.want)
		}
	}
}
