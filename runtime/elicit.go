package runtime

import (
	"context"
	"encoding/json"
	"fmt"
)

const methodElicit = "elicitation/create"

// The elicitation modes.
const (
	ElicitForm = "form" // a form the client shows, with a requested schema
	ElicitURL  = "url"  // a web page the client opens (revision 2025-11-25+)
)

// The actions a user takes on an elicitation.
const (
	ElicitAccept  = "accept"  // submitted the form, or agreed to open the URL
	ElicitDecline = "decline" // refused explicitly
	ElicitCancel  = "cancel"  // dismissed without choosing
)

// ElicitParams is a request to the client to ask its user for input
// (elicitation/create).
type ElicitParams struct {
	// Mode is ElicitForm (the default when "") or ElicitURL.
	Mode string
	// Message tells the user what is asked, and why.
	Message string
	// RequestedSchema, in form mode, is the JSON Schema of the answer: an
	// object of flat properties (strings, numbers, booleans, enums).
	RequestedSchema json.RawMessage
	// URL, in URL mode, is the page the user is sent to.
	URL string
	// ElicitationID, in URL mode, identifies the elicitation, unique within
	// the server.
	ElicitationID string
}

// ElicitResult is the user's answer to an elicitation.
type ElicitResult struct {
	// Action is ElicitAccept, ElicitDecline or ElicitCancel.
	Action string `json:"action"`
	// Content is the raw JSON object of the submitted form: present when
	// the user accepted a form.
	Content json.RawMessage `json:"content,omitempty"`
}

// Elicit asks the user of the client of ctx, a handler's context, for input
// (elicitation/create) and returns the answer. It fails at once, with an
// error matching [ErrCapability], when the client did not declare the
// elicitation capability for the mode, or its protocol revision lacks it
// (form mode came in 2025-06-18, URL mode in 2025-11-25). Within a request,
// over Streamable HTTP, the request goes on the request's event stream.
func Elicit(ctx context.Context, p *ElicitParams) (*ElicitResult, error) {
	t, err := talkerOf(ctx, "Elicit")
	if err != nil {
		return nil, err
	}
	rev, caps := t.s.rev, t.caps().Elicitation
	b := []byte(`{`)
	switch p.Mode {
	case "", ElicitForm:
		switch {
		case rev < rev20250618:
			return nil, &capabilityError{"Elicit", "elicitation needs protocol revision 2025-06-18 or later; the client speaks " + rev.String(), ""}
		case caps == nil || !caps.Form:
			return nil, &capabilityError{"Elicit", "the client did not declare the elicitation capability for forms", "elicitation.form"}
		}
		schema, err := requestedSchema(p.RequestedSchema)
		if err != nil {
			return nil, err
		}
		if rev < rev20251125 {
			if schema, err = formBefore20251125(schema, rev); err != nil {
				return nil, err
			}
		}
		if rev >= rev20251125 {
			b = append(b, `"mode":"form",`...)
		}
		b = append(b, `"message":`...)
		b = appendString(b, p.Message)
		b = append(b, `,"requestedSchema":`...)
		b = append(b, schema...)
	case ElicitURL:
		switch {
		case rev < rev20251125:
			return nil, &capabilityError{"Elicit", "URL elicitation needs protocol revision 2025-11-25 or later; the client speaks " + rev.String(), ""}
		case caps == nil || !caps.URL:
			return nil, &capabilityError{"Elicit", "the client did not declare the elicitation capability for URLs", "elicitation.url"}
		case p.URL == "" || p.ElicitationID == "" && rev < rev20260728:
			return nil, fmt.Errorf("runtime: Elicit: URL mode needs a URL and an ElicitationID")
		}
		b = append(b, `"mode":"url","message":`...)
		b = appendString(b, p.Message)
		b = append(b, `,"url":`...)
		b = appendString(b, p.URL)
		if rev < rev20260728 { // 2026-07-28 dropped it
			b = append(b, `,"elicitationId":`...)
			b = appendString(b, p.ElicitationID)
		}
	default:
		return nil, fmt.Errorf("runtime: Elicit: unknown mode %q; use ElicitForm or ElicitURL", p.Mode)
	}
	raw, err := t.request(ctx, methodElicit, append(b, '}'))
	if err != nil {
		return nil, err
	}
	res := new(ElicitResult)
	if err := json.Unmarshal(raw, res); err != nil {
		return nil, fmt.Errorf("runtime: Elicit: the client's answer is not an elicitation result: %.200s", raw)
	}
	switch res.Action {
	case ElicitAccept, ElicitDecline, ElicitCancel:
	default:
		return nil, fmt.Errorf("runtime: Elicit: the client answered with the unknown action %q", res.Action)
	}
	return res, nil
}

// requestedSchema checks the outline of a form's schema, compacted: an
// object schema with properties, which clients require.
func requestedSchema(raw json.RawMessage) ([]byte, error) {
	schema, err := compactJSON(raw)
	var outline struct {
		Type       string                     `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err != nil || len(schema) == 0 || schema[0] != '{' || json.Unmarshal(schema, &outline) != nil ||
		outline.Type != "object" || outline.Properties == nil {
		return nil, fmt.Errorf(`runtime: Elicit: RequestedSchema must be a JSON Schema object with "type":"object" and "properties", got %.100s`, raw)
	}
	return schema, nil
}

const notifyElicitationComplete = "notifications/elicitation/complete"

// CompleteElicitation tells the client of ctx that the URL-mode elicitation
// with the given id, answered earlier with ElicitAccept, is complete: the
// user finished on the web page (revision 2025-11-25+). It fails at once,
// with an error matching [ErrCapability], for a client without URL
// elicitation.
func CompleteElicitation(ctx context.Context, elicitationID string) error {
	t, err := talkerOf(ctx, "CompleteElicitation")
	if err != nil {
		return err
	}
	if caps := t.s.talk.caps.Elicitation; t.s.rev < rev20251125 || caps == nil || !caps.URL {
		return &capabilityError{"CompleteElicitation", "the client did not declare the elicitation capability for URLs", "elicitation.url"}
	}
	b := appendString([]byte(`{"elicitationId":`), elicitationID)
	return t.notify(notifyElicitationComplete, append(b, '}'))
}
