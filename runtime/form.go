package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// Form is implemented by a pointer to a struct that [AskForm] asks the
// user to fill in. mcpgen generates both methods for every struct type
// used with AskForm in the package it generates, deriving the requested
// schema from the struct's fields, tags and comments as it does for tool
// arguments; their names start with MCP so that they do not clash with the
// type's own methods. Do not write them by hand.
type Form interface {
	// MCPFormSchema returns the form's requested schema: a JSON object
	// schema whose properties are strings, numbers, booleans and enums.
	MCPFormSchema() string
	// MCPDecodeForm decodes the content of an accepted answer into the
	// struct and checks it against the schema. It returns nil, a
	// *ValidationError or a *SyntaxError.
	MCPDecodeForm(content []byte) error
}

// AskForm asks the user of the client of ctx, a handler's context, to fill
// in the form of the struct type T (elicitation/create in form mode) and
// returns the answer decoded into a T:
//
//	ans, res, err := runtime.AskForm[DeleteConfirm](ctx, "Delete 3 files?")
//	if err != nil {
//		return "", err // including ErrInputRequired under 2026-07-28: return it as it is
//	}
//	if ans == nil {
//		return "nothing deleted: the user chose " + res.Action, nil
//	}
//
// It goes through [Elicit], so it fails at once with an error matching
// [ErrCapability] for a client that cannot answer forms, and under
// revision 2026-07-28 it returns an error matching [ErrInputRequired] until
// the client retries with the answer (see the package documentation). ans
// is nil unless the user accepted (res.Action is ElicitAccept) and the
// content fits the form. Content that does not fit (a client that ignored
// the schema) gives ans nil, res with the raw answer and a [*FormError]
// listing the problems; returned by a tool handler as it is, the model
// reads them in the call's error result. To ask again instead, call
// AskForm again: it is a new question (the next of the handler's calls
// that ask the client).
//
// T's methods come from mcpgen, which finds the instantiations of AskForm
// in the package it generates.
func AskForm[T any, P interface {
	*T
	Form
}](ctx context.Context, message string) (*T, *ElicitResult, error) {
	form := P(new(T))
	res, err := Elicit(ctx, &ElicitParams{Mode: ElicitForm, Message: message, RequestedSchema: []byte(form.MCPFormSchema())})
	if err != nil || res.Action != ElicitAccept {
		return nil, res, err
	}
	content := res.Content
	if len(content) == 0 {
		content = []byte("{}") // so that the required fields are reported missing
	}
	if err := form.MCPDecodeForm(content); err != nil {
		return nil, res, newFormError(err)
	}
	return (*T)(form), res, nil
}

// FormError reports an accepted answer to a form (see [AskForm]) whose
// content does not fit the form's schema.
type FormError struct {
	// Violations are the problems, each "<property>: <problem>".
	Violations []string
}

// maxListed is how many violations Error lists before summing up the rest,
// as argument errors do.
const maxListed = 50

func newFormError(err error) *FormError {
	switch e := err.(type) {
	case *mcpimpl.ValidationError:
		return &FormError{Violations: e.Violations}
	case *mcpimpl.SyntaxError:
		return &FormError{Violations: []string{"content: " + e.Error()}}
	}
	return &FormError{Violations: []string{err.Error()}}
}

// Error lists the problems, one per line when there are several.
func (e *FormError) Error() string {
	const head = "the user's answer does not fit the form"
	switch len(e.Violations) {
	case 0:
		return head
	case 1:
		return head + ": " + e.Violations[0]
	}
	var b strings.Builder
	b.WriteString(head + " (" + strconv.Itoa(len(e.Violations)) + " problems):")
	for i, v := range e.Violations {
		if i == maxListed && len(e.Violations) > maxListed+1 {
			b.WriteString("\n- … and " + strconv.Itoa(len(e.Violations)-i) + " more")
			break
		}
		b.WriteString("\n- " + v)
	}
	return b.String()
}

// formBefore20251125 adapts a form's requested schema to a client of a
// revision before 2025-11-25: it refuses multiple-choice properties (arrays
// of enum values), which came in 2025-11-25, and writes titled choices
// ("oneOf" of const and title) as the enum and enumNames those revisions
// know.
func formBefore20251125(schema []byte, rev revision) ([]byte, error) {
	var outline struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	json.Unmarshal(schema, &outline)
	var arrays []string
	for name, raw := range outline.Properties {
		var p map[string]json.RawMessage
		if json.Unmarshal(raw, &p) != nil {
			continue
		}
		if string(p["type"]) == `"array"` {
			arrays = append(arrays, strconv.Quote(name))
			continue
		}
		var choices []struct {
			Const string `json:"const"`
			Title string `json:"title"`
		}
		if p["oneOf"] == nil || json.Unmarshal(p["oneOf"], &choices) != nil {
			continue
		}
		values, titles := make([]string, len(choices)), make([]string, len(choices))
		for i, c := range choices {
			values[i], titles[i] = c.Const, c.Title
		}
		delete(p, "oneOf")
		p["enum"], _ = json.Marshal(values)
		p["enumNames"], _ = json.Marshal(titles)
		legacy, _ := json.Marshal(p)
		// The property's text is a part of the compact schema; replacing it
		// keeps the order of the properties, which is the form's.
		schema = bytes.ReplaceAll(schema, raw, legacy)
	}
	if len(arrays) > 0 {
		slices.Sort(arrays)
		return nil, &capabilityError{"Elicit", "multiple-choice form fields (" + strings.Join(arrays, ", ") + ") need protocol revision 2025-11-25 or later; the client speaks " + rev.String(), ""}
	}
	return schema, nil
}
