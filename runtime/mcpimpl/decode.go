package mcpimpl

import (
	"cmp"
	"encoding/base64"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"
)

// ValueKind is the JSON type of the next value.
type ValueKind uint8

const (
	// NoValue means there is no value to read: the end of the input, a
	// syntax error, a closing delimiter, or a position where the Decoder
	// expects no value.
	NoValue ValueKind = iota
	// NullValue is the literal null.
	NullValue
	// BoolValue is the literal true or false.
	BoolValue
	// NumberValue is a JSON number.
	NumberValue
	// StringValue is a JSON string.
	StringValue
	// ArrayValue is a JSON array.
	ArrayValue
	// ObjectValue is a JSON object.
	ObjectValue
)

// String returns the JSON Schema name of the kind ("null", "boolean",
// "number", "string", "array", "object"), or "nothing" for NoValue.
func (k ValueKind) String() string {
	switch k {
	case NullValue:
		return "null"
	case BoolValue:
		return "boolean"
	case NumberValue:
		return "number"
	case StringValue:
		return "string"
	case ArrayValue:
		return "array"
	case ObjectValue:
		return "object"
	}
	return "nothing"
}

// decMaxDepth is the deepest nesting of arrays and objects accepted; it
// matches the limit of encoding/json.
const decMaxDepth = 10000

// decGotLimit is the number of bytes of a value quoted in a violation before
// it is cut short.
const decGotLimit = 40

// valueKindOf maps the first byte of a value to its kind.
var valueKindOf = func() (t [256]ValueKind) {
	t['n'] = NullValue
	t['t'] = BoolValue
	t['f'] = BoolValue
	t['-'] = NumberValue
	for c := '0'; c <= '9'; c++ {
		t[c] = NumberValue
	}
	t['"'] = StringValue
	t['['] = ArrayValue
	t['{'] = ObjectValue
	return t
}()

// strPlainByte marks the bytes that a string may contain and that need no
// attention: printable ASCII other than '"' and '\\'.
var strPlainByte = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// Flags describing the content of a scanned string.
const (
	strEscaped = 1 << iota // contains a backslash escape
	strHigh                // contains bytes >= 0x80
)

// keepSmall returns s emptied, or nil if its capacity exceeds max, so that a
// reused Decoder does not hold on to memory an unusual input made it grow.
func keepSmall[T any](s []T, max int) []T {
	if cap(s) > max {
		return nil
	}
	return s[:0]
}

// decFrame is one open array or object.
type decFrame struct {
	obj   bool // object (else array)
	kesc  bool // the current key needs unescaping
	start int  // offset of the opening delimiter
	vpos  int  // offset of the current member's value; -1 before the first member
	index int  // array: index of the current element
	kbeg  int  // object: offset of the current key's content (after the quote)
	kend  int  // object: offset of the current key's closing quote
}

// Decoder reads one JSON document value by value, validating its syntax and
// collecting type violations, each with the JSON path where it occurred.
//
// Reads happen at value positions: the top-level value, the value after a
// key returned by Field, and an element announced by Elem. A read at a
// position where no value is expected (API misuse, or after a syntax error)
// returns zero values and false and records nothing. The first syntax error
// stops the Decoder: every later call returns zero values or false, so loops
// over Field and Elem end.
//
// A Decoder must not be used by several goroutines at once.
type Decoder struct {
	data  []byte
	pos   int
	start int // offset of the top-level value
	root  string

	stack   []decFrame
	skipStk []byte // delimiters of the containers open inside skipValue
	scratch []byte // unescaped key or string bytes

	lastKind ValueKind // kind of the value most recently consumed
	lastBeg  int       // its raw text, for scalars
	lastEnd  int

	violations []string
	syntax     *SyntaxError
	finished   bool // Err has validated the rest of the input

	own []byte // the input StringsDecoder built, kept for the next one
}

// NewDecoder returns a Decoder reading data. root names the document in
// violations recorded at the top level, e.g. "arguments".
func NewDecoder(data []byte, root string) *Decoder {
	d := new(Decoder)
	d.Reset(data, root)
	return d
}

// Reset makes d read data from the start, forgetting all state but keeping
// its buffers (unless an unusual input made them large). root names the
// document in violations recorded at the top level. Errors returned by Err
// before the Reset stay valid.
func (d *Decoder) Reset(data []byte, root string) {
	d.data = data
	d.root = root
	d.start = skipJSONSpace(data, 0)
	d.pos = d.start
	d.stack = keepSmall(d.stack, 256)
	d.skipStk = keepSmall(d.skipStk, 4096)
	d.scratch = keepSmall(d.scratch, 64<<10)
	d.lastKind = NoValue
	d.lastBeg, d.lastEnd = 0, 0
	d.violations = nil
	d.syntax = nil
	d.finished = false
}

// Peek returns the kind of the next value without consuming it. It returns
// NoValue at the end of the input, at a closing delimiter, at a byte that
// cannot start a value, after a syntax error, and where no value is expected.
// Peek judges by the first byte only; the value is validated when read.
func (d *Decoder) Peek() ValueKind {
	if !d.atValue() || d.pos >= len(d.data) {
		return NoValue
	}
	return valueKindOf[d.data[d.pos]]
}

// Null consumes the next value and returns true if it is null. Otherwise it
// consumes nothing and returns false.
func (d *Decoder) Null() bool {
	if !d.atValue() || d.pos >= len(d.data) || d.data[d.pos] != 'n' {
		return false
	}
	start := d.pos
	if !d.literal("null") {
		return false
	}
	d.setLast(NullValue, start)
	return true
}

// String reads a string. It allocates exactly once for a non-empty string
// and not at all for an empty one. Invalid UTF-8 and unpaired surrogate
// escapes become U+FFFD, as in encoding/json. On a value of another type it
// records a violation, skips the value and returns false.
func (d *Decoder) String() (string, bool) {
	c, ok := d.first()
	if !ok {
		return "", false
	}
	if c != '"' {
		d.mismatch("must be a string")
		return "", false
	}
	start := d.pos
	end, flags := d.scanString(start)
	if end < 0 {
		return "", false
	}
	d.pos = end + 1
	d.setLast(StringValue, start)
	raw := d.data[start+1 : end]
	if !strNeedsUnescape(raw, flags) {
		return string(raw), true
	}
	var b strings.Builder
	b.Grow(unescapedLen(raw))
	for i := 0; ; {
		j, r, next := unescapeStep(raw, i)
		b.Write(raw[i:j])
		if r < 0 {
			break
		}
		b.WriteRune(r)
		i = next
	}
	return b.String(), true
}

// Bool reads true or false. On a value of another type it records a
// violation, skips the value and returns false.
func (d *Decoder) Bool() (bool, bool) {
	c, ok := d.first()
	if !ok {
		return false, false
	}
	start := d.pos
	switch c {
	case 't':
		if !d.literal("true") {
			return false, false
		}
		d.setLast(BoolValue, start)
		return true, true
	case 'f':
		if !d.literal("false") {
			return false, false
		}
		d.setLast(BoolValue, start)
		return false, true
	}
	d.mismatch("must be a boolean")
	return false, false
}

// Int reads an integer that fits in a signed integer of the given size
// (8, 16, 32 or 64; other sizes count as 64). As in JSON Schema, a number
// with a fraction or exponent is accepted when its value is integral (5.0,
// 1e2). A fractional number, a number out of range, or a value of another
// type records a violation and returns false.
func (d *Decoder) Int(bits int) (int64, bool) { return d.IntWithin(bits, "", "") }

// IntWithin is Int for a value whose schema bounds it more tightly than its
// type does: a number beyond the type's range is reported as breaking the
// schema's bound, with low (for a number below the range) or high (above
// it), e.g. "must be an integer ≤ 100". An empty low or high keeps the
// type's own message.
func (d *Decoder) IntWithin(bits int, low, high string) (int64, bool) {
	n, at := d.readInt(bits)
	switch at {
	case notInteger:
		return 0, false
	case belowType:
		d.Invalid(cmp.Or(low, "must be an integer ≥ "+strconv.FormatInt(n, 10)))
		return 0, false
	case aboveType:
		d.Invalid(cmp.Or(high, "must be an integer ≤ "+strconv.FormatInt(n, 10)))
		return 0, false
	}
	return n, true
}

// typeRange says where a number read for an integer type lies.
type typeRange int8

const (
	inType     typeRange = iota // within the type's range
	belowType                   // below it
	aboveType                   // above it
	notInteger                  // no integer: a violation is recorded
)

// readInt reads an integer for a signed type of the given size (see Int):
// the number and inType, the type's least value and belowType, its
// largest and aboveType, or notInteger, having recorded the violation.
func (d *Decoder) readInt(bits int) (int64, typeRange) {
	raw, ok := d.number("must be an integer")
	if !ok {
		return 0, notInteger
	}
	if bits <= 0 || bits > 64 {
		bits = 64
	}
	limit := uint64(1)<<(bits-1) - 1 // largest magnitude of a positive value
	mag, neg, st := parseJSONInt(raw)
	switch {
	case st == intFraction:
		d.Invalid("must be an integer")
		return 0, notInteger
	case neg && (st == intOverflow || mag > limit+1):
		return -int64(limit) - 1, belowType
	case !neg && (st == intOverflow || mag > limit):
		return int64(limit), aboveType
	case neg:
		return int64(-mag), inType
	}
	return int64(mag), inType
}

// Uint reads a non-negative integer that fits in an unsigned integer of the
// given size (8, 16, 32 or 64; other sizes count as 64). Integral numbers
// written with a fraction or exponent are accepted as by Int. A negative,
// fractional or too large number, or a value of another type, records a
// violation and returns false.
func (d *Decoder) Uint(bits int) (uint64, bool) { return d.UintWithin(bits, "", "") }

// UintWithin is Uint with the schema's words for a number beyond the
// type's range, as IntWithin.
func (d *Decoder) UintWithin(bits int, low, high string) (uint64, bool) {
	n, at := d.readUint(bits)
	switch at {
	case notInteger:
		return 0, false
	case belowType:
		d.Invalid(cmp.Or(low, "must be an integer ≥ 0"))
		return 0, false
	case aboveType:
		d.Invalid(cmp.Or(high, "must be an integer ≤ "+strconv.FormatUint(n, 10)))
		return 0, false
	}
	return n, true
}

// readUint is readInt for an unsigned type: below it is 0.
func (d *Decoder) readUint(bits int) (uint64, typeRange) {
	raw, ok := d.number("must be an integer")
	if !ok {
		return 0, notInteger
	}
	if bits <= 0 || bits > 64 {
		bits = 64
	}
	limit := uint64(math.MaxUint64) >> (64 - bits)
	mag, neg, st := parseJSONInt(raw)
	switch {
	case st == intFraction:
		d.Invalid("must be an integer")
		return 0, notInteger
	case neg && (st == intOverflow || mag != 0):
		return 0, belowType
	case st == intOverflow || mag > limit:
		return limit, aboveType
	}
	return mag, inType
}

// Float reads a number that fits in a float64 (bits 64) or a float32 (bits
// 32). It returns the float64 nearest to the number as written, even for
// bits 32, so that bounds are compared with the value the client sent, not
// with its rounding to float32: a float32 field with maximum 0.8 accepts
// 0.8. Converting the result to float32 gives the float32 nearest to the
// number, as encoding/json decodes it. A number beyond the range of the
// type, or a value of another type, records a violation and returns false.
// Numbers too small to represent become zero.
func (d *Decoder) Float(bits int) (float64, bool) { return d.FloatWithin(bits, "", "") }

// FloatWithin is Float with the schema's words for a number beyond the
// type's range, as IntWithin.
func (d *Decoder) FloatWithin(bits int, low, high string) (float64, bool) {
	raw, ok := d.number("must be a number")
	if !ok {
		return 0, false
	}
	if bits != 32 {
		bits = 64
	}
	if f, ok := plainJSONFloat(raw, bits); ok {
		return f, true
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if bits == 32 && err == nil {
		f, err = nearFloat32(raw, f)
	}
	if err != nil || math.IsInf(f, 0) {
		limit := math.MaxFloat64
		if bits == 32 {
			limit = math.MaxFloat32
		}
		if raw[0] == '-' {
			d.Invalid(cmp.Or(low, "must be a number ≥ "+strconv.FormatFloat(-limit, 'g', -1, 64)))
		} else {
			d.Invalid(cmp.Or(high, "must be a number ≤ "+strconv.FormatFloat(limit, 'g', -1, 64)))
		}
		return 0, false
	}
	return f, true
}

// nearFloat32 checks that the number raw, whose nearest float64 is f, fits
// in a float32, and returns f, or in the rare case where rounding f to
// float32 differs from rounding raw to float32 directly (f lies halfway
// between two float32s, raw does not), the float64 next to f on the side
// of raw's float32, so that the conversion gives encoding/json's value.
func nearFloat32(raw []byte, f float64) (float64, error) {
	f32, err := strconv.ParseFloat(string(raw), 32)
	if err != nil {
		return 0, err
	}
	if float64(float32(f)) == f32 {
		return f, nil
	}
	return math.Nextafter(f, f32), nil
}

// Base64 reads a string holding standard, padded base64 (as encoding/json
// encodes a []byte) and returns the decoded bytes. Line breaks inside the
// encoded text are ignored. An invalid encoding or a value of another type
// records a violation and returns false.
func (d *Decoder) Base64() ([]byte, bool) {
	const expect = "must be a base64-encoded string"
	text, ok := d.stringBytes(expect)
	if !ok {
		return nil, false
	}
	out := make([]byte, base64.StdEncoding.DecodedLen(len(text)))
	n, err := base64.StdEncoding.Decode(out, text)
	if err != nil {
		d.Invalid(expect)
		return nil, false
	}
	return out[:n:n], true
}

// Time reads a string holding an RFC 3339 date-time, parsed with layout
// time.RFC3339Nano. A malformed date-time or a value of another type records
// a violation and returns false.
func (d *Decoder) Time() (time.Time, bool) {
	const expect = "must be a date-time string (RFC 3339)"
	text, ok := d.stringBytes(expect)
	if !ok {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, string(text))
	if err != nil {
		d.Invalid(expect)
		return time.Time{}, false
	}
	return t, true
}

// Raw returns a copy of the raw JSON text of the next value, whatever its
// type, after validating it. It returns false at a syntax error and where no
// value is expected.
func (d *Decoder) Raw() ([]byte, bool) {
	if !d.atValue() {
		return nil, false
	}
	start := d.pos
	if !d.skip() {
		return nil, false
	}
	return append([]byte(nil), d.data[start:d.pos]...), true
}

// Skip consumes the next value, whatever its type, validating its syntax.
func (d *Decoder) Skip() {
	if d.atValue() {
		d.skip()
	}
}

// Object consumes the '{' opening an object, to be followed by calls to
// Field. On a value of another type it records a violation, skips the value
// and returns false.
func (d *Decoder) Object() bool {
	return d.open('{', "must be an object")
}

// Field advances to the next property of the object opened by Object. It
// returns the unescaped property name and makes it the last segment of the
// current path, replacing the previous property's. The name is valid until
// the next call on d and must not be modified. A property value left unread
// is skipped. At the end of the object Field consumes the '}', removes the
// object's segment from the path and returns false; it also returns false
// when the innermost open container is not an object, and after a syntax
// error.
func (d *Decoder) Field() ([]byte, bool) {
	if d.syntax != nil || len(d.stack) == 0 {
		return nil, false
	}
	f := &d.stack[len(d.stack)-1]
	if !f.obj {
		return nil, false
	}
	data := d.data
	i := d.pos
	if f.vpos >= 0 {
		if i == f.vpos {
			if !d.skipValue() {
				return nil, false
			}
			i = d.pos
		}
		i = skipJSONSpace(data, i)
		if i < len(data) && data[i] == ',' {
			i = skipJSONSpace(data, i+1)
			if i >= len(data) || data[i] != '"' {
				d.unexpected(i, "expected a property name")
				return nil, false
			}
		} else if i >= len(data) || data[i] != '}' {
			d.unexpected(i, "expected ',' or '}' after property value")
			return nil, false
		}
	} else {
		i = skipJSONSpace(data, i)
		if i >= len(data) || (data[i] != '"' && data[i] != '}') {
			d.unexpected(i, "expected a property name or '}'")
			return nil, false
		}
	}
	if data[i] == '}' {
		d.pos = i + 1
		d.close()
		return nil, false
	}
	end, flags := d.scanString(i)
	if end < 0 {
		return nil, false
	}
	j := skipJSONSpace(data, end+1)
	if j >= len(data) || data[j] != ':' {
		d.unexpected(j, "expected ':' after property name")
		return nil, false
	}
	j = skipJSONSpace(data, j+1)
	if j >= len(data) || valueKindOf[data[j]] == NoValue {
		d.unexpected(j, "expected a value")
		return nil, false
	}
	d.pos = j
	key := data[i+1 : end : end]
	f.kbeg, f.kend, f.vpos = i+1, end, j
	f.kesc = strNeedsUnescape(key, flags)
	if f.kesc {
		d.scratch = appendUnescaped(d.scratch[:0], key)
		return d.scratch, true
	}
	return key, true
}

// Array consumes the '[' opening an array, to be followed by calls to Elem.
// On a value of another type it records a violation, skips the value and
// returns false.
func (d *Decoder) Array() bool {
	return d.open('[', "must be an array")
}

// Elem advances to the next element of the array opened by Array and
// returns true if there is one, making its index (0, 1, 2…) the last
// segment of the current path. An element left unread is skipped. At the
// end of the array Elem consumes the ']', removes the index segment and
// returns false; it also returns false when the innermost open container is
// not an array, and after a syntax error.
func (d *Decoder) Elem() bool {
	if d.syntax != nil || len(d.stack) == 0 {
		return false
	}
	f := &d.stack[len(d.stack)-1]
	if f.obj {
		return false
	}
	data := d.data
	i := d.pos
	if f.vpos >= 0 {
		if i == f.vpos {
			if !d.skipValue() {
				return false
			}
			i = d.pos
		}
		i = skipJSONSpace(data, i)
		if i < len(data) && data[i] == ',' {
			i = skipJSONSpace(data, i+1)
			if i >= len(data) || valueKindOf[data[i]] == NoValue {
				d.unexpected(i, "expected a value")
				return false
			}
		} else if i >= len(data) || data[i] != ']' {
			d.unexpected(i, "expected ',' or ']' after array element")
			return false
		}
	} else {
		i = skipJSONSpace(data, i)
		if i >= len(data) || (data[i] != ']' && valueKindOf[data[i]] == NoValue) {
			d.unexpected(i, "expected a value or ']'")
			return false
		}
	}
	if data[i] == ']' {
		d.pos = i + 1
		d.close()
		return false
	}
	d.pos = i
	f.vpos = i
	f.index++
	return true
}

// Invalid records the violation "<path>: <expect>, got <value>", where value
// is the raw JSON of the value most recently consumed (cut to 40 bytes), or
// "an array" / "an object" when that value is a container. It is meant to be
// called right after a read whose value fails a further constraint.
func (d *Decoder) Invalid(expect string) {
	if d.syntax != nil {
		return
	}
	d.invalid(append(make([]byte, 0, 64), expect...))
}

// invalid records the violation "<path>: <expect>, got <value>" as Invalid
// does, expect being the start of b.
func (d *Decoder) invalid(b []byte) {
	switch d.lastKind {
	case NoValue:
	case ArrayValue:
		b = append(b, ", got an array"...)
	case ObjectValue:
		b = append(b, ", got an object"...)
	default:
		b = append(b, ", got "...)
		b = appendGot(b, d.data[d.lastBeg:d.lastEnd])
	}
	d.record("", false, string(b))
}

// Violation records the violation "<path>: <msg>".
func (d *Decoder) Violation(msg string) {
	if d.syntax == nil {
		d.record("", false, msg)
	}
}

// Missing records that the required property name is missing from the
// object at the current path: "<path>.<name>: required property is missing".
// It is meant to be called after Field has returned false.
func (d *Decoder) Missing(name string) {
	d.MemberViolation(name, "required property is missing")
}

// MemberViolation records the violation "<path>.<name>: <msg>" about the
// member name of the object at the current path, such as a missing one.
func (d *Decoder) MemberViolation(name, msg string) {
	if d.syntax == nil {
		d.record(name, true, msg)
	}
}

// Unknown, called right after Field has returned a property name that the
// object does not allow, records "<path>: unknown property (allowed:
// <allowed>)", or "<path>: unknown property (no properties are allowed)"
// when allowed is empty, and skips the property's value.
func (d *Decoder) Unknown(allowed string) {
	if d.syntax != nil {
		return
	}
	if allowed == "" {
		d.record("", false, "unknown property (no properties are allowed)")
	} else {
		d.record("", false, "unknown property (allowed: "+allowed+")")
	}
	if n := len(d.stack); n > 0 && d.stack[n-1].obj && d.stack[n-1].vpos == d.pos {
		d.skip()
	}
}

// Failed reports whether a violation or a syntax error has been recorded.
func (d *Decoder) Failed() bool {
	return d.syntax != nil || len(d.violations) > 0
}

// Err validates whatever part of the input has not been read and returns
// the outcome: nil when the input is exactly one well-formed JSON value,
// optionally surrounded by whitespace, and no violation was recorded; a
// *SyntaxError when the input is not well-formed JSON; otherwise a
// *ValidationError listing the violations.
func (d *Decoder) Err() error {
	if !d.finished {
		d.finish()
	}
	if d.syntax != nil {
		return d.syntax
	}
	if len(d.violations) > 0 {
		return &ValidationError{Violations: d.violations}
	}
	return nil
}

// ValidationError reports values that are well-formed JSON but do not match
// the expected schema.
type ValidationError struct {
	Violations []string // each "<path>: <problem>", in the order recorded
}

// maxListed is how many violations Error lists before summing up the
// rest: enough to fix a call, not so many that they drown the model.
const maxListed = 50

// Error lists the violations, one per line when there are several.
func (e *ValidationError) Error() string {
	switch len(e.Violations) {
	case 0:
		return "invalid arguments"
	case 1:
		return "invalid arguments: " + e.Violations[0]
	}
	var b strings.Builder
	b.WriteString("invalid arguments (")
	b.WriteString(strconv.Itoa(len(e.Violations)))
	b.WriteString(" problems):")
	for i, v := range e.Violations {
		if i == maxListed && len(e.Violations) > maxListed+1 {
			b.WriteString("\n- … and ")
			b.WriteString(strconv.Itoa(len(e.Violations) - i))
			b.WriteString(" more")
			break
		}
		b.WriteString("\n- ")
		b.WriteString(v)
	}
	return b.String()
}

// SyntaxError reports input that is not well-formed JSON.
type SyntaxError struct {
	Offset int    // byte offset in the input where the problem was found
	Msg    string // description of the problem
}

// Error formats the error as "invalid JSON at offset N: <Msg>".
func (e *SyntaxError) Error() string {
	return "invalid JSON at offset " + strconv.Itoa(e.Offset) + ": " + e.Msg
}

// atValue reports whether d is at a position where a value is expected and
// not yet consumed.
func (d *Decoder) atValue() bool {
	if d.syntax != nil {
		return false
	}
	if n := len(d.stack); n > 0 {
		return d.stack[n-1].vpos == d.pos
	}
	return d.pos == d.start
}

// first returns the first byte of the value at d.pos, recording a syntax
// error at the end of the input.
func (d *Decoder) first() (byte, bool) {
	if !d.atValue() {
		return 0, false
	}
	if d.pos >= len(d.data) {
		d.unexpected(d.pos, "expected a value")
		return 0, false
	}
	return d.data[d.pos], true
}

// setLast remembers the value spanning data[start:d.pos] as the one most
// recently consumed.
func (d *Decoder) setLast(k ValueKind, start int) {
	d.lastKind, d.lastBeg, d.lastEnd = k, start, d.pos
}

// mismatch skips the value at d.pos and, if it is well-formed, records the
// violation expect.
func (d *Decoder) mismatch(expect string) {
	if d.skip() {
		d.Invalid(expect)
	}
}

// skip consumes the value at d.pos and remembers it as the last value.
func (d *Decoder) skip() bool {
	start := d.pos
	if !d.skipValue() {
		return false
	}
	d.setLast(valueKindOf[d.data[start]], start)
	return true
}

// number consumes the number at d.pos and returns its text. On a value of
// another type it records the violation expect and returns false.
func (d *Decoder) number(expect string) ([]byte, bool) {
	c, ok := d.first()
	if !ok {
		return nil, false
	}
	if valueKindOf[c] != NumberValue {
		d.mismatch(expect)
		return nil, false
	}
	start := d.pos
	end := d.scanNumber(start)
	if end < 0 {
		return nil, false
	}
	d.pos = end
	d.setLast(NumberValue, start)
	return d.data[start:end], true
}

// stringBytes consumes the string at d.pos and returns its decoded content
// (as String decodes it), valid until the next call on d. On a value of another type it
// records the violation expect and returns false.
func (d *Decoder) stringBytes(expect string) ([]byte, bool) {
	c, ok := d.first()
	if !ok {
		return nil, false
	}
	if c != '"' {
		d.mismatch(expect)
		return nil, false
	}
	start := d.pos
	end, flags := d.scanString(start)
	if end < 0 {
		return nil, false
	}
	d.pos = end + 1
	d.setLast(StringValue, start)
	raw := d.data[start+1 : end]
	if !strNeedsUnescape(raw, flags) {
		return raw, true
	}
	d.scratch = appendUnescaped(d.scratch[:0], raw)
	return d.scratch, true
}

// literal consumes the literal lit at d.pos.
func (d *Decoder) literal(lit string) bool {
	i := d.pos
	for k := 0; k < len(lit); k++ {
		if i+k >= len(d.data) || d.data[i+k] != lit[k] {
			d.unexpected(i+k, "in literal "+lit)
			return false
		}
	}
	d.pos = i + len(lit)
	return true
}

// open consumes the delimiter delim ('{' or '[') at d.pos and pushes a frame.
func (d *Decoder) open(delim byte, expect string) bool {
	c, ok := d.first()
	if !ok {
		return false
	}
	if c != delim {
		d.mismatch(expect)
		return false
	}
	if len(d.stack) >= decMaxDepth {
		d.fail(d.pos, "nesting exceeds the maximum depth of "+strconv.Itoa(decMaxDepth))
		return false
	}
	if d.stack == nil {
		// Room for three levels at once (the params of a request, its
		// _meta, a member of that), not grown for each by a new
		// Decoder's first nested objects.
		d.stack = make([]decFrame, 0, 3)
	}
	d.stack = append(d.stack, decFrame{obj: delim == '{', start: d.pos, vpos: -1, index: -1})
	d.pos++
	if delim == '{' {
		d.lastKind = ObjectValue
	} else {
		d.lastKind = ArrayValue
	}
	return true
}

// close pops the innermost frame, whose closing delimiter has just been
// consumed.
func (d *Decoder) close() {
	f := d.stack[len(d.stack)-1]
	d.stack = d.stack[:len(d.stack)-1]
	k := ArrayValue
	if f.obj {
		k = ObjectValue
	}
	d.setLast(k, f.start)
}

// finish validates the unread rest of the input.
func (d *Decoder) finish() {
	for len(d.stack) > 0 && d.syntax == nil {
		if d.stack[len(d.stack)-1].obj {
			for {
				if _, ok := d.Field(); !ok {
					break
				}
			}
		} else {
			for d.Elem() {
			}
		}
	}
	if d.syntax != nil {
		return
	}
	if d.pos == d.start {
		if d.pos >= len(d.data) {
			d.unexpected(d.pos, "expected a value")
			return
		}
		if !d.skipValue() {
			return
		}
	}
	if i := skipJSONSpace(d.data, d.pos); i < len(d.data) {
		d.unexpected(i, "after top-level value")
		return
	}
	d.finished = true
}

// skipValue consumes the value at d.pos, validating it, without recursion.
func (d *Decoder) skipValue() bool {
	data := d.data
	i := d.pos
	base := len(d.stack)
	stk := d.skipStk[:0]
value:
	for {
		if i >= len(data) {
			d.unexpected(i, "expected a value")
			return false
		}
		switch c := data[i]; c {
		case '{', '[':
			if base+len(stk) >= decMaxDepth {
				d.fail(i, "nesting exceeds the maximum depth of "+strconv.Itoa(decMaxDepth))
				return false
			}
			stk = append(stk, c)
			d.skipStk = stk
			i = skipJSONSpace(data, i+1)
			if i < len(data) && data[i] == c+2 { // '}' or ']'
				stk = stk[:len(stk)-1]
				i++
				break
			}
			if c == '{' {
				if i = d.skipName(i, "expected a property name or '}'"); i < 0 {
					return false
				}
			}
			continue value
		case '"':
			end, _ := d.scanString(i)
			if end < 0 {
				return false
			}
			i = end + 1
		case 't', 'f', 'n':
			lit := "null"
			if c == 't' {
				lit = "true"
			} else if c == 'f' {
				lit = "false"
			}
			d.pos = i
			if !d.literal(lit) {
				return false
			}
			i = d.pos
		default:
			if valueKindOf[c] != NumberValue {
				d.unexpected(i, "expected a value")
				return false
			}
			if i = d.scanNumber(i); i < 0 {
				return false
			}
		}
		for len(stk) > 0 {
			i = skipJSONSpace(data, i)
			top := stk[len(stk)-1]
			if i < len(data) && data[i] == ',' {
				i = skipJSONSpace(data, i+1)
				if top == '{' {
					if i = d.skipName(i, "expected a property name"); i < 0 {
						return false
					}
				}
				continue value
			}
			if i < len(data) && data[i] == top+2 {
				stk = stk[:len(stk)-1]
				i++
				continue
			}
			if top == '{' {
				d.unexpected(i, "expected ',' or '}' after property value")
			} else {
				d.unexpected(i, "expected ',' or ']' after array element")
			}
			return false
		}
		d.pos = i
		return true
	}
}

// skipName consumes a property name and its colon at i and returns the
// offset of the value, or -1 after recording a syntax error.
func (d *Decoder) skipName(i int, expect string) int {
	data := d.data
	if i >= len(data) || data[i] != '"' {
		d.unexpected(i, expect)
		return -1
	}
	end, _ := d.scanString(i)
	if end < 0 {
		return -1
	}
	i = skipJSONSpace(data, end+1)
	if i >= len(data) || data[i] != ':' {
		d.unexpected(i, "expected ':' after property name")
		return -1
	}
	return skipJSONSpace(data, i+1)
}

// scanString validates the string whose opening quote is at i and returns
// the offset of its closing quote and flags describing its content, or -1
// after recording a syntax error.
func (d *Decoder) scanString(i int) (int, int) {
	data := d.data
	flags := 0
	i++
	for {
		for n := min(i+16, len(data)); i < n && strPlainByte[data[i]]; {
			i++
		}
		if i < len(data) && strPlainByte[data[i]] {
			i = plainRun(data, i)
		}
		if i >= len(data) {
			d.unexpected(i, "in string")
			return -1, 0
		}
		switch c := data[i]; {
		case c == '"':
			return i, flags
		case c == '\\':
			flags |= strEscaped
			if i+1 >= len(data) {
				d.unexpected(i+1, "in string escape")
				return -1, 0
			}
			switch data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				for k := i + 2; k < i+6; k++ {
					if k >= len(data) || hexDigitVal(data[k]) < 0 {
						d.unexpected(k, "in \\u escape (expected 4 hexadecimal digits)")
						return -1, 0
					}
				}
				i += 6
			default:
				d.unexpected(i+1, "in string escape")
				return -1, 0
			}
		case c < 0x20:
			d.fail(i, "invalid control character "+syntaxChar(c)+" in string (it must be escaped)")
			return -1, 0
		default:
			flags |= strHigh
			i++
		}
	}
}

// scanNumber validates the number starting at i and returns the offset
// just past it, or -1 after recording a syntax error.
func (d *Decoder) scanNumber(i int) int {
	data := d.data
	if i < len(data) && data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case i < len(data) && isDecDigit(data[i]):
		for i++; i < len(data) && isDecDigit(data[i]); i++ {
		}
	default:
		d.unexpected(i, "in number (expected a digit)")
		return -1
	}
	if i < len(data) && data[i] == '.' {
		i++
		if i >= len(data) || !isDecDigit(data[i]) {
			d.unexpected(i, "in number (expected a digit after '.')")
			return -1
		}
		for i++; i < len(data) && isDecDigit(data[i]); i++ {
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i >= len(data) || !isDecDigit(data[i]) {
			d.unexpected(i, "in number (expected a digit in the exponent)")
			return -1
		}
		for i++; i < len(data) && isDecDigit(data[i]); i++ {
		}
	}
	return i
}

// fail records the syntax error msg at offset off, unless one is recorded.
func (d *Decoder) fail(off int, msg string) {
	if d.syntax == nil {
		d.syntax = &SyntaxError{Offset: off, Msg: msg}
	}
}

// unexpected records a syntax error for the byte at offset i, or for the
// end of the input, with context appended.
func (d *Decoder) unexpected(i int, context string) {
	what := "unexpected end of input"
	if i < len(d.data) {
		what = "unexpected character " + syntaxChar(d.data[i])
	}
	if context[0] == 'e' { // "expected …"
		what += "; "
	} else {
		what += " "
	}
	d.fail(i, what+context)
}

// record appends a violation at the current path, extended by the property
// name extra when hasExtra is set.
func (d *Decoder) record(extra string, hasExtra bool, msg string) {
	b := make([]byte, 0, 32+len(msg))
	b = d.appendPath(b, extra, hasExtra)
	if len(b) > 0 {
		b = append(b, ": "...)
	}
	b = append(b, msg...)
	d.violations = append(d.violations, string(b))
}

// appendPath appends the current path: properties joined by dots, names
// that are not identifiers and array indexes in brackets, prefixed by the
// root name when the path is empty or starts with a bracket.
func (d *Decoder) appendPath(b []byte, extra string, hasExtra bool) []byte {
	first := true
	seg := func(name []byte, index int) {
		if name != nil && isPathIdent(name) {
			if !first {
				b = append(b, '.')
			}
			b = append(b, name...)
		} else {
			if first {
				b = append(b, d.root...)
			}
			b = append(b, '[')
			if name != nil {
				b = appendPathName(b, name)
			} else {
				b = strconv.AppendInt(b, int64(index), 10)
			}
			b = append(b, ']')
		}
		first = false
	}
	for k := range d.stack {
		f := &d.stack[k]
		switch {
		case f.vpos < 0:
		case !f.obj:
			seg(nil, f.index)
		case f.kesc:
			seg(appendUnescaped([]byte{}, d.data[f.kbeg:f.kend]), 0)
		default:
			seg(d.data[f.kbeg:f.kend:f.kend], 0)
		}
	}
	if hasExtra {
		seg(append([]byte{}, extra...), 0)
	}
	if first {
		b = append(b, d.root...)
	}
	return b
}

// isPathIdent reports whether name matches [A-Za-z_][A-Za-z0-9_-]*.
func isPathIdent(name []byte) bool {
	if len(name) == 0 {
		return false
	}
	for i, c := range name {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
		case i > 0 && (isDecDigit(c) || c == '-'):
		default:
			return false
		}
	}
	return true
}

// appendPathName appends s as a JSON string.
func appendPathName(b, s []byte) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for _, c := range s {
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c == '\t':
			b = append(b, '\\', 't')
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// appendGot appends raw, cut to decGotLimit bytes at a character boundary and
// followed by "…" when longer, with invalid UTF-8 replaced by U+FFFD.
func appendGot(b, raw []byte) []byte {
	cut := false
	if len(raw) > decGotLimit {
		n := decGotLimit
		for n > 0 && !utf8.RuneStart(raw[n]) {
			n--
		}
		raw, cut = raw[:n], true
	}
	for len(raw) > 0 {
		r, size := utf8.DecodeRune(raw)
		if r == utf8.RuneError && size == 1 {
			b = utf8.AppendRune(b, utf8.RuneError)
		} else {
			b = append(b, raw[:size]...)
		}
		raw = raw[size:]
	}
	if cut {
		b = append(b, "…"...)
	}
	return b
}

// syntaxChar renders the byte c for a syntax error message.
func syntaxChar(c byte) string {
	const hex = "0123456789abcdef"
	switch {
	case c == '\'':
		return `'\''`
	case c >= 0x20 && c < 0x7f:
		return "'" + string(rune(c)) + "'"
	}
	return `'\x` + string([]byte{hex[c>>4], hex[c&0xf]}) + "'"
}

// skipJSONSpace returns the offset of the first non-whitespace byte at or after i.
func skipJSONSpace(data []byte, i int) int {
	for i < len(data) {
		c := data[i]
		if c > ' ' || (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
			return i
		}
		i++
	}
	return i
}

func isDecDigit(c byte) bool { return c >= '0' && c <= '9' }

// hexDigitVal returns the value of the hexadecimal digit c, or -1.
func hexDigitVal(c byte) rune {
	switch {
	case c >= '0' && c <= '9':
		return rune(c - '0')
	case c >= 'a' && c <= 'f':
		return rune(c - 'a' + 10)
	case c >= 'A' && c <= 'F':
		return rune(c - 'A' + 10)
	}
	return -1
}

// hexEscape returns the value of four hexadecimal digits, or -1 when b does not
// start with "\u" and four hexadecimal digits.
func hexEscape(b []byte) rune {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range b[2:6] {
		v := hexDigitVal(c)
		if v < 0 {
			return -1
		}
		r = r<<4 | v
	}
	return r
}

// strNeedsUnescape reports whether the content raw of a scanned string with
// the given flags differs from its decoded form.
func strNeedsUnescape(raw []byte, flags int) bool {
	return flags&strEscaped != 0 || (flags&strHigh != 0 && !utf8.Valid(raw))
}

// unescapeStep decodes the validated string content raw from offset i:
// raw[i:j] is to be copied verbatim and followed by the rune r, after which
// decoding continues at next. r is -1 when raw[i:] needs no decoding. Escapes
// and invalid UTF-8 are decoded as by encoding/json: an unpaired surrogate
// and each invalid byte become U+FFFD.
func unescapeStep(raw []byte, i int) (j int, r rune, next int) {
	for j = i; j < len(raw); {
		c := raw[j]
		if c == '\\' {
			break
		}
		if c < utf8.RuneSelf {
			j++
			continue
		}
		dec, size := utf8.DecodeRune(raw[j:])
		if dec == utf8.RuneError && size == 1 {
			return j, utf8.RuneError, j + 1
		}
		j += size
	}
	if j+1 >= len(raw) {
		return len(raw), -1, len(raw)
	}
	switch raw[j+1] {
	case 'b':
		return j, '\b', j + 2
	case 'f':
		return j, '\f', j + 2
	case 'n':
		return j, '\n', j + 2
	case 'r':
		return j, '\r', j + 2
	case 't':
		return j, '\t', j + 2
	case 'u':
		r1 := hexEscape(raw[j:])
		if r1 < 0 {
			return j, utf8.RuneError, len(raw)
		}
		if utf16.IsSurrogate(r1) {
			if dec := utf16.DecodeRune(r1, hexEscape(raw[j+6:])); dec != utf8.RuneError {
				return j, dec, j + 12
			}
			return j, utf8.RuneError, j + 6
		}
		return j, r1, j + 6
	}
	return j, rune(raw[j+1]), j + 2
}

// unescapedLen returns the length of the decoded form of raw.
func unescapedLen(raw []byte) int {
	n := 0
	for i := 0; ; {
		j, r, next := unescapeStep(raw, i)
		n += j - i
		if r < 0 {
			return n
		}
		n += utf8.RuneLen(r)
		i = next
	}
}

// appendUnescaped appends the decoded form of raw to b.
func appendUnescaped(b, raw []byte) []byte {
	for i := 0; ; {
		j, r, next := unescapeStep(raw, i)
		b = append(b, raw[i:j]...)
		if r < 0 {
			return b
		}
		b = utf8.AppendRune(b, r)
		i = next
	}
}

// Outcomes of parseJSONInt.
const (
	intOK       = iota
	intFraction // not an integer
	intOverflow // magnitude beyond uint64
)

// parseJSONInt returns the magnitude and sign of the valid JSON number raw
// if it is an integer that fits in a uint64.
func parseJSONInt(raw []byte) (mag uint64, neg bool, status int) {
	i := 0
	if raw[0] == '-' {
		neg, i = true, 1
	}
	if len(raw)-i <= 19 {
		j := i
		for ; j < len(raw); j++ {
			c := raw[j] - '0'
			if c > 9 {
				break
			}
			mag = mag*10 + uint64(c)
		}
		if j == len(raw) {
			return mag, neg, intOK
		}
	}
	mag, status = exactJSONInt(raw[i:])
	return mag, neg, status
}

// exactJSONInt handles the general case of parseJSONInt for the unsigned
// number raw, exactly, whatever its fraction and exponent.
func exactJSONInt(raw []byte) (uint64, int) {
	i := 0
	for i < len(raw) && isDecDigit(raw[i]) {
		i++
	}
	intPart := raw[:i]
	var frac []byte
	if i < len(raw) && raw[i] == '.' {
		k := i + 1
		for i = k; i < len(raw) && isDecDigit(raw[i]); i++ {
		}
		frac = raw[k:i]
	}
	var exp int64
	if i < len(raw) {
		i++ // 'e' or 'E'
		eneg := false
		if raw[i] == '+' || raw[i] == '-' {
			eneg = raw[i] == '-'
			i++
		}
		for ; i < len(raw); i++ {
			if exp < 1<<40 {
				exp = exp*10 + int64(raw[i]-'0')
			}
		}
		if eneg {
			exp = -exp
		}
	}
	// The digits of intPart and frac form one sequence; the digit at index
	// k has weight 10^(len(intPart)-1-k+exp).
	n := len(intPart) + len(frac)
	digit := func(k int) uint64 {
		if k < len(intPart) {
			return uint64(intPart[k] - '0')
		}
		return uint64(frac[k-len(intPart)] - '0')
	}
	lo, hi := 0, n-1
	for lo < n && digit(lo) == 0 {
		lo++
	}
	if lo == n {
		return 0, intOK
	}
	for digit(hi) == 0 {
		hi--
	}
	weight := func(k int) int64 { return int64(len(intPart)-1-k) + exp }
	if weight(hi) < 0 {
		return 0, intFraction
	}
	if weight(lo) >= 20 {
		return 0, intOverflow
	}
	var mag uint64
	for k := lo; k <= hi; k++ {
		dg := digit(k)
		if mag > (math.MaxUint64-dg)/10 {
			return 0, intOverflow
		}
		mag = mag*10 + dg
	}
	for e := weight(hi); e > 0; e-- {
		if mag > math.MaxUint64/10 {
			return 0, intOverflow
		}
		mag *= 10
	}
	return mag, intOK
}

// plainJSONFloat converts raw without strconv when it is a short plain integer
// that the float type of the given size represents exactly.
func plainJSONFloat(raw []byte, bits int) (float64, bool) {
	neg := raw[0] == '-'
	digits := raw
	if neg {
		digits = raw[1:]
	}
	max := 15
	if bits == 32 {
		max = 7
	}
	if len(digits) > max {
		return 0, false
	}
	var m uint64
	for _, c := range digits {
		c -= '0'
		if c > 9 {
			return 0, false
		}
		m = m*10 + uint64(c)
	}
	f := float64(m)
	if neg {
		f = -f
	}
	return f, true
}
