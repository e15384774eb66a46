package mcpimpl

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"strconv"
	"time"
)

// Encoder writes the JSON of a tool's structured result. Generated code
// drives it: it knows the result's type at compile time, so the encoder
// needs no reflection (except for values of interface types and types
// with their own JSON methods, which [Encoder.Marshal] hands to
// encoding/json).
//
// Commas are written by [Encoder.Key] and [Encoder.Elem] as needed, so
// generated code can leave out optional properties without bookkeeping.
// The first error is kept and reported by [Encoder.JSON] and
// [Encoder.Text].
type Encoder struct {
	buf   []byte
	err   error
	quote int // where the value inside BeginQuote … EndQuote starts
}

// ErrNilResult is returned by generated handlers whose tool returned a nil
// pointer as its structured result: there is no object to send.
var ErrNilResult = errors.New("internal error: the tool returned a nil result")

// comma writes a comma unless the last byte opened an object or array.
func (e *Encoder) comma() {
	if n := len(e.buf); n > 0 {
		if c := e.buf[n-1]; c != '{' && c != '[' {
			e.buf = append(e.buf, ',')
		}
	}
}

// Open starts an object.
func (e *Encoder) Open() {
	if e.buf == nil {
		e.buf = make([]byte, 0, 256)
	}
	e.buf = append(e.buf, '{')
}

// Close ends an object.
func (e *Encoder) Close() { e.buf = append(e.buf, '}') }

// OpenArray starts an array.
func (e *Encoder) OpenArray() { e.buf = append(e.buf, '[') }

// CloseArray ends an array.
func (e *Encoder) CloseArray() { e.buf = append(e.buf, ']') }

// Key starts a property; key is the property name already written as a
// JSON string followed by a colon, such as `"name":`.
func (e *Encoder) Key(key string) {
	e.comma()
	e.buf = append(e.buf, key...)
}

// MapKey starts a property whose name is known only at run time.
func (e *Encoder) MapKey(key string) {
	e.comma()
	e.buf = AppendString(e.buf, key)
	e.buf = append(e.buf, ':')
}

// Elem starts an array element. Long arrays make long results: while one
// is written the buffer at least doubles when it grows, where append's
// gentler growth for large slices would copy it several times over.
func (e *Encoder) Elem() {
	if cap(e.buf)-len(e.buf) < 256 {
		e.grow()
	}
	e.comma()
}

// grow doubles the buffer's capacity, or more for a short buffer.
func (e *Encoder) grow() { e.buf = slices.Grow(e.buf, len(e.buf)+256) }

// Null writes null.
func (e *Encoder) Null() { e.buf = append(e.buf, "null"...) }

// Bool writes a boolean.
func (e *Encoder) Bool(b bool) { e.buf = strconv.AppendBool(e.buf, b) }

// String writes a string. Invalid UTF-8 becomes U+FFFD, as encoding/json
// does.
func (e *Encoder) String(s string) { e.buf = AppendString(e.buf, s) }

// Int writes an integer.
func (e *Encoder) Int(n int64) { e.buf = strconv.AppendInt(e.buf, n, 10) }

// Uint writes an unsigned integer.
func (e *Encoder) Uint(n uint64) { e.buf = strconv.AppendUint(e.buf, n, 10) }

// Float writes a number of the given bit size (32 or 64) as encoding/json
// does: the shortest representation that reads back the same, in
// exponent form only for very large and very small magnitudes. NaN and the
// infinities have no JSON form; they make the encoding fail.
func (e *Encoder) Float(f float64, bits int) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		e.fail("the result holds " + strconv.FormatFloat(f, 'g', -1, bits) + ", which is not a JSON number")
		e.buf = append(e.buf, '0')
		return
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	e.buf = strconv.AppendFloat(e.buf, f, format, -1, bits)
	if format == 'e' {
		// Shorten e-09 to e-9, as encoding/json does.
		n := len(e.buf)
		if n >= 4 && e.buf[n-4] == 'e' && e.buf[n-3] == '-' && e.buf[n-2] == '0' {
			e.buf[n-2] = e.buf[n-1]
			e.buf = e.buf[:n-1]
		}
	}
}

// Time writes t as an RFC 3339 string, as time.Time's MarshalJSON does;
// years outside 0…9999 and zone offsets of a day or more make the encoding
// fail.
func (e *Encoder) Time(t time.Time) {
	if y := t.Year(); y < 0 || y > 9999 {
		e.fail("the result holds a time whose year " + strconv.Itoa(y) + " is outside 0…9999")
		e.buf = append(e.buf, `""`...)
		return
	}
	if _, off := t.Zone(); off <= -24*3600 || off >= 24*3600 {
		e.fail("the result holds a time whose zone offset is 24 hours or more")
		e.buf = append(e.buf, `""`...)
		return
	}
	e.buf = append(e.buf, '"')
	e.buf = t.AppendFormat(e.buf, time.RFC3339Nano)
	e.buf = append(e.buf, '"')
}

// Bytes writes b as a base64 string; nil is the empty string.
func (e *Encoder) Bytes(b []byte) {
	e.buf = append(e.buf, '"')
	e.buf = base64.StdEncoding.AppendEncode(e.buf, b)
	e.buf = append(e.buf, '"')
}

// Raw writes a json.RawMessage: nil or empty is null, as encoding/json
// writes it; anything else must be valid JSON and is compacted.
func (e *Encoder) Raw(raw []byte) {
	if len(raw) == 0 {
		e.Null()
		return
	}
	b := bytes.NewBuffer(e.buf)
	if err := json.Compact(b, raw); err != nil {
		e.fail("the result holds a json.RawMessage that is not valid JSON: " + err.Error())
		e.Null()
		return
	}
	e.buf = b.Bytes()
}

// Marshal writes v with encoding/json, for values of interface types and
// of types with their own MarshalJSON or MarshalText methods. Generated
// code passes a pointer when the value is addressable, so that methods
// with pointer receivers are used as encoding/json uses them.
func (e *Encoder) Marshal(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		e.fail(err.Error())
		e.Null()
		return
	}
	e.buf = append(e.buf, b...)
}

func (e *Encoder) fail(msg string) {
	if e.err == nil {
		e.err = errors.New("internal error: the tool's result does not encode as JSON: " + msg)
	}
}

// JSON returns what was written, for a tool's structured result, or the
// first error. The encoder must not be used afterwards: the bytes are not
// copied.
func (e *Encoder) JSON() ([]byte, error) {
	if e.err != nil {
		return nil, e.err
	}
	return e.buf, nil
}

// SortedKeys returns the keys of m in increasing order, the order in which
// encoding/json writes them.
func SortedKeys[K ~string, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// IsZero reports whether v is its type's zero value, for omitzero fields
// of comparable types.
func IsZero[T comparable](v T) bool {
	var zero T
	return v == zero
}

// IsZeroValue reports whether *p is its type's zero value, for omitzero
// fields of types that cannot be compared with ==.
func IsZeroValue(p any) bool {
	return reflect.ValueOf(p).Elem().IsZero()
}
