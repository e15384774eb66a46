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
	n, at := d.readInt(bits)
	switch at {
	case notInteger:
		return 0
	case belowType:
		d.invalidInt("≥ ", min)
		return 0
	case aboveType:
		d.invalidInt("≤ ", max)
		return 0
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
	n, at := d.readUint(bits)
	switch at {
	case notInteger:
		return 0
	case belowType:
		d.invalidUint("≥ ", min)
		return 0
	case aboveType:
		d.invalidUint("≤ ", max)
		return 0
	}
	if n < min {
		d.invalidUint("≥ ", min)
	}
	if n > max {
		d.invalidUint("≤ ", max)
	}
	return n
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
