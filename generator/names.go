package generator

import (
	"go/token"
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
