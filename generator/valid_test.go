package generator_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// checkValidInstances is the converse of checkAgreement: arguments drawn at
// random from each tool's published input schema, and accepted by a JSON
// Schema 2020-12 validator, must be accepted by the server's decoder. A
// call refused only by a type's own UnmarshalJSON (schema {}) is left out,
// as there.
func checkValidInstances(t *testing.T, s *server) {
	t.Helper()
	var list struct {
		Result struct {
			Tools []struct {
				Name        string
				InputSchema json.RawMessage
			}
		}
	}
	if err := json.Unmarshal([]byte(s.call(`{"jsonrpc":"2.0","id":"list-valid","method":"tools/list"}`)), &list); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	id := 0
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
		validator, err := c.Compile("tool.json")
		if err != nil {
			t.Fatalf("%s: the input schema does not compile: %v", tool.Name, err)
		}
		var root map[string]any
		if err := json.Unmarshal(tool.InputSchema, &root); err != nil {
			t.Fatal(err)
		}
		g := &instanceGen{rng: rng, root: root}
		sent := 0
		for range 150 {
			args, ok := g.value(root, 0)
			if !ok {
				continue
			}
			argsJSON, _ := json.Marshal(args)
			var v any
			json.Unmarshal(argsJSON, &v)
			if validator.Validate(v) != nil {
				continue // the generator does not know every keyword's corner
			}
			sent++
			id++
			resp := s.call(fmt.Sprintf(`{"jsonrpc":"2.0","id":"valid-%d","method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, tool.Name, argsJSON))
			var r struct {
				Result *struct {
					Content []struct{ Text string }
					IsError bool
				}
			}
			if err := json.Unmarshal([]byte(resp), &r); err != nil || r.Result == nil {
				t.Fatalf("%s %s: not a result: %s", tool.Name, argsJSON, resp)
			}
			if r.Result.IsError && len(r.Result.Content) > 0 && strings.HasPrefix(r.Result.Content[0].Text, "invalid arguments") &&
				!onlySelfDecoded(r.Result.Content[0].Text) {
				t.Errorf("%s rejected %s, which its schema accepts:\n%s", tool.Name, argsJSON, r.Result.Content[0].Text)
			}
		}
		if sent < 50 {
			t.Errorf("%s: only %d of 150 generated arguments were valid; the generator misses a keyword of %s", tool.Name, sent, tool.InputSchema)
		}
	}
}

// instanceGen draws JSON values that a schema probably accepts.
type instanceGen struct {
	rng  *rand.Rand
	root map[string]any
}

// stringPool holds candidates for strings with a pattern: the generator
// picks those that match.
var stringPool = []string{
	"", "a", "ab", "abc", "hello", "x1", "A", "ABC", "red", "0", "7", "-3", "42", "255", "007", "1.5", "-0.25", "2e3",
	"true", "false", "null", `"q"`, `"a\"b"`, `""`, "2026-01-02T03:04:05Z", "aGk=", "*.go",
}

func (g *instanceGen) value(s map[string]any, depth int) (any, bool) {
	if ref, ok := s["$ref"].(string); ok {
		name := strings.TrimPrefix(ref, "#/$defs/")
		defs, _ := g.root["$defs"].(map[string]any)
		d, _ := defs[name].(map[string]any)
		if d == nil || depth > 4 {
			return nil, false
		}
		return g.value(d, depth+1)
	}
	if one, ok := s["oneOf"].([]any); ok && len(one) > 0 {
		sub, _ := one[g.rng.IntN(len(one))].(map[string]any)
		return g.value(sub, depth)
	}
	if enum, ok := s["enum"].([]any); ok && len(enum) > 0 {
		return enum[g.rng.IntN(len(enum))], true
	}
	switch s["type"] {
	case "object":
		return g.object(s, depth)
	case "array":
		return g.array(s, depth)
	case "string":
		return g.str(s)
	case "integer":
		return g.number(s, true)
	case "number":
		return g.number(s, false)
	case "boolean":
		return g.rng.IntN(2) == 0, true
	case "null":
		return nil, true
	case nil:
		// No constraint: any JSON value.
		return []any{1.0, "s", true, nil, []any{}, map[string]any{}}[g.rng.IntN(6)], true
	}
	return nil, false
}

func (g *instanceGen) object(s map[string]any, depth int) (any, bool) {
	out := map[string]any{}
	required, _ := s["required"].([]any)
	props, _ := s["properties"].(map[string]any)
	names := make([]string, 0, len(props))
	for k := range props {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, name := range names {
		req := slices.Contains(required, any(name))
		if !req && g.rng.IntN(3) == 0 {
			continue
		}
		sub, _ := props[name].(map[string]any)
		v, ok := g.value(sub, depth+1)
		if !ok {
			if req {
				return nil, false
			}
			continue
		}
		out[name] = v
	}
	if add, ok := s["additionalProperties"].(map[string]any); ok && depth < 6 {
		var pattern *regexp.Regexp
		if pn, ok := s["propertyNames"].(map[string]any); ok {
			if p, ok := pn["pattern"].(string); ok {
				pattern = regexp.MustCompile(p)
			}
		}
		for range g.rng.IntN(3) {
			key := stringPool[g.rng.IntN(len(stringPool))]
			if key == "" && pattern == nil {
				key = "k"
			}
			if pattern != nil && !pattern.MatchString(key) {
				continue
			}
			if v, ok := g.value(add, depth+1); ok {
				out[key] = v
			}
		}
	}
	return out, true
}

func (g *instanceGen) array(s map[string]any, depth int) (any, bool) {
	lo, hi := 0, 3
	if n, ok := s["minItems"].(float64); ok {
		lo = int(n)
	}
	if n, ok := s["maxItems"].(float64); ok {
		hi = min(int(n), max(lo, 3))
	}
	if hi < lo || depth > 6 {
		return nil, false
	}
	items, _ := s["items"].(map[string]any)
	n := lo + g.rng.IntN(hi-lo+1)
	out := []any{}
	for range n {
		v, ok := g.value(items, depth+1)
		if !ok {
			return nil, false
		}
		out = append(out, v)
	}
	return out, true
}

func (g *instanceGen) str(s map[string]any) (any, bool) {
	switch {
	case s["format"] == "date-time":
		return "2026-01-02T03:04:05.5+02:00", true
	case s["format"] == "email":
		return "a@b.example", true
	case s["contentEncoding"] == "base64":
		return []string{"", "aGk=", "AAEC"}[g.rng.IntN(3)], true
	}
	minLen, maxLen := 0, math.MaxInt
	if n, ok := s["minLength"].(float64); ok {
		minLen = int(n)
	}
	if n, ok := s["maxLength"].(float64); ok {
		maxLen = int(n)
	}
	var cands []string
	if p, ok := s["pattern"].(string); ok {
		re := regexp.MustCompile(p)
		for _, c := range stringPool {
			if re.MatchString(c) {
				cands = append(cands, c)
			}
		}
	} else {
		n := minLen + g.rng.IntN(8)
		if n > maxLen {
			n = maxLen
		}
		var b strings.Builder
		for range n {
			r := []rune("abcxyz é😀")
			b.WriteRune(r[g.rng.IntN(len(r))])
		}
		cands = []string{b.String()}
	}
	cands = slices.DeleteFunc(cands, func(c string) bool {
		n := len([]rune(c))
		return n < minLen || n > maxLen
	})
	if len(cands) == 0 {
		return nil, false
	}
	return cands[g.rng.IntN(len(cands))], true
}

func (g *instanceGen) number(s map[string]any, integer bool) (any, bool) {
	lo, hi := -1000.0, 1000.0
	if n, ok := s["minimum"].(float64); ok {
		lo = max(lo, n)
	}
	if n, ok := s["maximum"].(float64); ok {
		hi = min(hi, n)
	}
	if n, ok := s["exclusiveMinimum"].(float64); ok {
		lo = max(lo, n+1e-3)
	}
	if n, ok := s["exclusiveMaximum"].(float64); ok {
		hi = min(hi, n-1e-3)
	}
	if lo > hi {
		return nil, false
	}
	// The bounds themselves are the values most likely to be rounded wrongly.
	var x float64
	switch g.rng.IntN(4) {
	case 0:
		x = lo
	case 1:
		x = hi
	default:
		x = lo + g.rng.Float64()*(hi-lo)
	}
	if m, ok := s["multipleOf"].(float64); ok && m > 0 {
		x = math.Ceil(lo/m) * m
	}
	if integer {
		x = math.Ceil(x)
		if x > hi {
			return nil, false
		}
		return json.Number(strconv.FormatFloat(x, 'f', -1, 64)), true
	}
	return json.Number(strconv.FormatFloat(x, 'g', -1, 64)), true
}
