package mcpimpl

import "strconv"

// IntRange is Int for a value whose schema bounds it to [min, max] (the
// keywords minimum and maximum), with the check of the bounds: a number
// below min, also one below the type's range, records "must be an integer
// ≥ <min>", and one above max "must be an integer ≤ <max>". min and max
// must lie within the range of the type; a bound the schema does not set
// is passed as the type's own limit, whose message is then the type's
// own, as Int gives it. The result is the number read, whether it is
// within the bounds or not, or 0 when it is not an integer of the type;
// a rejected value has recorded a violation, so that the result is only
// to be used when the decoder reports no error (see [Decoder.Failed]).
func (d *Decoder) IntRange(bits int, min, max int64) int64 {
	raw, ok := d.number("must be an integer")
	if !ok {
		return 0
	}
	if bits <= 0 || bits > 64 {
		bits = 64
	}
	limit := uint64(1)<<(bits-1) - 1 // largest magnitude of a positive value
	mag, neg, st := parseJSONInt(raw)
	var n int64
	switch {
	case st == intFraction:
		d.Invalid("must be an integer")
		return 0
	case neg && (st == intOverflow || mag > limit+1):
		d.Invalid(intBelow(min))
		return 0
	case !neg && (st == intOverflow || mag > limit):
		d.Invalid(intAbove(max))
		return 0
	case neg:
		n = int64(-mag)
	default:
		n = int64(mag)
	}
	if n < min {
		d.Invalid(intBelow(min))
	}
	if n > max {
		d.Invalid(intAbove(max))
	}
	return n
}

// UintRange is Uint for a value whose schema bounds it to [min, max], with
// the check of the bounds, as IntRange.
func (d *Decoder) UintRange(bits int, min, max uint64) uint64 {
	raw, ok := d.number("must be an integer")
	if !ok {
		return 0
	}
	if bits <= 0 || bits > 64 {
		bits = 64
	}
	limit := ^uint64(0) >> (64 - bits)
	mag, neg, st := parseJSONInt(raw)
	switch {
	case st == intFraction:
		d.Invalid("must be an integer")
		return 0
	case neg && (st == intOverflow || mag != 0):
		d.Invalid(uintBelow(min))
		return 0
	case st == intOverflow || mag > limit:
		d.Invalid(uintAbove(max))
		return 0
	}
	if mag < min {
		d.Invalid(uintBelow(min))
	}
	if mag > max {
		d.Invalid(uintAbove(max))
	}
	return mag
}

func intBelow(min int64) string   { return "must be an integer ≥ " + strconv.FormatInt(min, 10) }
func intAbove(max int64) string   { return "must be an integer ≤ " + strconv.FormatInt(max, 10) }
func uintBelow(min uint64) string { return "must be an integer ≥ " + strconv.FormatUint(min, 10) }
func uintAbove(max uint64) string { return "must be an integer ≤ " + strconv.FormatUint(max, 10) }
