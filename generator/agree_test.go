package generator_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// checkAgreement holds a generated server's decoders to its own published
// schemas: for arguments derived from the session's calls by random
// mutations, the server must reject a call (an isError result that says
// "invalid arguments") exactly when a JSON Schema 2020-12 validator, with
// formats and content encodings asserted, rejects the arguments. Mutations
// never write null: the decoders read null as "not given" for optional
// fields and as nil for pointers, a deliberate leniency the schemas do not
// show. Arguments that hold a null anywhere are not compared, nor calls
// refused only by a type's own UnmarshalJSON.
func checkAgreement(t *testing.T, s *server, session []byte) {
	t.Helper()
	var list struct {
		Result struct {
			Tools []struct {
				Name        string
				InputSchema json.RawMessage
			}
		}
	}
	if err := json.Unmarshal([]byte(s.call(`{"jsonrpc":"2.0","id":"list","method":"tools/list"}`)), &list); err != nil {
		t.Fatal(err)
	}
	schemas := map[string]*jsonschema.Schema{}
	for _, tool := range list.Result.Tools {
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		c.AssertFormat()
		c.AssertContent()
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(tool.InputSchema))
		if err != nil {
			t.Fatal(err)
		}
		if err := c.AddResource("tool.json", doc); err != nil {
			t.Fatal(err)
		}
		sch, err := c.Compile("tool.json")
		if err != nil {
			t.Fatalf("%s: the input schema does not compile as JSON Schema 2020-12: %v", tool.Name, err)
		}
		schemas[tool.Name] = sch
	}

	// Seeds: the arguments of the session's calls.
	type seed struct {
		tool string
		args any
	}
	var seeds []seed
	for _, line := range strings.Split(string(session), "\n") {
		var req struct {
			Method string
			Params struct {
				Name      string
				Arguments json.RawMessage
			}
		}
		if !strings.HasPrefix(line, "-> ") || json.Unmarshal([]byte(line[3:]), &req) != nil || req.Method != "tools/call" || schemas[req.Params.Name] == nil {
			continue
		}
		var args any = map[string]any{}
		if len(req.Params.Arguments) > 0 {
			json.Unmarshal(req.Params.Arguments, &args)
		}
		seeds = append(seeds, seed{req.Params.Name, args})
	}
	if len(seeds) == 0 {
		t.Fatal("no tools/call in the session to derive arguments from")
	}

	rng := rand.New(rand.NewPCG(1, 2))
	checked, rejected := 0, 0
	for i := range 400 {
		sd := seeds[i%len(seeds)]
		args := clone(sd.args)
		for range 1 + rng.IntN(3) {
			args = mutate(rng, args)
		}
		if containsNull(args) {
			continue // seeds may hold null; see above
		}
		argsJSON, _ := json.Marshal(args)
		var v any
		json.Unmarshal(argsJSON, &v) // the validator wants json.Number-free values
		schemaErr := schemas[sd.tool].Validate(v)

		resp := s.call(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, i, sd.tool, argsJSON))
		var r struct {
			Result *struct {
				Content []struct{ Text string }
				IsError bool
			}
		}
		if err := json.Unmarshal([]byte(resp), &r); err != nil || r.Result == nil {
			t.Fatalf("%s %s: not a result: %s", sd.tool, argsJSON, resp)
		}
		invalid := r.Result.IsError && len(r.Result.Content) > 0 && strings.HasPrefix(r.Result.Content[0].Text, "invalid arguments")
		if r.Result.IsError && !invalid {
			continue // the tool itself failed; nothing to compare
		}
		if invalid && onlySelfDecoded(r.Result.Content[0].Text) {
			continue // a type's own UnmarshalJSON refused it; its schema is {}
		}
		checked++
		if invalid {
			rejected++
		}
		switch {
		case invalid && schemaErr == nil:
			t.Errorf("%s rejected %s, which its schema accepts:\n%s", sd.tool, argsJSON, r.Result.Content[0].Text)
		case !invalid && schemaErr != nil:
			t.Errorf("%s accepted %s, which its schema rejects: %v", sd.tool, argsJSON, schemaErr)
		}
	}
	if checked < 100 || rejected == 0 || rejected == checked {
		t.Errorf("compared %d calls (%d rejected): too few, or all alike", checked, rejected)
	}
}

// onlySelfDecoded reports whether every problem of an "invalid arguments"
// text comes from a value that decodes itself (UnmarshalJSON): what such a
// type accepts is its own business, which its {} schema cannot state.
func onlySelfDecoded(text string) bool {
	_, rest, _ := strings.Cut(text, ":")
	lines := strings.Split(strings.TrimSpace(rest), "\n- ")
	for _, l := range lines {
		if !strings.Contains(l, ": invalid value: ") {
			return false
		}
	}
	return true
}

func containsNull(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case map[string]any:
		for _, e := range x {
			if containsNull(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if containsNull(e) {
				return true
			}
		}
	}
	return false
}

func clone(v any) any {
	b, _ := json.Marshal(v)
	var out any
	json.Unmarshal(b, &out)
	return out
}

// replacements are the values mutations write: every JSON type, numbers
// in and out of common ranges, and strings of each format the tests use.
var replacements = []any{
	"x", "", "purple", "red", "abc", "A", "2026-01-02T03:04:05Z", "yesterday", "aGk=", "%%",
	0.0, 1.0, -1.0, 2.5, 5.0, 7.0, 10.0, 100.0, 101.0, 255.0, 256.0, 300.0, -300.0, 1e10,
	true, false,
	[]any{}, []any{"red"}, []any{1.0, 2.0}, []any{"red", "red"}, []any{map[string]any{"name": "n"}},
	map[string]any{}, map[string]any{"name": "n"}, map[string]any{"x": 1.0},
}

// mutate changes one random place of v: replaces a value, drops or adds a
// property, or drops or repeats an array element.
func mutate(rng *rand.Rand, v any) any {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		switch op := rng.IntN(6); {
		case op == 0 || len(keys) == 0:
			x[fmt.Sprintf("zz%d", rng.IntN(3))] = clone(replacements[rng.IntN(len(replacements))])
		case op == 1:
			delete(x, keys[rng.IntN(len(keys))])
		case op == 2:
			k := keys[rng.IntN(len(keys))]
			x[k] = clone(replacements[rng.IntN(len(replacements))])
		default:
			k := keys[rng.IntN(len(keys))]
			x[k] = mutate(rng, x[k])
		}
		return x
	case []any:
		if len(x) == 0 || rng.IntN(4) == 0 {
			return append(x, clone(replacements[rng.IntN(len(replacements))]))
		}
		i := rng.IntN(len(x))
		switch rng.IntN(3) {
		case 0:
			return append(x[:i:i], x[i+1:]...)
		case 1:
			return append(x, clone(x[i]))
		default:
			x[i] = mutate(rng, x[i])
			return x
		}
	}
	if rng.IntN(2) == 0 {
		return v
	}
	return clone(replacements[rng.IntN(len(replacements))])
}
