package mcpimpl

// Strings reads an array of strings into a new slice, empty rather than
// nil for []. Each element is read as String reads it; one that is not a
// string records a violation at its index and is kept as "", and the rest
// of the array is still read, so that every bad element is reported. ok is
// false only when the value is not an array, which records a violation
// too: checks of the array as a whole (its length) still apply to an array
// with bad elements, as they do to one decoded element by element.
func (d *Decoder) Strings() ([]string, bool) {
	if !d.Array() {
		return nil, false
	}
	s := make([]string, 0)
	for d.Elem() {
		x, _ := d.String()
		s = append(s, x)
	}
	return s, true
}

// Require records that the required property name is missing from the
// object at the current path unless present is true, as Missing does. It
// is meant to be called after Field has returned false, with whether the
// property was seen.
func (d *Decoder) Require(present bool, name string) {
	if !present {
		d.Missing(name)
	}
}
