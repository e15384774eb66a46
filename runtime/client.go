package runtime

import (
	"context"
	"encoding/json"
)

// Implementation names a client or a server: the clientInfo of initialize.
type Implementation struct {
	Name    string
	Version string
	Title   string // human-readable name (revision 2025-06-18+)
}

// Capabilities are the optional features a client declared in
// initialize. A nil member means the client did not declare it, and the
// requests that need it fail at once.
type Capabilities struct {
	// Sampling: the client can sample an LLM for the server ([Sample]).
	Sampling *SamplingCapability
	// Elicitation: the client can ask its user for input ([Elicit]).
	Elicitation *ElicitationCapability
	// Roots: the client can list its roots ([Roots]).
	Roots *RootsCapability
	// Raw is the capabilities object as the client sent it, for the
	// members not listed here (experimental ones, for instance).
	Raw json.RawMessage
}

// SamplingCapability is the sampling capability of a client.
type SamplingCapability struct {
	Context bool // includeContext other than "none" is supported
	Tools   bool // tools and toolChoice are supported (revision 2025-11-25+)
}

// ElicitationCapability is the elicitation capability of a client: the
// modes it supports. A client that declares elicitation without modes
// supports the form mode.
type ElicitationCapability struct {
	Form bool
	URL  bool // revision 2025-11-25+
}

// RootsCapability is the roots capability of a client.
type RootsCapability struct {
	ListChanged bool // the client announces changes to its roots
}

// parseClientCapabilities reads the capabilities of initialize. What does
// not have the expected shape counts as not declared.
func parseClientCapabilities(raw []byte) Capabilities {
	caps := Capabilities{Raw: raw}
	var c struct {
		Sampling *struct {
			Context json.RawMessage `json:"context"`
			Tools   json.RawMessage `json:"tools"`
		} `json:"sampling"`
		Elicitation *struct {
			Form json.RawMessage `json:"form"`
			URL  json.RawMessage `json:"url"`
		} `json:"elicitation"`
		Roots *struct {
			ListChanged bool `json:"listChanged"`
		} `json:"roots"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &c) != nil {
		return caps
	}
	declared := func(m json.RawMessage) bool { return len(m) > 0 && string(m) != "null" }
	if c.Sampling != nil {
		caps.Sampling = &SamplingCapability{Context: declared(c.Sampling.Context), Tools: declared(c.Sampling.Tools)}
	}
	if e := c.Elicitation; e != nil {
		form, url := declared(e.Form), declared(e.URL)
		caps.Elicitation = &ElicitationCapability{Form: form || !url, URL: url}
	}
	if c.Roots != nil {
		caps.Roots = &RootsCapability{ListChanged: c.Roots.ListChanged}
	}
	return caps
}

// ClientInfo returns what the client of ctx, a handler's context, said
// about itself in initialize; the zero value outside a session.
func ClientInfo(ctx context.Context) Implementation {
	s := SessionFromContext(ctx)
	if s == nil {
		return Implementation{}
	}
	if q := request26Of(ctx); q != nil {
		return q.clientInfo // revision 2026-07-28: the request's own
	}
	return Implementation{Name: s.clientName, Version: s.clientVer, Title: s.talk.clientTitle}
}

// ClientCapabilities returns the capabilities the client of ctx, a
// handler's context, declared in initialize; the zero value outside a
// session. The result is the caller's own copy.
func ClientCapabilities(ctx context.Context) Capabilities {
	s := SessionFromContext(ctx)
	if s == nil {
		return Capabilities{}
	}
	c := s.talk.caps
	if q := request26Of(ctx); q != nil {
		c = q.caps // revision 2026-07-28: the request's own
	}
	c.Sampling, c.Elicitation, c.Roots = clone(c.Sampling), clone(c.Elicitation), clone(c.Roots)
	c.Raw = append(json.RawMessage(nil), c.Raw...)
	return c
}

// clone returns a copy of *p, or nil.
func clone[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// ProtocolVersion returns the protocol revision negotiated with the client
// of ctx, a handler's context, or "" outside an initialized session.
func ProtocolVersion(ctx context.Context) string {
	s := SessionFromContext(ctx)
	if s == nil {
		return ""
	}
	return s.ProtocolVersion()
}
