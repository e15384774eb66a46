package mcpimpl

import (
	"encoding"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// BeginQuote starts a value that a field with encoding/json's ",string"
// option holds: what is written up to [Encoder.EndQuote] is sent inside a
// JSON string.
func (e *Encoder) BeginQuote() { e.quote = len(e.buf) }

// EndQuote turns the value written since [Encoder.BeginQuote] into a JSON
// string holding its text, as encoding/json writes a ",string" field: 5
// becomes "5", true becomes "true" and "a" becomes "\"a\"". As
// encoding/json does, <, > and & inside a quoted string are escaped.
func (e *Encoder) EndQuote() {
	inner := string(e.buf[e.quote:])
	if strings.ContainsAny(inner, "<>&") {
		inner = strings.NewReplacer("<", `\u003c`, ">", `\u003e`, "&", `\u0026`).Replace(inner)
	}
	e.buf = AppendString(e.buf[:e.quote], inner)
}

// KeyName is a map key and the property name it is written as.
type KeyName[K comparable] struct {
	Key  K
	Name string
}

// IntKeys returns the keys of m with their decimal property names, in the
// order encoding/json writes them: sorted by name.
func IntKeys[K ~int | ~int8 | ~int16 | ~int32 | ~int64, V any](m map[K]V) []KeyName[K] {
	keys := make([]KeyName[K], 0, len(m))
	for k := range m {
		keys = append(keys, KeyName[K]{k, strconv.FormatInt(int64(k), 10)})
	}
	return sortKeyNames(keys)
}

// UintKeys is [IntKeys] for unsigned integer keys.
func UintKeys[K ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr, V any](m map[K]V) []KeyName[K] {
	keys := make([]KeyName[K], 0, len(m))
	for k := range m {
		keys = append(keys, KeyName[K]{k, strconv.FormatUint(uint64(k), 10)})
	}
	return sortKeyNames(keys)
}

// TextKeys returns the keys of m with the property names their MarshalText
// methods give, sorted by name, as encoding/json writes them; a nil pointer
// key is named "". An error of MarshalText, or a nil interface key, is
// kept by e and reported by [Encoder.JSON].
func TextKeys[K interface {
	comparable
	encoding.TextMarshaler
}, V any](e *Encoder, m map[K]V) []KeyName[K] {
	keys := make([]KeyName[K], 0, len(m))
	for k := range m {
		switch v := reflect.ValueOf(k); {
		case !v.IsValid():
			e.fail("a map key is a nil interface")
			continue
		case v.Kind() == reflect.Pointer && v.IsNil():
			keys = append(keys, KeyName[K]{Key: k})
			continue
		}
		b, err := k.MarshalText()
		if err != nil {
			e.fail("MarshalText of a map key: " + err.Error())
		}
		keys = append(keys, KeyName[K]{k, string(b)})
	}
	return sortKeyNames(keys)
}

func sortKeyNames[K comparable](keys []KeyName[K]) []KeyName[K] {
	slices.SortFunc(keys, func(a, b KeyName[K]) int { return strings.Compare(a.Name, b.Name) })
	return keys
}

// Text returns what was written, for contents that are JSON text (a
// resource's), or the first error.
func (e *Encoder) Text() (string, error) {
	if e.err != nil {
		return "", e.err
	}
	return string(e.buf), nil
}
