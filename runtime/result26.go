package runtime

import (
	"bytes"
	"context"
	"slices"
	"strconv"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

// Completing a result for revision 2026-07-28 without decoding it. Every
// 2026-07-28 result carries resultType and the server's identity in
// _meta, and list and read results a cache hint (rev2026.go). The results
// of tools/call, resources/read, prompts/get and completion/complete are
// written with them by their encoders (appendCallResult, endResult26);
// any other result gets them spliced in: its top-level members are scanned
// with the runtime's decoder, which validates the result without keeping
// anything of it, and the new members are appended at its end, the
// server's identity into its _meta if it has one. Adding them costs a scan
// and a copy of the result, not a decode and an encode; a result that is
// not a well-formed object, or whose members the splice would have to
// replace rather than add to, takes the general path (completeDecoded).

// scanDecoders holds the decoders that scan results and request _meta; a
// result is completed on the goroutine of its call, not on the session's
// reading one, whose decoder it cannot borrow.
var scanDecoders = sync.Pool{New: func() any { return new(mcpimpl.Decoder) }}

// appendMembers26 appends the members a 2026-07-28 result gets: resultType
// (kind), _meta holding the server's identity and, with cache, the server's
// cache hint.
func (srv *Server) appendMembers26(dst []byte, kind string, cache bool) []byte {
	dst = append(dst, `"resultType":`...)
	dst = appendString(dst, kind)
	dst = append(dst, `,"_meta":{"`+metaServerInfo+`":`...)
	dst = srv.appendServerInfo(dst)
	dst = append(dst, '}')
	if cache {
		dst = srv.appendCacheHint(dst)
	}
	return dst
}

// appendCacheHint appends the ttlMs and cacheScope members of the server's
// cache hint.
func (srv *Server) appendCacheHint(dst []byte) []byte {
	scope := srv.opts.cache.scope
	if scope == "" {
		scope = CachePrivate
	}
	dst = append(dst, `,"ttlMs":`...)
	dst = strconv.AppendInt(dst, srv.opts.cache.ttlMs, 10)
	dst = append(dst, `,"cacheScope":`...)
	return appendString(dst, scope)
}

// members26Size is about how long the members appendMembers26 writes are.
func (srv *Server) members26Size() int {
	return 160 + len(srv.name) + len(srv.version) + len(srv.opts.title)
}

// appendCallResult appends the result of a tools/call answered through
// ctx: for a request of revision 2026-07-28 complete, so that the reply
// goes out as it is written.
func (s *Session) appendCallResult(ctx context.Context, dst []byte, res *CallToolResult) []byte {
	var q *request26
	if s.rev == rev20260728 {
		q = request26Of(ctx)
	}
	if q == nil {
		return res.appendJSON(dst, s.rev)
	}
	// Grown once for both: a large result is not copied to add a few bytes.
	dst = slices.Grow(dst, res.sizeHint()+s.srv.members26Size())
	dst = res.appendJSON(dst, s.rev)
	dst[len(dst)-1] = ',' // the result has its content member
	dst = s.srv.appendMembers26(dst, "complete", false)
	q.written = true
	return append(dst, '}')
}

// endResult26 ends a result that a runtime encoder writes for the request
// of ctx, a result of at least one member with no _meta, resultType or
// cache hint of its own, before its closing brace: for a request of
// revision 2026-07-28 it appends the members that revision adds, with
// cache the server's cache hint, so that the reply goes out as it is.
func endResult26(ctx context.Context, dst []byte, cache bool) []byte {
	q := request26Of(ctx)
	if q == nil {
		return dst
	}
	dst = q.s.srv.appendMembers26(append(dst, ','), "complete", cache)
	q.written = true
	return dst
}

// finishResult26 completes result, a result the runtime built, of at
// least one member and with no _meta, resultType or cache hint of its own,
// by appending the members revision 2026-07-28 adds (see appendMembers26)
// before its closing brace.
func (srv *Server) finishResult26(result []byte, kind string, cache bool) []byte {
	result = srv.appendMembers26(append(result[:len(result)-1], ','), kind, cache)
	return append(result, '}')
}

// spliceResult appends result to dst completed as complete26 completes
// it, and reports whether it could; when it could not, dst is left as it
// was.
func (srv *Server) spliceResult(dst, result []byte, kind string, cache bool) ([]byte, bool) {
	d := scanDecoders.Get().(*mcpimpl.Decoder)
	defer func() {
		d.Reset(nil, "")
		scanDecoders.Put(d)
	}()
	d.Reset(result, "result")
	if d.Peek() != mcpimpl.ObjectValue || !d.Object() {
		return dst, false
	}
	members := 0
	var meta []byte // the value of _meta
	metaAt := -1
	hasTTL, hasScope := false, false
	for {
		key, ok := d.Field()
		if !ok {
			break
		}
		members++
		switch string(key) {
		case "_meta":
			if meta != nil || d.Peek() != mcpimpl.ObjectValue {
				return dst, false
			}
			meta, _ = d.RawView()
			metaAt = cap(result) - cap(meta) // meta is a slice of result
		case "resultType":
			return dst, false // replaced on the general path
		case "ttlMs":
			hasTTL = true
		case "cacheScope":
			hasScope = true
		}
	}
	if d.Err() != nil {
		return dst, false
	}
	addHint := cache && !hasTTL
	if addHint && hasScope {
		return dst, false // a scope without a TTL: replaced on the general path
	}
	metaMembers := 0
	if meta != nil {
		d.Reset(meta, "_meta")
		d.Object()
		for {
			key, ok := d.Field()
			if !ok {
				break
			}
			if string(key) == metaServerInfo {
				return dst, false // replaced on the general path
			}
			metaMembers++
		}
		if d.Err() != nil {
			return dst, false
		}
	}
	end := bytes.LastIndexByte(result, '}') // the result's own, past trailing space
	dst = slices.Grow(dst, len(result)+srv.members26Size())
	if meta == nil {
		dst = append(dst, result[:end]...)
		if members > 0 {
			dst = append(dst, ',')
		}
		dst = srv.appendMembers26(dst, kind, addHint)
		return append(dst, '}'), true
	}
	open := metaAt + bytes.IndexByte(meta, '{') + 1
	dst = append(dst, result[:open]...)
	dst = append(dst, `"`+metaServerInfo+`":`...)
	dst = srv.appendServerInfo(dst)
	if metaMembers > 0 {
		dst = append(dst, ',')
	}
	dst = append(dst, result[open:end]...)
	dst = append(dst, `,"resultType":`...)
	dst = appendString(dst, kind)
	if addHint {
		dst = srv.appendCacheHint(dst)
	}
	return append(dst, '}'), true
}

// spliceResponse appends msg, a response the runtime wrote to request q,
// to dst as revision 2026-07-28 has it, without decoding it (see
// request26.reply for what changes). It reports false for a message it
// cannot complete so, which then takes the general path.
func (q *request26) spliceResponse(dst, msg []byte) (out []byte, ok bool) {
	_, at, ok := responseID(msg)
	if !ok || msg[len(msg)-1] != '}' {
		return nil, false
	}
	rest := msg[at : len(msg)-1]
	const result, errCode = `"result":`, `"error":{"code":`
	switch {
	case bytes.HasPrefix(rest, []byte(result)):
		n := len(dst)
		dst = append(dst, msg[:at+len(result)]...)
		if dst, ok = q.s.srv.spliceResult(dst, rest[len(result):], "complete", cacheable(q.method)); !ok {
			return dst[:n], false
		}
		return append(dst, '}'), true
	case bytes.HasPrefix(rest, []byte(errCode)):
		code := rest[len(errCode):]
		if !bytes.HasPrefix(code, []byte(notFoundCode)) || len(code) == len(notFoundCode) || code[len(notFoundCode)] != ',' {
			return append(dst, msg...), true
		}
		if len(invalidParamsCode) != len(notFoundCode) {
			return nil, false
		}
		// Revision 2026-07-28 reports an unknown resource as invalid
		// params.
		n := len(dst)
		dst = append(dst, msg...)
		copy(dst[n+at+len(errCode):], invalidParamsCode)
		return dst, true
	}
	return nil, false
}

// The codes spliceResponse exchanges.
var notFoundCode, invalidParamsCode = strconv.Itoa(CodeResourceNotFound), strconv.Itoa(CodeInvalidParams)

// responseHead is how the runtime starts every response it writes.
const responseHead = `{"jsonrpc":"2.0","id":`

// responseID returns the id of msg, a response the runtime wrote, and
// the offset of what follows the comma after it; ok is false when msg does
// not start as the runtime writes a response: the head, an id that is a
// string or a number, a comma.
func responseID(msg []byte) (id []byte, at int, ok bool) {
	if !bytes.HasPrefix(msg, []byte(responseHead)) {
		return nil, 0, false
	}
	i := len(responseHead)
	if i < len(msg) && msg[i] == '"' {
		for i++; i < len(msg) && msg[i] != '"'; i++ {
			if msg[i] == '\\' {
				i++
			}
		}
		i++ // the closing quote
	} else {
		for i < len(msg) && (msg[i] == '-' || msg[i] == '+' || msg[i] == '.' || msg[i] == 'e' || msg[i] == 'E' || msg[i] >= '0' && msg[i] <= '9') {
			i++
		}
	}
	if i == len(responseHead) || i >= len(msg) || msg[i] != ',' {
		return nil, 0, false
	}
	return msg[len(responseHead):i], i + 1, true
}
