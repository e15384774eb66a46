package mcptest

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// Result is the result of a tools/call.
type Result struct {
	// Content holds the content blocks, in order.
	Content []Content `json:"content"`
	// StructuredContent is the raw JSON of the structured result; nil
	// when there is none.
	StructuredContent json.RawMessage `json:"structuredContent"`
	// IsError marks a tool error: the tool ran and failed, or its
	// arguments were invalid.
	IsError bool `json:"isError"`
	// Raw is the result as the server sent it.
	Raw json.RawMessage `json:"-"`

	t testing.TB
}

// Content is one content block of a result.
type Content struct {
	Type     string `json:"type"`               // "text", "image", "audio", "resource_link", "resource"
	Text     string `json:"text,omitempty"`     // a text block's text
	Data     string `json:"data,omitempty"`     // an image or audio block's base64 data
	MIMEType string `json:"mimeType,omitempty"` // an image or audio block's type
	URI      string `json:"uri,omitempty"`      // a resource link's URI
	// Resource is an embedded resource block's resource, raw.
	Resource json.RawMessage `json:"resource,omitempty"`
}

// Text returns the text of the result's text blocks, joined by newlines.
func (r *Result) Text() string {
	var texts []string
	for _, c := range r.Content {
		if c.Type == "text" {
			texts = append(texts, c.Text)
		}
	}
	return strings.Join(texts, "\n")
}

// WantOK fails the test, showing the error text, when the result is a tool
// error. It returns r, for chaining.
func (r *Result) WantOK() *Result {
	r.t.Helper()
	if r.IsError {
		r.t.Errorf("mcptest: the tool failed (isError): %s", r.Text())
	}
	return r
}

// WantError fails the test unless the result is a tool error whose text
// contains each of the given substrings. It returns r, for chaining.
func (r *Result) WantError(substrings ...string) *Result {
	r.t.Helper()
	if !r.IsError {
		r.t.Errorf("mcptest: the tool succeeded, want an error (isError); result: %s", r.Raw)
		return r
	}
	text := r.Text()
	for _, s := range substrings {
		if !strings.Contains(text, s) {
			r.t.Errorf("mcptest: the error text does not contain %q:\n%s", s, text)
		}
	}
	return r
}

// WantStructured fails the test unless the structured content equals the
// JSON want as a JSON value: object member order and spacing do not matter.
// It returns r, for chaining.
func (r *Result) WantStructured(want string) *Result {
	r.t.Helper()
	if r.StructuredContent == nil {
		r.t.Errorf("mcptest: the result has no structured content, want %s; result: %s", want, r.Raw)
		return r
	}
	var got, exp any
	if err := json.Unmarshal([]byte(want), &exp); err != nil {
		r.t.Fatalf("mcptest: WantStructured: want is not JSON: %v", err)
	}
	if err := json.Unmarshal(r.StructuredContent, &got); err != nil {
		r.t.Fatalf("mcptest: the structured content is not JSON: %v", err)
	}
	if !reflect.DeepEqual(got, exp) {
		r.t.Errorf("mcptest: structured content differs\n got: %s\nwant: %s", compact(r.StructuredContent), compact([]byte(want)))
	}
	return r
}

// Decode decodes the structured content into v with encoding/json; it ends
// the test when there is none or it does not decode.
func (r *Result) Decode(v any) {
	r.t.Helper()
	if r.StructuredContent == nil {
		r.t.Fatalf("mcptest: the result has no structured content; result: %s", r.Raw)
	}
	if err := json.Unmarshal(r.StructuredContent, v); err != nil {
		r.t.Fatalf("mcptest: the structured content does not decode into %T: %v", v, err)
	}
}

// Structured returns the structured content of r decoded as a T; it ends
// the test when there is none or it does not decode.
func Structured[T any](r *Result) T {
	r.t.Helper()
	var v T
	r.Decode(&v)
	return v
}

func compact(b []byte) []byte {
	var out bytes.Buffer
	if json.Compact(&out, b) != nil {
		return b
	}
	return out.Bytes()
}
