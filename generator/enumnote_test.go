package generator_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generator"
)

// The schema of an integer enum from constants names its values at the
// end of the description, wherever the description comes from; a tag's
// own enum, a string enum and a type without constants get no names; the
// names alone are no description for the warning about a field without
// one.
func TestIntegerEnumNames(t *testing.T) {
	mod := generator.TestModule(t, "enums", nil)
	generator.WriteTestFile(t, filepath.Join(mod, "p", "p.go"), "package p\n\n"+
		"// Level is how loud.\ntype Level int\n\nconst (\n\tLow Level = iota\n\tHigh\n\tLoud = High // the same value: its first name counts\n)\n\n"+
		"// Mode is a mode.\ntype Mode string\n\nconst (\n\tFast Mode = \"fast\"\n\tSlow Mode = \"slow\"\n)\n\n"+
		"// Count is a plain number.\ntype Count int\n\n"+
		"// Args are the arguments.\ntype Args struct {\n"+
		"\t// Level is the level of the log.\n\tLevel Level `json:\"level\"`\n"+
		"\tTyped Level `json:\"typed\"`\n"+
		"\tTagged Level `json:\"tagged\" jsonschema:\"description=Set by a tag\"`\n"+
		"\t// Only is a subset.\n\tOnly Level `json:\"only\" jsonschema:\"enum=1\"`\n"+
		"\t// Ptr may be left out.\n\tPtr *Level `json:\"ptr,omitempty\"`\n"+
		"\t// Quoted is a string.\n\tQuoted Level `json:\"quoted,string\"`\n"+
		"\t// Levels are several.\n\tLevels []Level `json:\"levels\"`\n"+
		"\t// Mode is the mode.\n\tMode Mode `json:\"mode\"`\n"+
		"\t// Count counts.\n\tCount Count `json:\"count\"`\n"+
		"}\n\n"+
		"type Quiet int\n\nconst (\n\tHush Quiet = iota\n\tWhisper\n)\n\n"+
		"// Bare has an enum field described by neither its doc nor its type's.\ntype Bare struct {\n\tQuiet Quiet `json:\"quiet\"`\n}\n\n"+
		"// Set sets.\n//\n//mcp:tool\nfunc Set(in Args) error { return nil }\n\n"+
		"// Plain sets.\n//\n//mcp:tool\nfunc Plain(in struct{ Bare }) error { return nil }\n")

	var warned []string
	pkgs, err := generator.Load(generator.Config{Dir: mod, Patterns: []string{"./..."}, Warn: func(d generator.Diagnostic) {
		warned = append(warned, d.Msg)
	}})
	if err != nil {
		t.Fatal(err)
	}
	descs := map[string]string{}
	for _, tool := range pkgs[0].Tools {
		raw, err := json.Marshal(tool.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var s struct {
			Properties map[string]struct {
				Description string
				Items       struct{ Description string }
			}
		}
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatal(err)
		}
		for name, p := range s.Properties {
			descs[tool.Name+"."+name] = p.Description
			if p.Items.Description != "" {
				descs[tool.Name+"."+name+"[]"] = p.Items.Description
			}
		}
	}
	const note = "0 (Low), 1 (High)"
	for prop, want := range map[string]string{
		"set.level":    "The level of the log.\n\n" + note,
		"set.typed":    "How loud.\n\n" + note,
		"set.tagged":   "Set by a tag\n\n" + note,
		"set.only":     "A subset.",
		"set.ptr":      "May be left out.\n\n" + note,
		"set.quoted":   "A string.\n\n" + note,
		"set.levels":   "Several.",
		"set.levels[]": "How loud.\n\n" + note,
		"set.mode":     "The mode.",
		"set.count":    "Counts.",
		"plain.quiet":  "0 (Hush), 1 (Whisper)",
	} {
		if got := descs[prop]; got != want {
			t.Errorf("description of %s = %q, want %q", prop, got, want)
		}
	}
	// The names alone are no description; a type's doc is one.
	want := `argument "quiet" of tool "plain" has no description: add a doc or line comment to field Quiet, or a jsonschema:"description=…" tag`
	var args []string
	for _, w := range warned {
		if strings.HasPrefix(w, "argument ") && strings.Contains(w, "no description") {
			args = append(args, w)
		}
	}
	if len(args) != 1 || args[0] != want {
		t.Errorf("warnings about arguments without a description:\n\t%s\nwant\n\t%s", strings.Join(args, "\n\t"), want)
	}
}
