package main

import (
	"testing"
	"testing/fstest"
	"time"

	"github.com/mcpgen/mcpgen/mcptest"
	"github.com/mcpgen/mcpgen/runtime"
)

// The tools tested in-process, through the generated RegisterMCP and the
// runtime, without building or starting the server.

func startFiles(t *testing.T) *mcptest.Client {
	day := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	root := fstest.MapFS{
		"a.go":          {Data: []byte("package a"), ModTime: day},
		"notes.txt":     {Data: []byte("a longer file of notes"), ModTime: day.Add(time.Hour)},
		"sub/b.go":      {Data: []byte("package b"), ModTime: day},
		"sub/deep/c.go": {Data: []byte("package c"), ModTime: day},
	}
	s := runtime.NewServer("files", "0.1.0")
	RegisterMCP(s, &FS{root: root})
	return mcptest.Start(t, s)
}

func TestSearchFilesInProcess(t *testing.T) {
	c := startFiles(t)
	tests := []struct {
		name string
		args any
		want string
	}{
		{"top level only", SearchArgs{Pattern: "*.go"}, "a.go"},
		{"recursive", SearchArgs{Pattern: "*.go", Recursive: true}, "a.go\nsub/b.go\nsub/deep/c.go"},
		{"limit", SearchArgs{Pattern: "*.go", Recursive: true, Limit: 2}, "a.go\nsub/b.go"},
		{"no match", SearchArgs{Pattern: "*.rs"}, `no files match "*.rs"`},
		{"raw JSON, default limit", []byte(`{"pattern":"*.txt"}`), "notes.txt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := c.CallTool(t, "search_files", tt.args).WantOK().Text(); got != tt.want {
				t.Errorf("search_files = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSearchFilesInvalidArguments(t *testing.T) {
	c := startFiles(t)
	c.CallTool(t, "search_files", []byte(`{"limit":500,"recursive":"yes"}`)).WantError(
		"invalid arguments (3 problems):",
		"- limit: must be an integer ≤ 100, got 500",
		"- recursive: must be a boolean, got \"yes\"",
		"- pattern: required property is missing",
	)
	c.CallTool(t, "search_files", SearchArgs{Pattern: "["}).WantError(`pattern "[" is not a valid glob`)
}

func TestListDirInProcess(t *testing.T) {
	c := startFiles(t)
	res := c.CallTool(t, "list_dir", ListArgs{Sort: BySize}).WantOK()
	got := mcptest.Structured[Listing](res)
	if got.Dir != "." || len(got.Entries) != 3 || got.Entries[0].Name != "notes.txt" {
		t.Errorf("list_dir sorted by size = %+v, want notes.txt first of 3", got)
	}
	res.WantStructured(`{"dir":".","entries":[
		{"name":"notes.txt","size":22,"isDir":false,"modified":"2026-01-02T04:04:05Z"},
		{"name":"a.go","size":9,"isDir":false,"modified":"2026-01-02T03:04:05Z"},
		{"name":"sub","size":0,"isDir":true,"modified":"0001-01-01T00:00:00Z"}]}`)

	c.CallTool(t, "list_dir", ListArgs{Dir: "../etc"}).WantError("must be a relative slash-separated path")
	c.CallTool(t, "list_dir", ListArgs{Dir: "missing"}).WantError(`dir "missing" does not exist`)
	c.CallTool(t, "list_dir", ListArgs{Sort: "random"}).WantError("sort: must be one of")
}

// The tools the server lists are those of the committed manifest, which
// mcpgen inspect prints from the source (go test -mcptest.update rewrites
// it).
func TestManifest(t *testing.T) {
	mcptest.Golden(t, "testdata/mcp.json", startFiles(t).Manifest(t))
}
