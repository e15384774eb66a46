package mcptest

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
)

// Tool is a tool as tools/list describes it.
type Tool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  json.RawMessage `json:"annotations,omitempty"`
}

// listTools returns every tool, raw, following the pages of tools/list.
func (c *Client) listTools() ([]json.RawMessage, error) {
	return c.list("tools/list", "tools")
}

// list returns every item of a list method, raw, following its pages; key
// is the member of the result that holds the items.
func (c *Client) list(method, key string) ([]json.RawMessage, error) {
	var all []json.RawMessage
	cursor := ""
	for {
		var params any
		if cursor != "" {
			params = map[string]string{"cursor": cursor}
		}
		raw, err := c.Request(method, params)
		if err != nil {
			return nil, err
		}
		var page struct {
			NextCursor string `json:"nextCursor"`
		}
		var items map[string]json.RawMessage
		if err := json.Unmarshal(raw, &page); err != nil {
			return nil, err
		}
		if err := json.Unmarshal(raw, &items); err != nil {
			return nil, err
		}
		var got []json.RawMessage
		if err := json.Unmarshal(items[key], &got); err != nil {
			return nil, fmt.Errorf("%s: %s: %v", method, key, err)
		}
		all = append(all, got...)
		if page.NextCursor == "" {
			return all, nil
		}
		cursor = page.NextCursor
	}
}

// ListTools returns every tool the server lists, following pages; an error
// ends the test t.
func (c *Client) ListTools(t testing.TB) []Tool {
	t.Helper()
	raw, err := c.listTools()
	if err != nil {
		t.Fatalf("mcptest: tools/list: %v", err)
	}
	tools := make([]Tool, len(raw))
	for i, r := range raw {
		if err := json.Unmarshal(r, &tools[i]); err != nil {
			t.Fatalf("mcptest: tools/list: a tool does not decode: %v: %s", err, r)
		}
	}
	return tools
}

// Manifest returns the server's surface as `mcpgen inspect` prints it:
// {"tools": [...]}, each tool as tools/list sends it, followed by
// "resources", "resourceTemplates" and "prompts" as their list methods
// send them when the server has any ("tools" is [] for a server without
// tools), then "forms": the forms given, which no list method sends, as
// runtime.AskForm asks with them (pass a pointer to each struct type the
// server's handlers ask with, e.g. new(Confirm), to match what mcpgen
// inspect lists); indented by two spaces, with a final
// newline. Compare it with a committed file with [Golden]; an error ends
// the test t.
func (c *Client) Manifest(t testing.TB, forms ...runtime.Form) []byte {
	t.Helper()
	var m struct {
		Tools             []json.RawMessage `json:"tools"`
		Resources         []json.RawMessage `json:"resources,omitempty"`
		ResourceTemplates []json.RawMessage `json:"resourceTemplates,omitempty"`
		Prompts           []json.RawMessage `json:"prompts,omitempty"`
		Forms             []manifestForm    `json:"forms,omitempty"`
	}
	var caps struct {
		Capabilities struct {
			Tools     json.RawMessage `json:"tools"`
			Resources json.RawMessage `json:"resources"`
			Prompts   json.RawMessage `json:"prompts"`
		} `json:"capabilities"`
	}
	if err := json.Unmarshal(c.init, &caps); err != nil {
		t.Fatalf("mcptest: initialize result: %v", err)
	}
	lists := []struct {
		has         bool
		method, key string
		dst         *[]json.RawMessage
	}{
		{caps.Capabilities.Tools != nil, "tools/list", "tools", &m.Tools},
		{caps.Capabilities.Resources != nil, "resources/list", "resources", &m.Resources},
		{caps.Capabilities.Resources != nil, "resources/templates/list", "resourceTemplates", &m.ResourceTemplates},
		{caps.Capabilities.Prompts != nil, "prompts/list", "prompts", &m.Prompts},
	}
	for _, l := range lists {
		if !l.has {
			continue
		}
		raw, err := c.list(l.method, l.key)
		if err != nil {
			t.Fatalf("mcptest: %s: %v", l.method, err)
		}
		*l.dst = raw
	}
	if m.Tools == nil {
		m.Tools = []json.RawMessage{}
	}
	m.Forms = manifestForms(t, forms)
	// The server sends <, > and & as they are; so does mcpgen inspect.
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		t.Fatalf("mcptest: %v", err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, bytes.TrimSpace(b.Bytes()), "", "  "); err != nil {
		t.Fatalf("mcptest: %v", err)
	}
	out.WriteByte('\n')
	return out.Bytes()
}

var update = flag.Bool("mcptest.update", false, "rewrite the golden files of mcptest.Golden instead of comparing with them")

// Golden compares got with the file at path and fails the test, showing
// the first difference, when they differ. Run the test with
// -mcptest.update to write got to the file instead (creating its
// directory).
func Golden(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("mcptest: %v (run the test with -mcptest.update to create it)", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	line, g, w := firstDiff(got, want)
	t.Errorf("mcptest: %s differs at line %d (run the test with -mcptest.update to accept the new output)\n got: %s\nwant: %s", path, line, g, w)
}

// firstDiff returns the number and text of the first line where a and b
// differ.
func firstDiff(a, b []byte) (int, string, string) {
	al := bytes.Split(bytes.TrimSuffix(a, []byte("\n")), []byte("\n"))
	bl := bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
	for i := 0; ; i++ {
		var x, y []byte
		xok, yok := i < len(al), i < len(bl)
		if xok {
			x = al[i]
		}
		if yok {
			y = bl[i]
		}
		if !xok && !yok {
			return i + 1, "", ""
		}
		if !xok || !yok || !bytes.Equal(x, y) {
			show := func(ok bool, s []byte) string {
				if !ok {
					return "(end of file)"
				}
				return string(s)
			}
			return i + 1, show(xok, x), show(yok, y)
		}
	}
}
