package manifest

import (
	"fmt"
	"strings"
	"testing"
)

// tool returns a one-tool manifest whose tool has the given input schema
// and, when out is not "", output schema.
func tool(name, in, out string) Tool {
	t := Tool{Name: name, InputSchema: []byte(in)}
	if out != "" {
		t.OutputSchema = []byte(out)
	}
	return t
}

func obj(props string, required ...string) string {
	req := ""
	if len(required) > 0 {
		req = `,"required":["` + strings.Join(required, `","`) + `"]`
	}
	return fmt.Sprintf(`{"type":"object","properties":{%s}%s,"additionalProperties":false}`, props, req)
}

func TestCompare(t *testing.T) {
	base := obj(`"q":{"type":"string","maxLength":100},"n":{"type":"integer","minimum":1,"maximum":10,"default":5},"mode":{"type":"string","enum":["a","b"]},"tags":{"type":"array","items":{"type":"string"}}`, "q")
	tests := []struct {
		name     string
		old, new []Tool
		want     []string
	}{
		{"identical", []Tool{tool("t", base, "")}, []Tool{tool("t", base, "")}, nil},
		{
			"tool removed and added",
			[]Tool{tool("a", base, ""), tool("b", obj(`"x":{"type":"string"}`), "")},
			[]Tool{tool("a", base, ""), tool("c", obj(`"y":{"type":"string"}`), "")},
			[]string{"breaking: b: tool removed", "compatible: c: tool added"},
		},
		{
			"tool renamed",
			[]Tool{tool("search", base, "")},
			[]Tool{tool("find", base, "")},
			[]string{"breaking: search: tool removed; renamed to find? (same input schema)", "compatible: find: tool added"},
		},
		{
			"argument newly required, one no longer required",
			[]Tool{tool("t", base, "")},
			[]Tool{tool("t", strings.Replace(base, `"required":["q"]`, `"required":["n"]`, 1), "")},
			[]string{"compatible: t: arguments.q: argument no longer required", "breaking: t: arguments.n: argument newly required"},
		},
		{
			"arguments added",
			[]Tool{tool("t", obj(`"a":{"type":"string"}`), "")},
			[]Tool{tool("t", obj(`"a":{"type":"string"},"b":{"type":"string"},"c":{"type":"string"}`, "c"), "")},
			[]string{"compatible: t: arguments.b: optional argument added", "breaking: t: arguments.c: argument added, required"},
		},
		{
			"argument removed from a closed object",
			[]Tool{tool("t", obj(`"a":{"type":"string"},"b":{"type":"string"}`), "")},
			[]Tool{tool("t", obj(`"a":{"type":"string"}`), "")},
			[]string{"breaking: t: arguments.b: argument removed; a client that sends it is now refused"},
		},
		{
			"type changed, type widened",
			[]Tool{tool("t", obj(`"a":{"type":"string"},"b":{"type":"integer"}`), "")},
			[]Tool{tool("t", obj(`"a":{"type":"integer"},"b":{"type":"number"}`), "")},
			[]string{"breaking: t: arguments.a: type changed from string to integer", "compatible: t: arguments.b: type widened from integer to number"},
		},
		{
			"array item type changed",
			[]Tool{tool("t", obj(`"a":{"type":"array","items":{"type":"string"}}`), "")},
			[]Tool{tool("t", obj(`"a":{"type":"array","items":{"type":"boolean"}}`), "")},
			[]string{"breaking: t: arguments.a[]: type changed from string to boolean"},
		},
		{
			"enum narrowed and widened",
			[]Tool{tool("t", obj(`"m":{"type":"string","enum":["a","b"]}`), "")},
			[]Tool{tool("t", obj(`"m":{"type":"string","enum":["b","c"]}`), "")},
			[]string{`breaking: t: arguments.m: enum narrowed: "a" removed`, `compatible: t: arguments.m: enum widened: "c" added`},
		},
		{
			"enum added",
			[]Tool{tool("t", obj(`"m":{"type":"string"}`), "")},
			[]Tool{tool("t", obj(`"m":{"type":"string","enum":["a"]}`), "")},
			[]string{`breaking: t: arguments.m: now restricted to the values "a"`},
		},
		{
			"bounds tightened and loosened",
			[]Tool{tool("t", obj(`"n":{"type":"integer","minimum":1,"maximum":10},"s":{"type":"string","maxLength":100}`), "")},
			[]Tool{tool("t", obj(`"n":{"type":"integer","minimum":0,"maximum":5},"s":{"type":"string","maxLength":100,"minLength":2}`), "")},
			[]string{
				"compatible: t: arguments.n: minimum lowered from 1 to 0 (bound loosened)",
				"breaking: t: arguments.n: maximum lowered from 10 to 5 (bound tightened)",
				"breaking: t: arguments.s: minLength 2 added (bound tightened)",
			},
		},
		{
			"bounds compared as numbers",
			[]Tool{tool("t", obj(`"n":{"type":"number","maximum":1e2}`), "")},
			[]Tool{tool("t", obj(`"n":{"type":"number","maximum":100.0}`), "")},
			nil,
		},
		{
			"pattern, uniqueItems",
			[]Tool{tool("t", obj(`"s":{"type":"string"},"l":{"type":"array","items":{"type":"string"}}`), "")},
			[]Tool{tool("t", obj(`"s":{"type":"string","pattern":"^a"},"l":{"type":"array","items":{"type":"string"},"uniqueItems":true}`), "")},
			[]string{`breaking: t: arguments.s: pattern "^a" added`, "breaking: t: arguments.l: uniqueItems changed from false to true"},
		},
		{
			"additionalProperties closed",
			[]Tool{tool("t", `{"type":"object","properties":{"a":{"type":"string"}}}`, "")},
			[]Tool{tool("t", `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`, "")},
			[]string{"breaking: t: arguments: additionalProperties closed: properties not listed are now refused"},
		},
		{
			"nested object argument",
			[]Tool{tool("t", obj(`"o":`+obj(`"x":{"type":"string"}`)), "")},
			[]Tool{tool("t", obj(`"o":`+obj(`"x":{"type":"string"},"y":{"type":"string"}`, "y")), "")},
			[]string{"breaking: t: arguments.o.y: argument added, required"},
		},
		{
			"default changed",
			[]Tool{tool("t", obj(`"n":{"type":"integer","default":5}`), "")},
			[]Tool{tool("t", obj(`"n":{"type":"integer","default":10}`), "")},
			[]string{"compatible: t: arguments.n: default changed from 5 to 10"},
		},
		{
			"output field removed, added, no longer required",
			[]Tool{tool("t", obj(``), obj(`"a":{"type":"string"},"b":{"type":"string"},"c":{"type":"array","items":`+obj(`"d":{"type":"string"}`)+`}`, "a", "b"))},
			[]Tool{tool("t", obj(``), obj(`"b":{"type":"string"},"c":{"type":"array","items":`+obj(`"e":{"type":"string"}`)+`},"f":{"type":"integer"}`))},
			[]string{
				"breaking: t: result.a: field removed",
				"breaking: t: result.b: field no longer always present",
				"breaking: t: result.c[].d: field removed",
				"compatible: t: result.c[].e: field added",
				"compatible: t: result.f: field added",
			},
		},
		{
			"output enum widened, output type narrowed",
			[]Tool{tool("t", obj(``), obj(`"s":{"type":"string","enum":["a"]},"n":{"type":"number"}`))},
			[]Tool{tool("t", obj(``), obj(`"s":{"type":"string","enum":["a","b"]},"n":{"type":"integer"}`))},
			[]string{`breaking: t: result.s: enum widened: "b" added`, "compatible: t: result.n: type widened from number to integer"},
		},
		{
			"structured result removed",
			[]Tool{tool("t", obj(``), obj(`"a":{"type":"string"}`))},
			[]Tool{tool("t", obj(``), "")},
			[]string{"breaking: t: result: structured result removed (no outputSchema)"},
		},
		{
			"recursive types through $defs",
			[]Tool{tool("t", `{"$defs":{"Node":{"type":"object","properties":{"name":{"type":"string"},"kids":{"type":"array","items":{"$ref":"#/$defs/Node"}}}}},"type":"object","properties":{"root":{"$ref":"#/$defs/Node"}}}`, "")},
			[]Tool{tool("t", `{"$defs":{"Node":{"type":"object","properties":{"name":{"type":"integer"},"kids":{"type":"array","items":{"$ref":"#/$defs/Node"}}}}},"type":"object","properties":{"root":{"$ref":"#/$defs/Node"}}}`, "")},
			[]string{"breaking: t: arguments.root.name: type changed from string to integer"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			changes, err := Compare(&Manifest{Tools: tt.old}, &Manifest{Tools: tt.new})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range changes {
				got = append(got, c.String())
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("changes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestCompareAnnotationsAndText(t *testing.T) {
	yes, no := true, false
	old := &Manifest{Tools: []Tool{{Name: "t", Title: "T", Description: "Does.", InputSchema: []byte(obj(``)), Annotations: &Annotations{ReadOnlyHint: &yes}}}}
	new := &Manifest{Tools: []Tool{{Name: "t", Title: "Tee", Description: "Does more.", InputSchema: []byte(obj(``)), Annotations: &Annotations{ReadOnlyHint: &no}}}}
	changes, err := Compare(old, new)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range changes {
		got = append(got, c.String())
	}
	want := `compatible: t: title changed from "T" to "Tee"
compatible: t: description changed
compatible: t: hints changed from "read-only" to "not read-only"`
	if strings.Join(got, "\n") != want {
		t.Errorf("changes:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
}
