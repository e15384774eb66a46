package generator

import (
	"go/ast"
	"go/token"
	"strconv"
	"strings"
	"time"
)

// directivePrefix starts every mcpgen directive line.
const directivePrefix = "//mcp:"

// toolDirective is a parsed //mcp:tool line.
type toolDirective struct {
	Pos         token.Position
	Name        string
	Title       string
	Description string
	Annotations Annotations
	Timeout     time.Duration   // timeout=30s; 0 when not given
	set         map[string]bool // keys given, to reject repeats
}

// findDirectives returns the //mcp: lines of a doc comment.
func findDirectives(doc *ast.CommentGroup) []*ast.Comment {
	if doc == nil {
		return nil
	}
	var out []*ast.Comment
	for _, c := range doc.List {
		if strings.HasPrefix(c.Text, directivePrefix) {
			out = append(out, c)
		}
	}
	return out
}

// directiveKind returns the word after //mcp:, e.g. "tool".
func directiveKind(text string) string {
	rest := text[len(directivePrefix):]
	if i := strings.IndexAny(rest, " \t"); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

// parseToolDirective parses "//mcp:tool key=value …". Values may be Go
// quoted strings; a bare boolean key means true.
func parseToolDirective(fset *token.FileSet, c *ast.Comment) (*toolDirective, []Diagnostic) {
	d := &toolDirective{Pos: fset.Position(c.Slash), set: map[string]bool{}}
	const prefix = directivePrefix + "tool"
	var diags []Diagnostic
	for kv := range directiveKeys(fset, c, prefix, strings.Split(toolKeys, ", "), isToolFlag, &diags) {
		if d.set[kv.Key] {
			diags = append(diags, diagf(kv.Pos, "%s: %s given twice", prefix, kv.Key))
			continue
		}
		d.set[kv.Key] = true
		if msg := d.apply(kv.Key, kv.Value, kv.HasValue); msg != "" {
			diags = append(diags, diagf(kv.Pos, "%s: %s", prefix, msg))
		}
	}
	return d, diags
}

// isToolFlag tells whether key is a key of //mcp:tool that takes no value.
func isToolFlag(key string) bool {
	switch key {
	case "readonly", "destructive", "idempotent", "openworld":
		return true
	}
	return false
}

// toolKeys lists the keys of //mcp:tool, for messages.
const toolKeys = "name, title, description, readonly, destructive, idempotent, openworld, timeout"

func (d *toolDirective) apply(key, value string, hasValue bool) string {
	switch key {
	case "name", "title", "description":
		if !hasValue || key == "name" && value == "" {
			return key + " needs a value: " + key + "=…"
		}
		switch key {
		case "name":
			d.Name = value
		case "title":
			d.Title = value
		case "description":
			d.Description = value
		}
		return ""
	case "readonly", "destructive", "idempotent", "openworld":
		b := true
		if hasValue {
			var err error
			if b, err = strconv.ParseBool(value); err != nil {
				return key + "=" + value + ": want true or false"
			}
		}
		p := &b
		switch key {
		case "readonly":
			d.Annotations.ReadOnly = p
		case "destructive":
			d.Annotations.Destructive = p
		case "idempotent":
			d.Annotations.Idempotent = p
		case "openworld":
			d.Annotations.OpenWorld = p
		}
		return ""
	case "timeout":
		t, err := time.ParseDuration(value)
		if !hasValue || err != nil || t <= 0 {
			return "timeout=" + value + ": want a positive duration such as 30s, 500ms or 2m"
		}
		d.Timeout = t
		return ""
	}
	return unknownKeyMessage(key, toolKeys)
}
