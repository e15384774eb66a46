package manifest

import (
	"bytes"
	"fmt"
)

// primsMarkdown writes the sections of the resources, resource templates
// (with a table of each template's variables) and prompts; a server
// without any of one kind gets no section for it.
func (m *Manifest) primsMarkdown(b *bytes.Buffer) error {
	if len(m.Resources) > 0 {
		b.WriteString("\n## Resources\n\n| URI | Name | Title | MIME type | Description |\n| --- | --- | --- | --- | --- |\n")
		for _, r := range m.Resources {
			fmt.Fprintf(b, "| `%s` | %s | %s | %s | %s |\n", cell(r.URI), cell(r.Name), cell(r.Title), code(r.MIMEType), cell(r.Description))
		}
	}
	if len(m.ResourceTemplates) > 0 {
		b.WriteString("\n## Resource templates\n\n| URI template | Name | Title | MIME type | Description |\n| --- | --- | --- | --- | --- |\n")
		for _, t := range m.ResourceTemplates {
			fmt.Fprintf(b, "| `%s` | %s | %s | %s | %s |\n", cell(t.URITemplate), cell(t.Name), cell(t.Title), code(t.MIMEType), cell(t.Description))
		}
		if err := m.templateMarkdown(b); err != nil {
			return err
		}
	}
	if len(m.Prompts) == 0 {
		return nil
	}
	b.WriteString("\n## Prompts\n\n| Prompt | Description |\n| --- | --- |\n")
	for _, p := range m.Prompts {
		fmt.Fprintf(b, "| [`%s`](#prompt-%s) | %s |\n", p.Name, anchor(p.Name), cell(summary(Tool{Title: p.Title, Description: p.Description})))
	}
	for _, p := range m.Prompts {
		fmt.Fprintf(b, "\n### Prompt `%s`\n\n", p.Name)
		writeTitleDescription(b, p.Title, p.Description)
		if len(p.Arguments) == 0 {
			b.WriteString("No arguments.\n")
			continue
		}
		b.WriteString("| Argument | Title | Required | Description |\n| --- | --- | --- | --- |\n")
		for _, a := range p.Arguments {
			req := ""
			if a.Required {
				req = "yes"
			}
			fmt.Fprintf(b, "| `%s` | %s | %s | %s |\n", a.Name, cell(a.Title), req, cell(a.Description))
		}
	}
	return nil
}

// code is s as inline code, or "" when s is empty.
func code(s string) string {
	if s == "" {
		return ""
	}
	return "`" + cell(s) + "`"
}
