// Package manifest describes an MCP server's surface — its tools with
// their schemas and annotations, its resources, resource templates and
// prompts — as the JSON that tools/list, resources/list,
// resources/templates/list and prompts/list send, followed by the forms
// its handlers ask the user to fill in (runtime.AskForm) with the requested
// schemas that elicitation/create sends, and works with it: it builds the manifest from the generator's model
// without running anything, renders a Markdown reference, and classifies
// the changes between two manifests as breaking or compatible.
package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/token"

	"github.com/mcpgen/mcpgen/generator"
)

// Manifest is a server's surface. Its JSON encoding (see [Manifest.Encode])
// is that of `mcpgen inspect` and of mcptest's Client.Manifest.
type Manifest struct {
	Tools             []Tool     `json:"tools"`
	Resources         []Resource `json:"resources,omitempty"`
	ResourceTemplates []Template `json:"resourceTemplates,omitempty"`
	Prompts           []Prompt   `json:"prompts,omitempty"`
	// Forms are sorted by package path and type name (see sortForms).
	Forms []Form `json:"forms,omitempty"`
}

// Resource is one resource with a fixed URI, with the members and member
// order of resources/list.
type Resource struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
	Size        int64  `json:"size,omitempty"`
}

// Template is one resource template, with the members and member order of
// resources/templates/list.
type Template struct {
	URITemplate string `json:"uriTemplate"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
	// Meta is the template's _meta: for a generated template, the
	// variables' schema and the variables that complete (see
	// [generator.MetaVariables] and [generator.MetaCompletable]).
	Meta json.RawMessage `json:"_meta,omitempty"`
}

// Prompt is one prompt, with the members and member order of prompts/list.
type Prompt struct {
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	Arguments   []PromptArgument `json:"arguments,omitempty"`
}

// PromptArgument is one argument of a prompt.
type PromptArgument struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
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

// FromPackages builds the manifest of the packages' tools, resources,
// resource templates and prompts, in package and source order, and of
// their forms, in the order of sortForms. Two tools
// (resources, templates, prompts) of one name (URI, template) are an
// error: a server cannot hold both.
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
	if err := addPrims(m, pkgs); err != nil {
		return nil, err
	}
	if err := addForms(m, pkgs); err != nil {
		return nil, err
	}
	return m, nil
}

// addPrims adds the packages' resources, templates and prompts to m.
func addPrims(m *Manifest, pkgs []*generator.Package) error {
	seen := map[string]token.Position{}
	dup := func(what, key string, pos token.Position) error {
		if prev, ok := seen[what+" "+key]; ok {
			return fmt.Errorf("%s: %s %q is also defined at %s; inspect the packages of one server", pos, what, key, prev)
		}
		seen[what+" "+key] = pos
		return nil
	}
	for _, p := range pkgs {
		for _, r := range p.Resources {
			if r.Template {
				if err := dup("resource template", r.URI, r.Pos); err != nil {
					return err
				}
				meta, err := r.TemplateMeta()
				if err != nil {
					return fmt.Errorf("%s: variables of %s: %v", r.Pos, r.URI, err)
				}
				m.ResourceTemplates = append(m.ResourceTemplates, Template{URITemplate: r.URI, Name: orURI(r.Name, r.URI), Title: r.Title, Description: r.Description, MIMEType: r.MIMEType, Meta: meta})
				continue
			}
			if err := dup("resource", r.URI, r.Pos); err != nil {
				return err
			}
			m.Resources = append(m.Resources, Resource{URI: r.URI, Name: orURI(r.Name, r.URI), Title: r.Title, Description: r.Description, MIMEType: r.MIMEType, Size: r.Size})
		}
		for _, pr := range p.Prompts {
			if err := dup("prompt", pr.Name, pr.Pos); err != nil {
				return err
			}
			prompt := Prompt{Name: pr.Name, Title: pr.Title, Description: pr.Description}
			for _, a := range pr.Args {
				prompt.Arguments = append(prompt.Arguments, PromptArgument{Name: a.Name, Title: a.Title, Description: a.Description, Required: a.Required})
			}
			m.Prompts = append(m.Prompts, prompt)
		}
	}
	return nil
}

// orURI is a resource's name, which the server defaults to its URI.
func orURI(name, uri string) string {
	if name == "" {
		return uri
	}
	return name
}

// Encode returns the manifest as JSON indented by two spaces, with a
// final newline: byte for byte what a server built from the same code
// lists, re-indented the same way (mcptest's Client.Manifest, given the
// server's forms).
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
	for i, r := range m.Resources {
		if r.URI == "" {
			return nil, fmt.Errorf("not a manifest: resource %d has no uri", i+1)
		}
	}
	for i, r := range m.ResourceTemplates {
		if r.URITemplate == "" {
			return nil, fmt.Errorf("not a manifest: resource template %d has no uriTemplate", i+1)
		}
		if _, err := r.variables(); err != nil {
			return nil, fmt.Errorf("not a manifest: resource template %s: %v", r.URITemplate, err)
		}
	}
	for i, p := range m.Prompts {
		if p.Name == "" {
			return nil, fmt.Errorf("not a manifest: prompt %d has no name", i+1)
		}
	}
	if err := parseForms(&m); err != nil {
		return nil, err
	}
	return &m, nil
}
