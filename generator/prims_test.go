package generator

import (
	"go/ast"
	"go/token"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestParseDirectiveLine(t *testing.T) {
	known := map[string]string{"uri": "value", "name": "value", "title": "value", "subscribe": "flag"}
	for _, c := range []struct {
		text  string
		keys  map[string]string // key → value as parsed
		diags []string          // "col: message" fragments
	}{
		{text: `//mcp:resource uri=notes://{id} subscribe`, keys: map[string]string{"uri": "notes://{id}", "subscribe": ""}},
		{text: `//mcp:resource	uri="a b"  name=x`, keys: map[string]string{"uri": "a b", "name": "x"}},
		{text: `//mcp:resource uri=x uri=y`, keys: map[string]string{"uri": "x"}, diags: []string{"22: //mcp:resource: uri given twice"}},
		{text: `//mcp:resource name= uri=x`, keys: map[string]string{"uri": "x"}, diags: []string{"16: //mcp:resource: name needs a value"}},
		{text: `//mcp:resource subscribe=maybe`, keys: map[string]string{}, diags: []string{"16: //mcp:resource: subscribe=maybe: want true or false"}},
		{text: `//mcp:resource subscribe=false`, keys: map[string]string{"subscribe": "false"}},
		{text: `//mcp:resource title=All my notes subscribe`, keys: map[string]string{"title": "All my notes", "subscribe": ""}, diags: []string{`16: //mcp:resource: title=All my notes: a value with spaces must be quoted: title="All my notes"`}},
		{text: `//mcp:resource title=x subscirbe`, keys: map[string]string{"title": "x"}, diags: []string{`24: //mcp:resource: unknown key "subscirbe"`}},
		{text: `//mcp:resource name=x nope`, keys: map[string]string{"name": "x"}, diags: []string{`23: //mcp:resource: unknown key "nope"`}},
		{text: `//mcp:resource colour=red`, keys: map[string]string{}, diags: []string{`16: //mcp:resource: unknown key "colour" (known: K)`}},
		{text: `//mcp:resource uri="unterminated`, keys: map[string]string{}, diags: []string{"20: //mcp:resource: uri: unterminated or invalid quoted string"}},
	} {
		fset := token.NewFileSet()
		f := fset.AddFile("d.go", -1, len(c.text)+1)
		f.SetLines([]int{0})
		com := &ast.Comment{Slash: token.Pos(f.Base()), Text: c.text}
		line, diags := parseDirectiveLine(fset, com, known, "K")
		got := map[string]string{}
		for _, kv := range line.Keys {
			got[kv.Key] = kv.Value
		}
		if !reflect.DeepEqual(got, c.keys) {
			t.Errorf("%s: keys %v, want %v", c.text, got, c.keys)
		}
		var gotDiags []string
		for _, d := range diags {
			gotDiags = append(gotDiags, strings.TrimPrefix(d.String(), "d.go:1:"))
		}
		if len(gotDiags) != len(c.diags) {
			t.Errorf("%s: diagnostics %q, want %q", c.text, gotDiags, c.diags)
			continue
		}
		for i := range c.diags {
			if !strings.HasPrefix(gotDiags[i], c.diags[i]) {
				t.Errorf("%s: diagnostic %q, want %q", c.text, gotDiags[i], c.diags[i])
			}
		}
	}
}

func TestTemplateVariables(t *testing.T) {
	for _, c := range []struct {
		tmpl     string
		optional []string
		offsets  map[string]int
	}{
		{tmpl: "notes://{id}", offsets: map[string]int{"id": 9, "nope": 0}},
		{tmpl: "file:///{+path}{?rev,limit}", optional: []string{"limit", "rev"}, offsets: map[string]int{"path": 10, "rev": 17, "limit": 21}},
		{tmpl: "x://{a}/{b*}{?c:3}{&d}", optional: []string{"c", "d"}, offsets: map[string]int{"a": 5, "b": 9, "c": 14, "d": 20}},
		{tmpl: "notes://notes/{notes}", offsets: map[string]int{"notes": 15}},
	} {
		var opt []string
		for v := range queryVars(c.tmpl) {
			opt = append(opt, v)
		}
		if strings.Join(slices.Sorted(slices.Values(opt)), ",") != strings.Join(c.optional, ",") {
			t.Errorf("queryVars(%s) = %v, want %v", c.tmpl, opt, c.optional)
		}
		for name, want := range c.offsets {
			if got := varOffset(c.tmpl, name); got != want {
				t.Errorf("varOffset(%s, %s) = %d, want %d", c.tmpl, name, got, want)
			}
		}
	}
}

// The keys of //mcp:tool and of the other directives are split by one
// tokenizer, directiveKeys: the same text after the prefix gives the same
// keys, values and syntax diagnostics, whatever the prefix.
func TestDirectiveKeys(t *testing.T) {
	type key struct {
		key, value string
		col        int
		hasValue   bool
	}
	for _, c := range []struct {
		rest  string // after the prefix
		keys  []key
		diags []string // "col: message", the prefix written P
	}{
		{rest: ` a=1  b	c=x`, keys: []key{{"a", "1", 2, true}, {"b", "", 7, false}, {"c", "x", 9, true}}},
		{rest: ` title="Say \"hi\"" readonly`, keys: []key{{"title", `Say "hi"`, 2, true}, {"readonly", "", 21, false}}},
		{rest: " title=`raw`", keys: []key{{"title", "raw", 2, true}}},
		{rest: ` name=`, keys: []key{{"name", "", 2, true}}},
		{rest: ``},
		{rest: `   `},
		{rest: ` title=Search files readonly`, keys: []key{{"title", "Search files", 2, true}, {"readonly", "", 21, false}},
			diags: []string{`2: P: title=Search files: a value with spaces must be quoted: title="Search files"`}},
		{rest: ` description=Finds it titel=x`, keys: []key{{"description", "Finds it", 2, true}, {"titel", "x", 23, true}},
			diags: []string{`2: P: description=Finds it: a value with spaces must be quoted`}},
		{rest: ` a=1 title="open b=2`, keys: []key{{"a", "1", 2, true}},
			diags: []string{"12: P: title: unterminated or invalid quoted string"}},
	} {
		for _, prefix := range []string{"//mcp:tool", "//mcp:resource"} {
			text := prefix + c.rest
			fset := token.NewFileSet()
			f := fset.AddFile("d.go", -1, len(text)+1)
			f.SetLines([]int{0})
			com := &ast.Comment{Slash: token.Pos(f.Base()), Text: text}
			var diags []Diagnostic
			var got []key
			for kv := range directiveKeys(fset, com, prefix, strings.Split(toolKeys, ", "), isToolFlag, &diags) {
				got = append(got, key{kv.Key, kv.Value, kv.Pos.Column - len(prefix), kv.HasValue})
			}
			if !slices.Equal(got, c.keys) {
				t.Errorf("%s: keys %v, want %v", text, got, c.keys)
			}
			var gotDiags []string
			for _, d := range diags {
				d.Pos.Column -= len(prefix)
				gotDiags = append(gotDiags, strings.ReplaceAll(strings.TrimPrefix(d.String(), "d.go:1:"), prefix+":", "P:"))
			}
			if len(gotDiags) != len(c.diags) {
				t.Errorf("%s: diagnostics %q, want %q", text, gotDiags, c.diags)
				continue
			}
			for i := range c.diags {
				if !strings.HasPrefix(gotDiags[i], c.diags[i]) {
					t.Errorf("%s: diagnostic %q, want %q", text, gotDiags[i], c.diags[i])
				}
			}
		}
	}
}
