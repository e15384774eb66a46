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
		d.invalidInt("≥ ", min)
		return 0
	case !neg && (st == intOverflow || mag > limit):
		d.invalidInt("≤ ", max)
		return 0
	case neg:
		n = int64(-mag)
	default:
		n = int64(mag)
	}
	if n < min {
		d.invalidInt("≥ ", min)
	}
	if n > max {
		d.invalidInt("≤ ", max)
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
		d.invalidUint("≥ ", min)
		return 0
	case st == intOverflow || mag > limit:
		d.invalidUint("≤ ", max)
		return 0
	}
	if mag < min {
		d.invalidUint("≥ ", min)
	}
	if mag > max {
		d.invalidUint("≤ ", max)
	}
	return mag
}

// invalidInt records "must be an integer <op><n>" as Invalid does, the
// number written straight into the message.
func (d *Decoder) invalidInt(op string, n int64) {
	if d.syntax == nil {
		d.invalid(strconv.AppendInt(append(append(make([]byte, 0, 64), "must be an integer "...), op...), n, 10))
	}
}

// invalidUint is invalidInt for an unsigned bound.
func (d *Decoder) invalidUint(op string, n uint64) {
	if d.syntax == nil {
		d.invalid(strconv.AppendUint(append(append(make([]byte, 0, 64), "must be an integer "...), op...), n, 10))
	}
}
