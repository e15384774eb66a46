package manifest

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/generator"
)

// Form is one form the server's handlers ask the user to fill in with
// runtime.AskForm: a struct type, named by its Go name and its package's
// import path, and the requested schema that elicitation/create sends for
// it (to a client of revision 2025-11-25 or later as it is here; an older
// client gets titled choices as enum and enumNames). No list method sends
// forms: the manifest has them so that review sees every question the
// server may ask.
type Form struct {
	Type            string          `json:"type"`
	Package         string          `json:"package"`
	RequestedSchema json.RawMessage `json:"requestedSchema"`
}

// key identifies the form in diagnostics and changes: "form
// example.com/pkg.Answer".
func (f Form) key() string { return f.Package + "." + f.Type }

// addForms adds the forms the packages declare, sorted by package path and
// type name, so that moving code around does not reorder them.
func addForms(m *Manifest, pkgs []*generator.Package) error {
	for _, p := range pkgs {
		for _, f := range p.Forms {
			obj := f.Type.Obj()
			schema, err := json.Marshal(f.Schema)
			if err != nil {
				return fmt.Errorf("%s: requested schema of form %s: %v", f.Pos, obj.Name(), err)
			}
			m.Forms = append(m.Forms, Form{Type: obj.Name(), Package: obj.Pkg().Path(), RequestedSchema: schema})
		}
	}
	sortForms(m.Forms)
	return nil
}

// sortForms puts forms in the manifest's order: by package path, then by
// type name.
func sortForms(forms []Form) {
	slices.SortFunc(forms, func(a, b Form) int {
		return cmp.Or(cmp.Compare(a.Package, b.Package), cmp.Compare(a.Type, b.Type))
	})
}

// parseForms checks the forms of a parsed manifest.
func parseForms(m *Manifest) error {
	for i, f := range m.Forms {
		if f.Type == "" {
			return fmt.Errorf("not a manifest: form %d has no type", i+1)
		}
		if len(f.RequestedSchema) == 0 {
			return fmt.Errorf("not a manifest: form %s has no requestedSchema", f.key())
		}
	}
	return nil
}

// compareForms lists the forms removed, changed and added. None of it is
// breaking: a client shows whatever form the server asks with, and a
// client written against the old manifest answers the new one the same
// way.
func compareForms(old, new []Form) []Change {
	var out []Change
	newByKey := map[string]Form{}
	for _, n := range new {
		newByKey[n.key()] = n
	}
	oldKeys := map[string]bool{}
	for _, o := range old {
		oldKeys[o.key()] = true
		n, ok := newByKey[o.key()]
		switch {
		case !ok:
			out = append(out, Change{Tool: "form " + o.key(), Message: "form removed"})
		case !sameJSON(o.RequestedSchema, n.RequestedSchema):
			out = append(out, Change{Tool: "form " + o.key(), Message: "requested schema changed"})
		}
	}
	for _, n := range new {
		if !oldKeys[n.key()] {
			out = append(out, Change{Tool: "form " + n.key(), Message: "form added"})
		}
	}
	return out
}

// sameJSON reports whether a and b are the same JSON text but for
// whitespace.
func sameJSON(a, b json.RawMessage) bool {
	var x, y bytes.Buffer
	if json.Compact(&x, a) != nil || json.Compact(&y, b) != nil {
		return bytes.Equal(a, b)
	}
	return bytes.Equal(x.Bytes(), y.Bytes())
}

// formsMarkdown writes the Forms section: each form's fields with their
// titles, types, whether required, defaults, constraints (choices with
// their titles) and descriptions. A server without forms gets no section.
func (m *Manifest) formsMarkdown(b *bytes.Buffer) error {
	if len(m.Forms) == 0 {
		return nil
	}
	b.WriteString("\n## Forms\n\nThe server may ask the user to fill in these forms (elicitation).\n")
	names := formNames(m.Forms)
	for i, f := range m.Forms {
		s, err := parseSchema(f.RequestedSchema)
		if err != nil {
			return fmt.Errorf("form %s: requestedSchema: %v", f.key(), err)
		}
		fmt.Fprintf(b, "\n### Form `%s`\n\n", names[i])
		if len(s.Properties) == 0 {
			b.WriteString("No fields.\n")
			continue
		}
		b.WriteString("| Field | Title | Type | Required | Default | Constraints | Description |\n| --- | --- | --- | --- | --- | --- | --- |\n")
		for _, p := range s.Properties {
			req, def := "", ""
			if s.requires(p.Name) {
				req = "yes"
			}
			if p.Schema.Default != nil {
				def = "`" + compactJSON(p.Schema.Default) + "`"
			}
			fmt.Fprintf(b, "| `%s` | %s | %s | %s | %s | %s | %s |\n", p.Name, cell(p.Schema.Title), cell(formType(s, p.Schema)), req, cell(def), cell(formConstraints(s, p.Schema)), cell(p.Schema.Description))
		}
	}
	return nil
}

// formNames returns the name each form's heading gives it: its type's
// name, qualified where forms of different packages have the same name
// (so that the headings, and their anchors, differ) with the last
// element of its package's path, or where that is shared too with the
// whole path.
func formNames(forms []Form) []string {
	byType := map[string][]Form{}
	for _, f := range forms {
		byType[f.Type] = append(byType[f.Type], f)
	}
	names := make([]string, len(forms))
	for i, f := range forms {
		same := byType[f.Type]
		if len(same) == 1 {
			names[i] = f.Type
			continue
		}
		qual := path.Base(f.Package)
		for _, o := range same {
			if o.Package != f.Package && path.Base(o.Package) == qual {
				qual = f.Package
				break
			}
		}
		names[i] = qual + "." + f.Type
	}
	return names
}

// formType is typeName, but several titled choices read as an array of
// string.
func formType(root, s *schema) string {
	if s.Items != nil && len(s.Items.Type) == 0 && len(s.Items.AnyOf) > 0 {
		return "array of string"
	}
	return typeName(root, s)
}

// formConstraints describes a form field's constraints, its titled
// choices ("oneOf" of const and title, or "anyOf" in the items of several
// choices) among them.
func formConstraints(root, s *schema) string {
	c := constraints(root, s)
	choices := s.OneOf
	prefix := "one of "
	if s.Items != nil && len(s.Items.AnyOf) > 0 {
		choices, prefix = s.Items.AnyOf, "each item: one of "
	}
	var vals []string
	for _, ch := range choices {
		if ch.Const == nil {
			continue
		}
		v := "`" + compactJSON(ch.Const) + "`"
		if ch.Title != "" && ch.Title != strings.Trim(compactJSON(ch.Const), `"`) {
			v += " (" + ch.Title + ")"
		}
		vals = append(vals, v)
	}
	if len(vals) == 0 {
		return c
	}
	if c != "" {
		c += "; "
	}
	return c + prefix + strings.Join(vals, ", ")
}
