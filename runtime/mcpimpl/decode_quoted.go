package mcpimpl

import (
	"strconv"
)

// The reads of this file serve encoding/json's ",string" field option and
// its map keys of integer kind. Each takes text already read (the content
// of the string value, or the property name just returned by Field) and
// parses it as encoding/json does.

// QuotedInt parses text, the content of the string just read for an
// integer field with the ",string" option, as a signed integer of the given
// size: optional '-' and decimal digits. It returns false without a
// violation for "null", which encoding/json reads as "leave the field as
// it is", and records a violation for anything else that is not such an
// integer.
func (d *Decoder) QuotedInt(text string, bits int) (int64, bool) {
	if text == "null" {
		return 0, false
	}
	if !isDecimalInt(text, true) {
		d.Invalid("must be a string holding an integer")
		return 0, false
	}
	bits = intBits(bits)
	n, err := strconv.ParseInt(text, 10, bits)
	if err != nil {
		if text[0] == '-' {
			d.Invalid("must be a string holding an integer ≥ " + strconv.FormatInt(-1<<(bits-1), 10))
		} else {
			d.Invalid("must be a string holding an integer ≤ " + strconv.FormatInt(1<<(bits-1)-1, 10))
		}
		return 0, false
	}
	return n, true
}

// QuotedUint is QuotedInt for an unsigned integer: decimal digits only.
func (d *Decoder) QuotedUint(text string, bits int) (uint64, bool) {
	if text == "null" {
		return 0, false
	}
	if !isDecimalInt(text, false) {
		d.Invalid("must be a string holding a non-negative integer")
		return 0, false
	}
	bits = intBits(bits)
	n, err := strconv.ParseUint(text, 10, bits)
	if err != nil {
		d.Invalid("must be a string holding an integer ≤ " + strconv.FormatUint(1<<bits-1, 10))
		return 0, false
	}
	return n, true
}

// QuotedFloat is QuotedInt for a number in JSON syntax, returned as Float
// returns it.
func (d *Decoder) QuotedFloat(text string, bits int) (float64, bool) {
	if text == "null" {
		return 0, false
	}
	if !isJSONNumberText(text) {
		d.Invalid("must be a string holding a number")
		return 0, false
	}
	f, err := strconv.ParseFloat(text, 64)
	if bits == 32 && err == nil {
		f, err = nearFloat32([]byte(text), f)
	}
	if err != nil {
		kind := "float64"
		if bits == 32 {
			kind = "float32"
		}
		d.Invalid("must be a string holding a number in the range of " + kind)
		return 0, false
	}
	return f, true
}

// QuotedBool is QuotedInt for true or false.
func (d *Decoder) QuotedBool(text string) (bool, bool) {
	switch text {
	case "true":
		return true, true
	case "false":
		return false, true
	case "null":
		return false, false
	}
	d.Invalid("must be a string holding true or false")
	return false, false
}

// QuotedString is QuotedInt for a string field: text must be a JSON string
// literal, whose content is returned.
func (d *Decoder) QuotedString(text string) (string, bool) {
	if text == "null" {
		return "", false
	}
	if len(text) > 0 && text[0] == '"' {
		inner := NewDecoder([]byte(text), "")
		if s, ok := inner.String(); ok && inner.Err() == nil {
			return s, true
		}
	}
	d.Invalid("must be a string holding a JSON string")
	return "", false
}

// IntKey parses key, a property name Field has just returned, as a map key
// of a signed integer kind of the given size, as encoding/json does (but
// without a '+' sign, as the schema's propertyNames pattern says). On
// failure it records a violation at the property and returns false; the
// caller then skips the value.
func (d *Decoder) IntKey(key []byte, bits int) (int64, bool) {
	bits = intBits(bits)
	if isDecimalInt(string(key), true) {
		if n, err := strconv.ParseInt(string(key), 10, bits); err == nil {
			return n, true
		}
	}
	d.Violation("property name must be an integer from " + strconv.FormatInt(-1<<(bits-1), 10) + " to " + strconv.FormatInt(1<<(bits-1)-1, 10))
	return 0, false
}

// UintKey is IntKey for an unsigned integer kind.
func (d *Decoder) UintKey(key []byte, bits int) (uint64, bool) {
	bits = intBits(bits)
	if isDecimalInt(string(key), false) {
		if n, err := strconv.ParseUint(string(key), 10, bits); err == nil {
			return n, true
		}
	}
	d.Violation("property name must be an integer from 0 to " + strconv.FormatUint(1<<bits-1, 10))
	return 0, false
}

func intBits(bits int) int {
	if bits <= 0 || bits > 64 {
		return 64
	}
	return bits
}

// isDecimalInt reports whether s is decimal digits, after a '-' if signed.
func isDecimalInt(s string, signed bool) bool {
	if signed && len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDecDigit(s[i]) {
			return false
		}
	}
	return true
}

// isJSONNumberText reports whether s is a number in JSON syntax.
func isJSONNumberText(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && '1' <= s[i] && s[i] <= '9':
		for i < len(s) && isDecDigit(s[i]) {
			i++
		}
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i == len(s) || !isDecDigit(s[i]) {
			return false
		}
		for i < len(s) && isDecDigit(s[i]) {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i == len(s) || !isDecDigit(s[i]) {
			return false
		}
		for i < len(s) && isDecDigit(s[i]) {
			i++
		}
	}
	return i == len(s)
}
