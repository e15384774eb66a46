package generator

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"maps"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/invopop/jsonschema"
	"golang.org/x/tools/go/packages"
)

// Limits behind the warnings: what works, but hurts models and clients.
const (
	// maxDescription is the longest description worth sending: some
	// clients and model APIs (OpenAI's function calling among them) cut
	// or reject tool descriptions longer than 1024 characters.
	maxDescription = 1024
	// maxToolName is the longest tool name Claude accepts (64); Cursor's
	// limit is 60 characters.
	maxToolName       = 64
	maxToolNameCursor = 60
)

// lintPackage returns the warnings of one package: comments that look like
// directives but are not, and what the model holds that works but hurts
// the models and clients that see it.
func lintPackage(fset *token.FileSet, pkg *packages.Package, p *Package, output string) Diagnostics {
	var ws Diagnostics
	for _, file := range pkg.Syntax {
		if isOurs(fset, file, output) {
			continue
		}
		ws = append(ws, lintComments(fset, file)...)
	}
	// Fields are the user's to fix only in their own module's files.
	own := func(string) bool { return true }
	if pkg.Module != nil && pkg.Module.Dir != "" {
		dir := pkg.Module.Dir + string(filepath.Separator)
		own = func(file string) bool { return strings.HasPrefix(file, dir) }
	}
	servers := serverNames(fset, pkg, output)
	for _, t := range p.Tools {
		tw := lintTool(fset, t, own)
		if len(tw) == 0 || !strings.HasPrefix(tw[0].Msg, "tool name ") {
			tw = append(tw, lintServerToolName(t, servers)...)
		}
		ws = append(ws, tw...)
	}
	return append(ws, lintOptions(fset, pkg, p, output)...)
}

// serverNames returns the names the package gives runtime.NewServer as
// constants, by the position of the call. The generated file, which calls
// no NewServer, is not searched.
func serverNames(fset *token.FileSet, pkg *packages.Package, output string) map[string]token.Position {
	names := map[string]token.Position{}
	if pkg.TypesInfo == nil {
		return names
	}
	for _, f := range pkg.Syntax {
		if isOurs(fset, f, output) {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 || !isNewServer(pkg.TypesInfo, call) {
				return true
			}
			if tv, ok := pkg.TypesInfo.Types[call.Args[0]]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
				names[constant.StringVal(tv.Value)] = fset.Position(call.Pos())
			}
			return true
		})
	}
	return names
}

// lintServerToolName warns when a tool's name, with the name of a server
// the package creates, is longer than clients accept: Claude Code calls
// the tool mcp__server__tool and accepts 64 characters. (Cursor counts the
// two names together against 60, which a name within Claude's limit
// meets.)
func lintServerToolName(t *Tool, servers map[string]token.Position) Diagnostics {
	var ws Diagnostics
	for _, server := range slices.Sorted(maps.Keys(servers)) {
		claude := "mcp__" + server + "__" + t.Name
		if n := utf8.RuneCountInString(claude); n > maxToolName {
			ws = append(ws, diagf(t.Pos, "tool %q of server %q: Claude Code calls it %s, %d characters, over Claude's %d; shorten the tool's name (name=…) or the server's", t.Name, server, claude, n, maxToolName))
		}
	}
	return ws
}

// nearDirective matches a comment meant as an mcpgen directive but, with
// a space after the slashes, not one: "// mcp:tool", "// mcp: tool".
// ("//mcp: tool" is a directive without a name: an error.)
var nearDirective = regexp.MustCompile(`^//\s+mcp:\s*([a-z]+)\b`)

// lintComments warns about comments that look like directives but, being
// spelled differently, are ignored.
func lintComments(fset *token.FileSet, file *ast.File) Diagnostics {
	var ws Diagnostics
	for _, cg := range file.Comments {
		for _, c := range cg.List {
			m := nearDirective.FindStringSubmatch(c.Text)
			if m == nil {
				continue
			}
			written := strings.TrimSpace(c.Text[:len(m[0])])
			ws = append(ws, diagf(fset.Position(c.Slash), "%q is not a directive and is ignored: write //mcp:%s, with no space after // or the colon", written, m[1]))
		}
	}
	return ws
}

// unknownDirective explains an //mcp: line whose directive mcpgen does
// not know, with the likely fix.
func unknownDirective(text string) string {
	kind := directiveKind(text)
	rest := strings.TrimSpace(strings.TrimPrefix(text, directivePrefix))
	switch {
	case kind == "" && rest != "":
		word, _, _ := strings.Cut(rest, " ")
		return fmt.Sprintf("%q: no space after the colon: write //mcp:%s", text, word)
	case kind == "":
		return "//mcp: without a directive: write //mcp:tool"
	case strings.EqualFold(kind, "tools"):
		return fmt.Sprintf("unknown directive //mcp:%s: write //mcp:tool", kind)
	}
	for _, known := range []string{"tool", "resource", "prompt", "complete", "form"} {
		if strings.EqualFold(kind, known) {
			return fmt.Sprintf("unknown directive //mcp:%s: write //mcp:%s, in lower case", kind, known)
		}
	}
	return fmt.Sprintf("unknown directive //mcp:%s (known: //mcp:tool, //mcp:resource, //mcp:prompt, //mcp:complete, //mcp:form)", kind)
}

// lintTool warns about a tool's name, description and input schema.
// Fields declared in files for which own is false (another module's) are
// left alone.
func lintTool(fset *token.FileSet, t *Tool, own func(file string) bool) Diagnostics {
	var ws Diagnostics
	switch n := utf8.RuneCountInString(t.Name); {
	case n > maxToolName:
		ws = append(ws, diagf(t.Pos, "tool name %q has %d characters: Claude accepts at most %d, Cursor %d, and clients that prefix the server's name (mcp__server__tool) fewer; shorten it with name=…", t.Name, n, maxToolName, maxToolNameCursor))
	case n > maxToolNameCursor:
		ws = append(ws, diagf(t.Pos, "tool name %q has %d characters: Cursor accepts at most %d, and clients that prefix the server's name (mcp__server__tool) fewer; shorten it with name=…", t.Name, n, maxToolNameCursor))
	}
	switch n := utf8.RuneCountInString(t.Description); {
	case n == 0:
		ws = append(ws, diagf(t.Pos, "tool %q has no description, and models choose tools by it: add a doc comment to %s, or description=… to its //mcp:tool line", t.Name, t.Func))
	case n > maxDescription:
		ws = append(ws, diagf(t.Pos, "the description of tool %q has %d characters; some clients and model APIs cut descriptions longer than %d: shorten the doc comment, or set a shorter description=…", t.Name, n, maxDescription))
	}
	if s := t.InputSchema; s != nil {
		if len(s.AnyOf) > 0 || len(s.OneOf) > 0 {
			ws = append(ws, diagf(t.Pos, "the input schema of tool %q has a top-level anyOf or oneOf, which several model providers reject: make the arguments one object", t.Name))
		}
		for _, ref := range inlinableRefs(s) {
			ws = append(ws, diagf(t.Pos, "the input schema of tool %q refers to %s, which is not recursive and could be inlined; some clients do not resolve $ref", t.Name, ref))
		}
	}
	if t.Input != nil {
		l := &shapeLinter{fset: fset, tool: t.Name, own: own, seen: map[types.Type]bool{}}
		l.shape(t.Input, "")
		ws = append(ws, l.ws...)
	}
	return ws
}

// shapeLinter walks the shapes of a tool's arguments.
type shapeLinter struct {
	fset *token.FileSet
	tool string
	own  func(file string) bool
	seen map[types.Type]bool
	ws   Diagnostics
}

func (l *shapeLinter) shape(sh *Shape, path string) {
	if sh == nil {
		return
	}
	if sh.Kind != KindStruct {
		l.shape(sh.Elem, path)
		return
	}
	if l.seen[sh.Type] {
		return
	}
	l.seen[sh.Type] = true
	l.unexportedTagged(sh.Type)
	byName := map[string]*Field{}
	for _, f := range sh.Fields {
		byName[f.Name] = f
	}
	for _, jf := range jsonFields(sh.Type) {
		f := byName[jf.name]
		if f == nil || jf.v == nil {
			continue
		}
		name := jf.name
		if path != "" {
			name = path + "." + name
		}
		if pos := l.fset.Position(jf.v.Pos()); !hasDescription(f.Shape.Schema, enumNoteOf(f.Shape)) && l.own(pos.Filename) {
			l.ws = append(l.ws, diagf(pos, "argument %q of tool %q has no description: add a doc or line comment to field %s, or a jsonschema:\"description=…\" tag", name, l.tool, jf.v.Name()))
		}
		if pos := l.fset.Position(jf.v.Pos()); f.Required && f.Shape.Schema != nil && f.Shape.Schema.Default != nil && l.own(pos.Filename) {
			l.ws = append(l.ws, diagf(pos, "argument %q of tool %q has a default but is required, so the default never applies: add omitempty to its json tag (or make it a pointer), or drop the default", name, l.tool))
		}
		if pos := l.fset.Position(jf.v.Pos()); isDuration(f.Shape) && !saysNanoseconds(f.Shape.Schema) && l.own(pos.Filename) {
			l.ws = append(l.ws, diagf(pos, "argument %q of tool %q is a time.Duration, an integer of nanoseconds in JSON (1s is 1000000000), and its description does not say so, so a model may send seconds: say \"in nanoseconds\" in the comment of field %s, or take a string and parse it with time.ParseDuration", name, l.tool, jf.v.Name()))
		}
		l.shape(f.Shape, name)
	}
}

// unexportedTagged warns about unexported fields with a json tag, which
// encoding/json, and so the tool's arguments, leave out.
func (l *shapeLinter) unexportedTagged(t types.Type) {
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return
	}
	for i := range st.NumFields() {
		v := st.Field(i)
		if v.Exported() || v.Embedded() {
			continue
		}
		tag, ok := reflect.StructTag(st.Tag(i)).Lookup("json")
		pos := l.fset.Position(v.Pos())
		if !ok || tag == "-" || !l.own(pos.Filename) {
			continue
		}
		l.ws = append(l.ws, diagf(pos, "field %s has a json tag but is unexported, so it is no argument of tool %q: export it (%s)", v.Name(), l.tool, exportedName(v.Name())))
	}
}

func exportedName(name string) string {
	r, size := utf8.DecodeRuneInString(name)
	return strings.ToUpper(string(r)) + name[size:]
}

// hasDescription reports whether a property's schema describes it, also
// inside the oneOf that makes a field nullable; the note naming an integer
// enum's values (enumNote) alone does not.
func hasDescription(s *jsonschema.Schema, note string) bool {
	if s == nil {
		return false
	}
	if withoutEnumNote(s.Description, note) != "" {
		return true
	}
	for _, o := range s.OneOf {
		if withoutEnumNote(o.Description, note) != "" {
			return true
		}
	}
	return false
}

// inlinableRefs returns the local references ("#/$defs/Name") of a schema
// whose definitions do not refer back to themselves, directly or through
// others: those could be written in place.
func inlinableRefs(s *jsonschema.Schema) []string {
	defs := s.Definitions
	var out []string
	seen := map[string]bool{}
	for _, ref := range schemaRefs(s) {
		name, ok := strings.CutPrefix(ref, "#/$defs/")
		if !ok || seen[ref] {
			continue
		}
		seen[ref] = true
		if def := defs[name]; def != nil && !reaches(defs, name, map[string]bool{}) {
			out = append(out, ref)
		}
	}
	return out
}

// reaches reports whether definition name refers back to itself.
func reaches(defs jsonschema.Definitions, name string, visiting map[string]bool) bool {
	if visiting[name] {
		return true
	}
	def := defs[name]
	if def == nil {
		return false
	}
	visiting[name] = true
	defer delete(visiting, name)
	for _, ref := range schemaRefs(def) {
		if n, ok := strings.CutPrefix(ref, "#/$defs/"); ok && reaches(defs, n, visiting) {
			return true
		}
	}
	return false
}

// schemaRefs lists the $ref values in a schema, not looking into $defs.
func schemaRefs(s *jsonschema.Schema) []string {
	var out []string
	var walk func(*jsonschema.Schema)
	walk = func(s *jsonschema.Schema) {
		if s == nil {
			return
		}
		if s.Ref != "" {
			out = append(out, s.Ref)
		}
		for _, sub := range [][]*jsonschema.Schema{s.AllOf, s.AnyOf, s.OneOf, s.PrefixItems} {
			for _, x := range sub {
				walk(x)
			}
		}
		walk(s.Not)
		walk(s.Items)
		walk(s.AdditionalProperties)
		walk(s.PropertyNames)
		walk(s.Contains)
		walk(s.If)
		walk(s.Then)
		walk(s.Else)
		if s.Properties != nil {
			for pair := s.Properties.Oldest(); pair != nil; pair = pair.Next() {
				walk(pair.Value)
			}
		}
		if s.PatternProperties != nil {
			for _, x := range s.PatternProperties {
				walk(x)
			}
		}
	}
	walk(s)
	return out
}

// warn passes the warnings of the packages to cfg.Warn, sorted, and keeps
// each package's own with it, for its memo record. Of a package whose
// model is incomplete (failed) only the comments are linted.
func warn(cfg Config, fset *token.FileSet, roots []*packages.Package, pkgs []*Package) {
	if cfg.Warn == nil {
		return
	}
	var ws Diagnostics
	for i, p := range pkgs {
		if p.failed {
			for _, file := range roots[i].Syntax {
				if !isOurs(fset, file, cfg.Output) {
					ws = append(ws, lintComments(fset, file)...)
				}
			}
			continue
		}
		p.warnings = append(lintPackage(fset, roots[i], p, cfg.Output), testFileForms(roots[i], p, cfg.BuildFlags)...)
		p.linted = true
		ws = append(ws, p.warnings...)
	}
	for _, w := range ws.sort() {
		cfg.Warn(w)
	}
}
