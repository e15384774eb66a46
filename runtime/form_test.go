package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// confirmForm implements rt.Form by hand, as mcpgen would generate it: the
// runtime's tests do not run the generator (its golden tests build real
// forms). It decodes with encoding/json and reports problems as a
// generated decoder does, as a *ValidationError.
type confirmForm struct {
	Sure bool   `json:"sure"`
	Why  string `json:"why"`
}

const confirmSchema = `{"type":"object","properties":{"sure":{"type":"boolean"},"why":{"type":"string","maxLength":5}},"required":["sure"]}`

func (*confirmForm) MCPFormSchema() string { return confirmSchema }

func (f *confirmForm) MCPDecodeForm(content []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(content, &raw); err != nil {
		return &mcpimpl.ValidationError{Violations: []string{"content: must be an object"}}
	}
	var problems []string
	if v, ok := raw["sure"]; !ok {
		problems = append(problems, "sure: required property is missing")
	} else if json.Unmarshal(v, &f.Sure) != nil {
		problems = append(problems, "sure: must be a boolean, got "+string(v))
	}
	if v, ok := raw["why"]; ok && (json.Unmarshal(v, &f.Why) != nil || len(f.Why) > 5) {
		problems = append(problems, "why: must be a string of at most 5 characters, got "+string(v))
	}
	if problems != nil {
		return &mcpimpl.ValidationError{Violations: problems}
	}
	return nil
}

// choiceForm has a multiple-choice field, which needs 2025-11-25.
type choiceForm struct{ Colors []string }

func (*choiceForm) MCPFormSchema() string {
	return `{"type":"object","properties":{"colors":{"type":"array","items":{"type":"string","enum":["red","blue"]}}}}`
}

func (f *choiceForm) MCPDecodeForm(content []byte) error { return json.Unmarshal(content, f) }

var formRuns atomic.Int32

// formTool asks for confirmForm (or, with {"choice":true}, choiceForm). It
// returns input-required and form errors as they are, as a handler should,
// and reports other errors in its text.
var formTool = rt.Tool{
	Name:        "ask_form",
	InputSchema: json.RawMessage(`{"type":"object","properties":{"choice":{"type":"boolean"}}}`),
	Handler: func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		formRuns.Add(1)
		var text string
		var err error
		if strings.Contains(string(req.Arguments), "choice") {
			var ans *choiceForm
			ans, _, err = rt.AskForm[choiceForm](ctx, "Colors?")
			if ans != nil {
				text = fmt.Sprint(ans.Colors)
			}
		} else {
			var ans *confirmForm
			var res *rt.ElicitResult
			ans, res, err = rt.AskForm[confirmForm](ctx, "Sure?")
			switch {
			case ans != nil:
				text = fmt.Sprintf("sure=%v why=%q", ans.Sure, ans.Why)
			case err == nil:
				text = "no answer: " + res.Action
			}
		}
		var fe *rt.FormError
		if errors.Is(err, rt.ErrInputRequired) || errors.As(err, &fe) {
			return nil, err
		}
		if err != nil {
			text = "error: " + err.Error()
		}
		return rt.TextResult(text), nil
	},
}

const confirmParams = `{"mode":"form","message":"Sure?","requestedSchema":` + confirmSchema + `}`

// TestAskForm calls a tool that asks with AskForm, under 2025-11-25: the
// request carries the form's schema, and the answer comes back decoded, or
// as a *FormError in the tool's error result.
func TestAskForm(t *testing.T) {
	for _, tc := range []struct {
		name, answer, text string
		isError            bool
	}{
		{"accepted", `{"action":"accept","content":{"sure":true,"why":"old"}}`, `sure=true why="old"`, false},
		{"declined", `{"action":"decline"}`, "no answer: decline", false},
		{"cancelled", `{"action":"cancel"}`, "no answer: cancel", false},
		{"one problem", `{"action":"accept","content":{"sure":"yes"}}`,
			`the user's answer does not fit the form: sure: must be a boolean, got "yes"`, true},
		{"accepted without content", `{"action":"accept"}`,
			"the user's answer does not fit the form: sure: required property is missing", true},
		{"two problems", `{"action":"accept","content":{"sure":1,"why":"because"}}`,
			"the user's answer does not fit the form (2 problems):\n- sure: must be a boolean, got 1\n- why: must be a string of at most 5 characters, got \"because\"", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := rttest.NewServer()
			srv.AddTool(formTool)
			c := start(t, srv)
			c.initializeWith("2025-11-25", `{"elicitation":{"form":{}}}`)
			c.toolCallAsync(1, "ask_form", nil)
			r := c.recvRequest("elicitation/create")
			jsonEqual(t, "elicitation params", r.Params, confirmParams)
			c.answer(r.ID, tc.answer)
			text, isError := toolText(t, c.recvResponse("1"))
			if text != tc.text || isError != tc.isError {
				t.Errorf("tool said %q (isError %v), want %q (isError %v)", text, isError, tc.text, tc.isError)
			}
		})
	}
}

// TestAskFormBothEras calls the same tool under 2025-11-25 (a request to the
// client) and under 2026-07-28 (an InputRequiredResult, then a retry with
// the answer, which the handler's second run gets decoded).
func TestAskFormBothEras(t *testing.T) {
	const answer = `{"action":"accept","content":{"sure":true,"why":"tidy"}}`
	const want = `sure=true why="tidy"`
	t.Run("2025-11-25", func(t *testing.T) {
		srv := rttest.NewServer()
		srv.AddTool(formTool)
		c := start(t, srv)
		c.initializeWith("2025-11-25", `{"elicitation":{"form":{}}}`)
		formRuns.Store(0)
		c.toolCallAsync(1, "ask_form", nil)
		r := c.recvRequest("elicitation/create")
		jsonEqual(t, "elicitation params", r.Params, confirmParams)
		c.answer(r.ID, answer)
		if text, _ := toolText(t, c.recvResponse("1")); text != want {
			t.Errorf("tool said %q, want %q", text, want)
		}
		if n := formRuns.Load(); n != 1 {
			t.Errorf("the handler ran %d times, want 1", n)
		}
	})
	t.Run("2026-07-28", func(t *testing.T) {
		srv := rttest.NewServer()
		srv.AddTool(formTool)
		c := start(t, srv)
		formRuns.Store(0)
		caps := `{"elicitation":{"form":{}}}`
		res := c.result(1, "tools/call", params26(caps, map[string]any{"name": "ask_form"}))
		request, state := inputRequired(t, "tools/call", res, "elicit-1")
		jsonEqual(t, "input request", request, `{"method":"elicitation/create","params":`+confirmParams+`}`)
		retry := func(id int, answer string) *response {
			return c.call(id, "tools/call", params26(caps, map[string]any{"name": "ask_form",
				"inputResponses": map[string]any{"elicit-1": json.RawMessage(answer)},
				"requestState":   state}))
		}
		if text, isError := toolText(t, retry(2, answer)); text != want || isError {
			t.Errorf("tool said %q (isError %v), want %q", text, isError, want)
		}
		if n := formRuns.Load(); n != 2 {
			t.Errorf("the handler ran %d times, want 2 (once per round)", n)
		}
		// An answer that does not fit the form is the tool's error.
		text, isError := toolText(t, retry(3, `{"action":"accept","content":{"why":"x"}}`))
		if want := "the user's answer does not fit the form: sure: required property is missing"; text != want || !isError {
			t.Errorf("tool said %q (isError %v), want %q as an error", text, isError, want)
		}
	})
}

// TestAskFormMultiSelect checks that a form with a multiple-choice field
// goes to clients of 2025-11-25 and later only: an older client gets an
// error matching ErrCapability at once.
func TestAskFormMultiSelect(t *testing.T) {
	args := map[string]any{"choice": true}
	t.Run("2025-11-25", func(t *testing.T) {
		srv := rttest.NewServer()
		srv.AddTool(formTool)
		c := start(t, srv)
		c.initializeWith("2025-11-25", `{"elicitation":{"form":{}}}`)
		c.toolCallAsync(1, "ask_form", args)
		r := c.recvRequest("elicitation/create")
		c.answer(r.ID, `{"action":"accept","content":{"colors":["red","blue"]}}`)
		if text, _ := toolText(t, c.recvResponse("1")); text != "[red blue]" {
			t.Errorf("tool said %q", text)
		}
	})
	t.Run("2025-06-18", func(t *testing.T) {
		srv := rttest.NewServer()
		srv.AddTool(formTool)
		c := start(t, srv)
		c.initializeWith("2025-06-18", `{"elicitation":{}}`)
		want := `error: runtime: Elicit: multiple-choice form fields ("colors") need protocol revision 2025-11-25 or later; the client speaks 2025-06-18`
		if text, _ := toolText(t, c.call(1, "tools/call", map[string]any{"name": "ask_form", "arguments": args})); text != want {
			t.Errorf("tool said %q, want %q", text, want)
		}
	})
}

// TestFormErrorMessage checks the text of a *FormError.
func TestFormErrorMessage(t *testing.T) {
	many := make([]string, 60)
	for i := range many {
		many[i] = fmt.Sprintf("f%d: wrong", i)
	}
	for _, tc := range []struct {
		violations []string
		want       string
	}{
		{nil, "the user's answer does not fit the form"},
		{[]string{"a: wrong"}, "the user's answer does not fit the form: a: wrong"},
		{[]string{"a: wrong", "b: worse"}, "the user's answer does not fit the form (2 problems):\n- a: wrong\n- b: worse"},
	} {
		if got := (&rt.FormError{Violations: tc.violations}).Error(); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.violations, got, tc.want)
		}
	}
	got := (&rt.FormError{Violations: many}).Error()
	if !strings.HasSuffix(got, "\n- f49: wrong\n- … and 10 more") {
		t.Errorf("60 violations: got …%q", got[len(got)-60:])
	}
}

// titledForm has titled choices, written as revision 2025-11-25 writes them.
type titledForm struct{ Color string }

func (*titledForm) MCPFormSchema() string {
	return `{"type":"object","properties":{"color":{"type":"string","oneOf":[{"const":"red","title":"Red"},{"const":"blue","title":"Deep blue"}]},"note":{"type":"string"}},"required":["color"]}`
}

func (f *titledForm) MCPDecodeForm(content []byte) error { return json.Unmarshal(content, f) }

// TestAskFormTitledChoices checks that titled choices go as they are to a
// client of 2025-11-25, and as enum and enumNames, which its revision
// knows, to a client of 2025-06-18, the properties in their order.
func TestAskFormTitledChoices(t *testing.T) {
	srv := rttest.NewServer()
	srv.AddTool(rt.Tool{Name: "pick", InputSchema: json.RawMessage(rttest.ObjSchema), Handler: func(ctx context.Context, req *rt.ToolRequest) (*rt.CallToolResult, error) {
		ans, _, err := rt.AskForm[titledForm](ctx, "Color?")
		if err != nil {
			return nil, err
		}
		return rt.TextResult(ans.Color), nil
	}})
	for _, tc := range []struct{ rev, caps, want string }{
		{"2025-11-25", `{"elicitation":{"form":{}}}`, `{"mode":"form","message":"Color?","requestedSchema":{"type":"object","properties":{"color":{"type":"string","oneOf":[{"const":"red","title":"Red"},{"const":"blue","title":"Deep blue"}]},"note":{"type":"string"}},"required":["color"]}}`},
		{"2025-06-18", `{"elicitation":{}}`, `{"message":"Color?","requestedSchema":{"type":"object","properties":{"color":{"type":"string","enum":["red","blue"],"enumNames":["Red","Deep blue"]},"note":{"type":"string"}},"required":["color"]}}`},
	} {
		t.Run(tc.rev, func(t *testing.T) {
			c := start(t, srv)
			c.initializeWith(tc.rev, tc.caps)
			c.toolCallAsync(1, "pick", nil)
			r := c.recvRequest("elicitation/create")
			jsonEqual(t, "elicitation params", r.Params, tc.want)
			if i, j := strings.Index(string(r.Params), `"color"`), strings.Index(string(r.Params), `"note"`); i < 0 || j < i {
				t.Errorf("the properties are not in their order: %s", r.Params)
			}
			c.answer(r.ID, `{"action":"accept","content":{"color":"blue"}}`)
			if text, _ := toolText(t, c.recvResponse("1")); text != "blue" {
				t.Errorf("tool said %q", text)
			}
		})
	}
}
