package generator

import (
	"cmp"
	"fmt"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
)

// Diagnostic is one problem found in the user's code, at a source position.
type Diagnostic struct {
	Pos token.Position
	Msg string
}

// String formats the diagnostic as file:line:col: message.
func (d Diagnostic) String() string {
	if !d.Pos.IsValid() {
		if d.Pos.Filename != "" {
			return d.Pos.Filename + ": " + d.Msg
		}
		return d.Msg
	}
	return d.Pos.String() + ": " + d.Msg
}

// Diagnostics is a list of problems; it is the error Generate returns when
// the user's code needs fixing.
type Diagnostics []Diagnostic

// Error lists every diagnostic, one per line.
func (ds Diagnostics) Error() string {
	lines := make([]string, len(ds))
	for i, d := range ds {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}

// sort orders diagnostics by file, line and column and drops exact repeats.
func (ds Diagnostics) sort() Diagnostics {
	slices.SortStableFunc(ds, func(a, b Diagnostic) int {
		return cmp.Or(
			cmp.Compare(a.Pos.Filename, b.Pos.Filename),
			cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Column, b.Pos.Column),
			cmp.Compare(a.Msg, b.Msg))
	})
	return slices.Compact(ds)
}

// Relative returns the diagnostics with file names relative to dir where
// that is shorter, as compilers print them.
func (ds Diagnostics) Relative(dir string) Diagnostics {
	out := make(Diagnostics, len(ds))
	for i, d := range ds {
		if rel, err := filepath.Rel(dir, d.Pos.Filename); err == nil && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && d.Pos.Filename != "" {
			d.Pos.Filename = rel
		}
		out[i] = d
	}
	return out
}

// diagf makes a Diagnostic.
func diagf(pos token.Position, format string, args ...any) Diagnostic {
	return Diagnostic{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}
