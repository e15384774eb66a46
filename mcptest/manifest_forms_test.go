package mcptest

import (
	"strings"
	"testing"

	mcpruntime "github.com/mcpgen/mcpgen/runtime"
)

// Hand-written forms, with the methods mcpgen would generate.
type (
	zebraForm struct{ OK bool }
	alphaForm struct{ OK bool }
	badSchema struct{}
	notStruct string
)

func (*zebraForm) MCPFormSchema() string {
	return `{"type":"object","properties":{"z":{"type":"boolean"}}}`
}
func (*zebraForm) MCPDecodeForm([]byte) error { return nil }
func (*alphaForm) MCPFormSchema() string {
	return `{"type":"object","properties":{"a":{"type":"string"}}}`
}
func (*alphaForm) MCPDecodeForm([]byte) error { return nil }
func (*badSchema) MCPFormSchema() string      { return `{"type":` }
func (*badSchema) MCPDecodeForm([]byte) error { return nil }
func (*notStruct) MCPFormSchema() string      { return `{"type":"object"}` }
func (*notStruct) MCPDecodeForm([]byte) error { return nil }

// Manifest lists the forms it is given after what the server lists, by
// package path and type name as mcpgen inspect does, and refuses what
// mcpgen inspect could not list.
func TestManifestForms(t *testing.T) {
	c := Start(t, mcpruntime.NewServer("test", "1.0"))
	got := string(compact(c.Manifest(t, new(zebraForm), new(alphaForm))))
	const pkg = "github.com/mcpgen/mcpgen/mcptest"
	want := `{"tools":[],"forms":[` +
		`{"type":"alphaForm","package":"` + pkg + `","requestedSchema":{"type":"object","properties":{"a":{"type":"string"}}}},` +
		`{"type":"zebraForm","package":"` + pkg + `","requestedSchema":{"type":"object","properties":{"z":{"type":"boolean"}}}}]}`
	if got != want {
		t.Errorf("manifest:\n%s\nwant\n%s", got, want)
	}
	if got := string(compact(c.Manifest(t))); got != `{"tools":[]}` {
		t.Errorf("manifest without forms: %s", got)
	}
	for _, tt := range []struct {
		name  string
		forms []mcpruntime.Form
		want  string
	}{
		{"not a struct", []mcpruntime.Form{new(notStruct)}, "is not a pointer to a named struct type"},
		{"twice", []mcpruntime.Form{new(alphaForm), new(alphaForm)}, "form mcptest.alphaForm is given twice"},
		{"schema not JSON", []mcpruntime.Form{new(badSchema)}, "the requested schema of form mcptest.badSchema is not JSON"},
		{"nil", []mcpruntime.Form{nil}, "form <nil> is not a pointer"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := record(t, func(tb testing.TB) { c.Manifest(tb, tt.forms...) })
			if !r.fatal || !strings.Contains(strings.Join(r.errors, "\n"), tt.want) {
				t.Errorf("failure = %q (fatal %v), want %q", r.errors, r.fatal, tt.want)
			}
		})
	}
}
