// Package manifest describes an MCP server's surface — its tools with
// their schemas and annotations — as the JSON that tools/list sends, and
// works with it: it builds the manifest from the generator's model
// without running anything, renders a Markdown reference, and classifies
// the changes between two manifests as breaking or compatible.
package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/mcpgen/mcpgen/generator"
)

// Manifest is a server's surface. Its JSON encoding (see [Manifest.Encode])
// is that of `mcpgen inspect` and of mcptest's Client.Manifest.
type Manifest struct {
	Tools []Tool `json:"tools"`
}

// Tool is one tool, with the members and member order of tools/list.
type Tool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  *Annotations    `json:"annotations,omitempty"`
}

// Annotations are a tool's behaviour hints; nil means unset.
type Annotations struct {
	ReadOnlyHint    *bool `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool `json:"openWorldHint,omitempty"`
}

// FromPackages builds the manifest of the packages' tools, in package and
// source order. Two tools of one name are an error: a server cannot hold
// both.
func FromPackages(pkgs []*generator.Package) (*Manifest, error) {
	m := &Manifest{Tools: []Tool{}}
	seen := map[string]*generator.Tool{}
	for _, p := range pkgs {
		for _, t := range p.Tools {
			if prev := seen[t.Name]; prev != nil {
				return nil, fmt.Errorf("%s: tool %q is also defined at %s; inspect the packages of one server", t.Pos, t.Name, prev.Pos)
			}
			seen[t.Name] = t
			tool := Tool{Name: t.Name, Title: t.Title, Description: t.Description}
			var err error
			if tool.InputSchema, err = json.Marshal(t.InputSchema); err != nil {
				return nil, fmt.Errorf("%s: input schema of %s: %v", t.Pos, t.Name, err)
			}
			if t.OutputSchema != nil {
				if tool.OutputSchema, err = json.Marshal(t.OutputSchema); err != nil {
					return nil, fmt.Errorf("%s: output schema of %s: %v", t.Pos, t.Name, err)
				}
			}
			if a := t.Annotations; !a.Empty() {
				tool.Annotations = &Annotations{ReadOnlyHint: a.ReadOnly, DestructiveHint: a.Destructive, IdempotentHint: a.Idempotent, OpenWorldHint: a.OpenWorld}
			}
			m.Tools = append(m.Tools, tool)
		}
	}
	return m, nil
}

// Encode returns the manifest as JSON indented by two spaces, with a
// final newline: byte for byte what a server built from the same code
// lists, re-indented the same way.
func (m *Manifest) Encode() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, bytes.TrimSpace(b.Bytes()), "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// Parse reads a manifest as Encode writes it (or as tools/list answers).
func Parse(data []byte) (*Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("not a manifest: %v", err)
	}
	for i, t := range m.Tools {
		if t.Name == "" {
			return nil, fmt.Errorf("not a manifest: tool %d has no name", i+1)
		}
		if len(t.InputSchema) == 0 {
			return nil, fmt.Errorf("not a manifest: tool %s has no inputSchema", t.Name)
		}
	}
	return &m, nil
}
