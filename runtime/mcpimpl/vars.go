package mcpimpl

import (
	"math"
	"strconv"
)

// Resource template variables and prompt arguments are strings on the wire.
// VarInt, VarUint, VarFloat and VarBool read such a string as the Go value
// a handler's parameter wants, recording a violation that names the
// variable, as Decoder's own readers do, when the text does not hold one.
// Generated code calls them on a [StringsDecoder].

// VarInt reads a string holding a decimal integer that fits in a signed
// integer of the given size (8, 16, 32 or 64; other sizes count as 64).
func VarInt(d *Decoder, bits int) (int64, bool) {
	s, ok := d.String()
	if !ok {
		return 0, false
	}
	if bits <= 0 || bits > 64 {
		bits = 64
	}
	n, err := strconv.ParseInt(s, 10, bits)
	if err != nil {
		if ne, _ := err.(*strconv.NumError); ne != nil && ne.Err == strconv.ErrRange {
			limit := int64(1)<<(bits-1) - 1
			if s[0] == '-' {
				d.Invalid("must be an integer ≥ " + strconv.FormatInt(-limit-1, 10))
			} else {
				d.Invalid("must be an integer ≤ " + strconv.FormatInt(limit, 10))
			}
		} else {
			d.Invalid("must be an integer")
		}
		return 0, false
	}
	return n, true
}

// VarUint reads a string holding a non-negative decimal integer that fits
// in an unsigned integer of the given size (8, 16, 32 or 64; other sizes
// count as 64).
func VarUint(d *Decoder, bits int) (uint64, bool) {
	s, ok := d.String()
	if !ok {
		return 0, false
	}
	if bits <= 0 || bits > 64 {
		bits = 64
	}
	if len(s) > 1 && s[0] == '-' {
		if _, err := strconv.ParseUint(s[1:], 10, 64); err == nil || err.(*strconv.NumError).Err == strconv.ErrRange {
			d.Invalid("must be an integer ≥ 0")
			return 0, false
		}
	}
	n, err := strconv.ParseUint(s, 10, bits)
	if err != nil {
		if err.(*strconv.NumError).Err == strconv.ErrRange {
			d.Invalid("must be an integer ≤ " + strconv.FormatUint(math.MaxUint64>>(64-bits), 10))
		} else {
			d.Invalid("must be an integer")
		}
		return 0, false
	}
	return n, true
}

// VarFloat reads a string holding a finite decimal number, as a float64
// (bits 64) or as the float64 holding the nearest float32 (bits 32).
func VarFloat(d *Decoder, bits int) (float64, bool) {
	s, ok := d.String()
	if !ok {
		return 0, false
	}
	if bits != 32 {
		bits = 64
	}
	f, err := strconv.ParseFloat(s, bits)
	switch {
	case !isDecimal(s):
		d.Invalid("must be a number")
		return 0, false
	case err != nil && err.(*strconv.NumError).Err == strconv.ErrRange && !math.IsInf(f, 0):
		return f, true // too small: zero, as Decoder.Float reads it
	case err != nil && err.(*strconv.NumError).Err == strconv.ErrRange:
		limit := math.MaxFloat64
		if bits == 32 {
			limit = math.MaxFloat32
		}
		if f < 0 {
			d.Invalid("must be a number ≥ " + strconv.FormatFloat(-limit, 'g', -1, 64))
		} else {
			d.Invalid("must be a number ≤ " + strconv.FormatFloat(limit, 'g', -1, 64))
		}
		return 0, false
	case err != nil:
		d.Invalid("must be a number")
		return 0, false
	}
	return f, true
}

// isDecimal reports whether s is a plain decimal number: no hexadecimal,
// underscores, "Inf" or "NaN", which ParseFloat also accepts.
func isDecimal(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E') {
			return false
		}
	}
	return true
}

// VarBool reads a string holding "true" or "false".
func VarBool(d *Decoder) (bool, bool) {
	s, ok := d.String()
	if !ok {
		return false, false
	}
	switch s {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	d.Invalid(`must be "true" or "false"`)
	return false, false
}
