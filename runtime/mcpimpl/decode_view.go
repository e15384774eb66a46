package mcpimpl

// Views for the runtime's own message parsing: they return slices of the
// input, or of the decoder's scratch space, instead of copies, so that the
// envelope of a request costs no allocation.

// RawView is [Decoder.Raw] without the copy: the slice aliases the input.
func (d *Decoder) RawView() ([]byte, bool) {
	if !d.atValue() {
		return nil, false
	}
	start := d.pos
	if !d.skip() {
		return nil, false
	}
	return d.data[start:d.pos], true
}

// StringView reads a string like [Decoder.String], returning its unescaped
// bytes, valid until the next call on d.
func (d *Decoder) StringView() ([]byte, bool) {
	return d.stringBytes("must be a string")
}

// LastView returns the raw text of the value most recently consumed,
// aliasing the input: after an object read with [Decoder.Object] and
// [Decoder.Field] to its end, the whole object.
func (d *Decoder) LastView() []byte { return d.data[d.lastBeg:d.lastEnd] }
