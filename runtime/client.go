package runtime

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
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
// not have the expected shape counts as not declared, and then none is.
// It reads them with the runtime's own decoder rather than encoding/json,
// whose first use builds its reflection tables: that would be most of the
// time a server takes to answer initialize. Member names match without
// regard to case, and a repeated member merges into or replaces the
// earlier one, as encoding/json does.
func parseClientCapabilities(raw []byte) Capabilities {
	return parseCapsInto(raw, nil)
}

// capStore holds the capabilities a Capabilities points to, for a value
// that lives as long as its capabilities (a request of revision
// 2026-07-28), so that they cost no allocation of their own.
type capStore struct {
	sampling    SamplingCapability
	elicitation ElicitationCapability
	roots       RootsCapability
}

// parseCapsInto is parseClientCapabilities with the declared capabilities
// held in st, or allocated when st is nil.
func parseCapsInto(raw []byte, st *capStore) Capabilities {
	caps := Capabilities{Raw: raw}
	if len(raw) == 0 {
		return caps
	}
	d := scanDecoders.Get().(*mcpimpl.Decoder) // result26.go; its stack kept from use to use
	defer func() {
		d.Reset(nil, "")
		scanDecoders.Put(d)
	}()
	d.Reset(raw, "capabilities")
	c, ok := readDeclaredCaps(d)
	if !ok || d.Err() != nil {
		return caps
	}
	if st == nil && (c.sampling || c.elicitation || c.roots) {
		st = new(capStore)
	}
	c.store(st)
	c.point(&caps, st)
	return caps
}

// store fills st with the capabilities c declares.
func (c declaredCaps) store(st *capStore) {
	if c.sampling {
		st.sampling = SamplingCapability{Context: c.samplingContext, Tools: c.samplingTools}
	}
	if c.elicitation {
		st.elicitation = ElicitationCapability{Form: c.form || !c.url, URL: c.url}
	}
	if c.roots {
		st.roots = RootsCapability{ListChanged: c.listChanged}
	}
}

// point points the members of caps at the capabilities of st that c
// declares.
func (c declaredCaps) point(caps *Capabilities, st *capStore) {
	if c.sampling {
		caps.Sampling = &st.sampling
	}
	if c.elicitation {
		caps.Elicitation = &st.elicitation
	}
	if c.roots {
		caps.Roots = &st.roots
	}
}

// readDeclaredCaps reads a client's capabilities, the value d is at,
// without recording a violation, so that the parse of a message can read
// them in passing. It reports false when they are not of the expected
// shape, and then none count as declared.
func readDeclaredCaps(d *mcpimpl.Decoder) (declaredCaps, bool) {
	var c declaredCaps
	if d.Null() {
		return c, true
	}
	if d.Peek() != mcpimpl.ObjectValue {
		d.Skip()
		return c, false
	}
	d.Object()
	ok := true
	for {
		key, more := d.Field()
		if !more {
			return c, ok
		}
		switch {
		case bytes.EqualFold(key, []byte("sampling")):
			c.sampling = readCapMembers(d, c.sampling, "context", "tools", &c.samplingContext, &c.samplingTools, &ok)
		case bytes.EqualFold(key, []byte("elicitation")):
			c.elicitation = readCapMembers(d, c.elicitation, "form", "url", &c.form, &c.url, &ok)
		case bytes.EqualFold(key, []byte("roots")):
			c.roots = readRootsCap(d, c.roots, &c.listChanged, &ok)
		}
	}
}

// declaredCaps is what parseClientCapabilities has read so far: which
// capabilities are present (as an object) and which of their members are
// declared (present and not null).
type declaredCaps struct {
	sampling, samplingContext, samplingTools bool
	elicitation, form, url                   bool
	roots, listChanged                       bool
}

// readCapMembers reads a capability that is null or an object whose
// members a and b count as declared when present and not null, other
// members being ignored. It reports whether the capability is present:
// null removes an earlier one, an object merges into it. A value of
// another type clears ok.
func readCapMembers(d *mcpimpl.Decoder, present bool, a, b string, hasA, hasB, ok *bool) bool {
	if d.Null() {
		*hasA, *hasB = false, false
		return false
	}
	if !present {
		*hasA, *hasB = false, false
	}
	if d.Peek() != mcpimpl.ObjectValue {
		d.Skip()
		*ok = false
		return false
	}
	d.Object()
	for {
		key, more := d.Field()
		if !more {
			return true
		}
		switch {
		case bytes.EqualFold(key, []byte(a)):
			*hasA = !d.Null()
		case bytes.EqualFold(key, []byte(b)):
			*hasB = !d.Null()
		}
		d.Skip() // the value, unless Null consumed it
	}
}

// readRootsCap reads the roots capability: null or an object whose
// listChanged is a boolean or null. It reports whether it is present, as
// readCapMembers does.
func readRootsCap(d *mcpimpl.Decoder, present bool, listChanged, ok *bool) bool {
	if d.Null() {
		*listChanged = false
		return false
	}
	if !present {
		*listChanged = false
	}
	if d.Peek() != mcpimpl.ObjectValue {
		d.Skip()
		*ok = false
		return false
	}
	d.Object()
	for {
		key, more := d.Field()
		if !more {
			return true
		}
		if bytes.EqualFold(key, []byte("listChanged")) && !d.Null() {
			if d.Peek() != mcpimpl.BoolValue {
				*ok = false
			} else {
				*listChanged, _ = d.Bool()
			}
		}
		d.Skip() // the value, unless read above
	}
}

// ClientInfo returns what the client of ctx, a handler's context, said
// about itself in initialize; the zero value outside a session.
func ClientInfo(ctx context.Context) Implementation {
	s := SessionFromContext(ctx)
	if s == nil {
		return Implementation{}
	}
	if q := request26Of(ctx); q != nil {
		return q.info() // revision 2026-07-28: the request's own
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
		c = q.capabilities() // revision 2026-07-28: the request's own
		q.rawMeta(func(caps, _ []byte) { c.Raw = append(json.RawMessage(nil), caps...) })
	} else {
		c.Raw = append(json.RawMessage(nil), c.Raw...)
	}
	c.Sampling, c.Elicitation, c.Roots = clone(c.Sampling), clone(c.Elicitation), clone(c.Roots)
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
