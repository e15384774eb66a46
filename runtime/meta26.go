package runtime

import (
	"bytes"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// scanMeta26 reads params._meta as readMeta26 does, with the runtime's
// decoder instead of encoding/json, which allocates for every member it
// meets. It takes the shape clients send: an object whose _meta is an
// object of well-typed members. On anything else (a member named in
// another case, which encoding/json would match, a repeated _meta, a value
// of another type, malformed JSON) it reports false, and readMeta26 reads
// the params again to say what is wrong, or to read them as it always has.
// The result's caps alias params.
func scanMeta26(params []byte) (meta26, bool) {
	mt := meta26{level: levelOff}
	d := scanDecoders.Get().(*mcpimpl.Decoder)
	defer func() {
		d.Reset(nil, "")
		scanDecoders.Put(d)
	}()
	d.Reset(params, "params")
	if d.Peek() != mcpimpl.ObjectValue || !d.Object() {
		return mt, false
	}
	seen := false
	for {
		key, ok := d.Field()
		if !ok {
			break
		}
		if string(key) != "_meta" {
			if bytes.EqualFold(key, []byte("_meta")) {
				return mt, false
			}
			continue // skipped by the next Field
		}
		if seen || d.Peek() != mcpimpl.ObjectValue || !d.Object() {
			return mt, false
		}
		seen = true
		for {
			key, ok := d.Field()
			if !ok {
				break
			}
			switch string(key) {
			case metaProtocolVersion:
				v, ok := d.StringView()
				if !ok {
					return mt, false
				}
				mt.version, mt.hasVersion = versionString(v), true
			case metaClientCaps:
				mt.caps, _ = d.RawView()
			case metaClientInfo:
				mt.info, _ = d.RawView() // read when asked for (request26.info)
			case metaLogLevel:
				v, ok := d.StringView()
				if !ok {
					return mt, false
				}
				mt.level = levelOff
				for l := LevelDebug; l <= LevelEmergency; l++ {
					if l.String() == string(v) {
						mt.level = l
					}
				}
				if mt.level == levelOff {
					return mt, false // readMeta26 names the level that is not one
				}
			}
		}
	}
	return mt, d.Err() == nil
}

// versionString returns v as a string, without a copy when it names a
// revision the server knows.
func versionString(v []byte) string {
	for _, r := range revisions {
		if r == string(v) {
			return r
		}
	}
	return string(v)
}
