package mcptest

import (
	"cmp"
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
)

// manifestForm is a form in a manifest, as mcpgen inspect lists it.
type manifestForm struct {
	Type            string          `json:"type"`
	Package         string          `json:"package"`
	RequestedSchema json.RawMessage `json:"requestedSchema"`
}

// manifestForms lists forms as mcpgen inspect does: named by their struct
// type and its package's import path, sorted by package then type. A form
// that is not a pointer to a named struct type, or that is given twice,
// ends the test t.
func manifestForms(t testing.TB, forms []runtime.Form) []manifestForm {
	t.Helper()
	var out []manifestForm
	seen := map[reflect.Type]bool{}
	for _, f := range forms {
		rt := reflect.TypeOf(f)
		if rt == nil || rt.Kind() != reflect.Pointer || rt.Elem().Kind() != reflect.Struct || rt.Elem().Name() == "" {
			t.Fatalf("mcptest: Manifest: form %v is not a pointer to a named struct type, such as new(Confirm)", rt)
		}
		if seen[rt] {
			t.Fatalf("mcptest: Manifest: form %v is given twice", rt.Elem())
		}
		seen[rt] = true
		schema := json.RawMessage(f.MCPFormSchema())
		if !json.Valid(schema) {
			t.Fatalf("mcptest: Manifest: the requested schema of form %v is not JSON: %s", rt.Elem(), schema)
		}
		out = append(out, manifestForm{Type: rt.Elem().Name(), Package: rt.Elem().PkgPath(), RequestedSchema: schema})
	}
	slices.SortFunc(out, func(a, b manifestForm) int {
		return cmp.Or(cmp.Compare(a.Package, b.Package), cmp.Compare(a.Type, b.Type))
	})
	return out
}
