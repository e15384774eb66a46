package runtime

import (
	"bytes"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// The _meta of a request is read while the message's parse validates its
// params (readParams), with the runtime's decoder: neither a second pass
// over the params nor encoding/json, which allocates for every member it
// meets. The parse takes the shape clients send: an object whose _meta is
// an object of well-typed members. Anything else (a member named in
// another case, which encoding/json would match, a repeated _meta, a value
// of another type) it leaves to decodeMeta26, which reads the params as it
// always has, or says what is wrong.

// The states of what the parse read of params._meta.
const (
	metaNone = iota // the params have no _meta, or are not an object
	metaRead        // read: the rest of the meta26 holds
	metaOdd         // a shape the parse does not read: decodeMeta26 reads it
)

// meta26 is the _meta of a request, as read from its params.
type meta26 struct {
	version    string
	hasVersion bool
	state      uint8 // metaNone, metaRead or metaOdd
	caps       []byte
	info       []byte // clientInfo, raw
	level      LogLevel

	// declared is what caps declares, when capsRead: the parse reads it
	// in passing.
	declared declaredCaps
	capsRead bool

	// retry is set when the params have a requestState member: the
	// request is a retry of a multi round-trip request (openState).
	retry bool
}

// readMeta26Member reads the _meta member of params whose name, key, the
// decoder d has just returned, into mt, and notes a requestState member.
func readMeta26Member(d *mcpimpl.Decoder, key []byte, mt *meta26) {
	if string(key) == "requestState" {
		mt.retry = true
		return
	}
	if string(key) != "_meta" {
		if len(key) == len("_meta") && bytes.EqualFold(key, []byte("_meta")) {
			mt.state = metaOdd
		}
		return // skipped by the next Field
	}
	if mt.state != metaNone || d.Peek() != mcpimpl.ObjectValue || !d.Object() {
		mt.state = metaOdd
		return
	}
	mt.state = metaRead
	for {
		key, ok := d.Field()
		if !ok {
			return
		}
		switch string(key) {
		case metaProtocolVersion:
			if d.Peek() != mcpimpl.StringValue {
				mt.state = metaOdd
				continue
			}
			v, _ := d.StringView()
			mt.version, mt.hasVersion = versionString(v), true
		case metaClientCaps:
			c, ok := readDeclaredCaps(d) // client.go
			if !ok {
				c = declaredCaps{} // as parseClientCapabilities: none declared
			}
			mt.caps, mt.declared, mt.capsRead = d.LastView(), c, true
		case metaClientInfo:
			mt.info, _ = d.RawView() // read when asked for (request26.info)
		case metaLogLevel:
			if d.Peek() != mcpimpl.StringValue {
				mt.state = metaOdd
				continue
			}
			v, _ := d.StringView()
			mt.level = levelOff
			for l := LevelDebug; l <= LevelEmergency; l++ {
				if l.String() == string(v) {
					mt.level = l
				}
			}
			if mt.level == levelOff {
				mt.state = metaOdd // decodeMeta26 names the level that is not one
			}
		}
	}
}

// meta26Of returns the _meta of the request m, as the parse read it or,
// where it did not, as decodeMeta26 reads it, in m.
func meta26Of(m *message) (*meta26, *Error) {
	switch m.meta.state {
	case metaRead:
		return &m.meta, nil
	case metaOdd:
		var err *Error
		m.meta, err = decodeMeta26(m.params)
		return &m.meta, err
	}
	m.meta = meta26{level: levelOff}
	return &m.meta, nil
}

// versionString returns v as a string, without a copy when it names a
// revision the server knows.
func versionString(v []byte) string {
	for i := len(revisions) - 1; i >= 0; i-- { // the newest first: those are what send _meta
		if revisions[i] == string(v) {
			return revisions[i]
		}
	}
	return string(v)
}
