package generator

import (
	"go/token"
	"go/types"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
)

// snakeCase converts a Go name to snake_case, keeping initialisms whole:
// SearchFiles → search_files, GetHTTPStatus → get_http_status.
func snakeCase(name string) string {
	rs := []rune(name)
	var b strings.Builder
	for i, r := range rs {
		if unicode.IsUpper(r) {
			prevLower := i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]))
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if i > 0 && (prevLower || nextLower && unicode.IsUpper(rs[i-1])) {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// camelCase converts snake, dotted or dashed names to CamelCase:
// search_files → SearchFiles.
func camelCase(name string) string {
	var b strings.Builder
	up := true
	for _, r := range name {
		if r == '_' || r == '-' || r == '.' {
			up = true
			continue
		}
		if up {
			r = unicode.ToUpper(r)
			up = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// reservedParams are identifiers the generated RegisterMCP uses itself.
var reservedParams = map[string]bool{
	"s": true, "ctx": true, "req": true, "d": true, "in": true, "out": true, "err": true,
	"runtime": true, "context": true, "json": true, "regexp": true, "strconv": true,
}

// paramName derives a parameter name from a type name: FS → fs,
// FileServer → fileServer, HTTPClient → httpClient.
func paramName(typeName string) string {
	rs := []rune(typeName)
	n := 0
	for n < len(rs) && unicode.IsUpper(rs[n]) {
		n++
	}
	switch {
	case n == len(rs):
		n = len(rs)
	case n > 1:
		n-- // keep the capital that starts the next word
	}
	for i := 0; i < n; i++ {
		rs[i] = unicode.ToLower(rs[i])
	}
	name := string(rs)
	if token.IsKeyword(name) || reservedParams[name] || name == "_" {
		name += "Recv"
	}
	return name
}

// packageScope returns the names declared at package level in pkg, outside
// the generated file output: the names generated code must not take.
func packageScope(fset *token.FileSet, pkg *types.Package, output string) map[string]bool {
	names := map[string]bool{}
	if pkg == nil {
		return names
	}
	generated := map[string]bool{} // file name → whether mcpgen wrote it, read once per file
	scope := pkg.Scope()
	for _, n := range scope.Names() {
		obj := scope.Lookup(n)
		if pos := fset.Position(obj.Pos()); pos.IsValid() && filepath.Base(pos.Filename) == output {
			ours, ok := generated[pos.Filename]
			if !ok {
				ours = isGeneratedFile(pos.Filename)
				generated[pos.Filename] = ours
			}
			if ours {
				continue
			}
		}
		names[n] = true
	}
	return names
}

// freeName returns base if it is not taken, else base followed by the
// first number that makes it free.
func freeName(base string, taken func(string) bool) string {
	if !taken(base) {
		return base
	}
	for i := 2; ; i++ {
		if n := base + strconv.Itoa(i); !taken(n) {
			return n
		}
	}
}

// localNames are the identifiers generated functions declare inside
// themselves; an import name must differ from each. Numbered locals
// (x0, p1, …) are matched by isNumberedLocal.
var localNames = map[string]bool{
	"s": true, "ctx": true, "req": true, "d": true, "in": true, "out": true, "err": true, "enc": true,
	"v": true, "key": true, "ok": true, "seen": true,
}

// isNumberedLocal reports whether name has the form of a numbered local
// of generated code: one letter and digits.
func isNumberedLocal(name string) bool {
	if len(name) < 2 || name[0] < 'a' || name[0] > 'z' {
		return false
	}
	for _, c := range name[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
