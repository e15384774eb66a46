package generator

import (
	"fmt"
	"go/types"
	"strings"

	"github.com/invopop/jsonschema"
)

// An integer enum's values mean nothing to a model by themselves: the
// schema of an integer type whose constants make its enum (constEnum)
// names them at the end of its description, "0 (Low), 1 (High)", in
// their order: a description is read by every client and model, where a
// keyword of titled values (oneOf of const and title) would make a union
// some providers reject. A string enum's values are their own names. The
// note is left out where a tag gives the site an enum of its own.

// enumNote returns the note that names the values of n's constEnum.
func (b *schemaBuilder) enumNote(n *types.Named) string {
	e, ok := b.enums.At(n).(*constEnum)
	if !ok || len(e.names) != len(e.values) || len(e.values) == 0 {
		return ""
	}
	parts := make([]string, len(e.values))
	for i, v := range e.values {
		parts[i] = fmt.Sprintf("%v (%s)", v, e.names[i])
	}
	return strings.Join(parts, ", ")
}

// withEnumNote returns desc ending with note, as a paragraph of its own.
func withEnumNote(desc, note string) string {
	switch {
	case note == "" || strings.HasSuffix(desc, note):
		return desc
	case desc == "":
		return note
	}
	return desc + "\n\n" + note
}

// withoutEnumNote returns desc without the note withEnumNote added.
func withoutEnumNote(desc, note string) string {
	if note == "" {
		return desc
	}
	if d, ok := strings.CutSuffix(desc, "\n\n"+note); ok {
		return d
	}
	return strings.TrimSuffix(desc, note)
}

// siteEnumNote ends the description of site, the schema of a struct field
// whose shape is sh, with the note of sh's enum (through a pointer), once
// the field's own description has replaced the type's; it takes the note
// out where the field's tags gave another enum.
func (b *schemaBuilder) siteEnumNote(sh *Shape, site *jsonschema.Schema) {
	for sh.Kind == KindPointer {
		sh = sh.Elem
	}
	named, ok := types.Unalias(sh.Type).(*types.Named)
	if sh.EnumNote == "" || !ok {
		return
	}
	values := b.constEnum(named)
	same := len(site.Enum) == len(values)
	for i := 0; same && i < len(values); i++ {
		same = fmt.Sprint(site.Enum[i]) == fmt.Sprint(values[i])
	}
	if same {
		site.Description = withEnumNote(site.Description, sh.EnumNote)
	} else {
		site.Description = withoutEnumNote(site.Description, sh.EnumNote)
	}
}

// enumNoteOf is the enum note of a field's shape, through a pointer.
func enumNoteOf(sh *Shape) string {
	for sh != nil && sh.Kind == KindPointer {
		sh = sh.Elem
	}
	if sh == nil {
		return ""
	}
	return sh.EnumNote
}
