// Package searchtool holds the one piece of work that every benchmark server
// shares: the body of the search_files tool. It does no file system work, so
// that the benchmarks measure the protocol stack around it rather than the
// disk.
package searchtool

import "strconv"

// Name is the MCP name of the tool.
const Name = "search_files"

// Description is the tool description every server publishes.
const Description = "Finds files whose name matches a glob pattern."

// DefaultLimit is the value of limit when the caller omits it.
const DefaultLimit = 10

// MinLimit and MaxLimit bound limit.
const (
	MinLimit = 1
	MaxLimit = 100
)

// Result is the text line the tool answers with, e.g.
//
//	found 3 files matching "*.go" (limit 10, recursive=false)
//
// The count is derived from the arguments so that the answer depends on all
// of them without touching the file system.
func Result(pattern string, limit int, recursive bool) string {
	n := min(len(pattern), limit)
	b := make([]byte, 0, 48+len(pattern))
	b = append(b, "found "...)
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, " files matching "...)
	b = strconv.AppendQuote(b, pattern)
	b = append(b, " (limit "...)
	b = strconv.AppendInt(b, int64(limit), 10)
	b = append(b, ", recursive="...)
	b = strconv.AppendBool(b, recursive)
	b = append(b, ')')
	return string(b)
}
