package mcpimpl

// OptString reads the value of an optional string property into dst, as
// generated code reads one: null, which stands for "not given", leaves dst
// as it is; any other value is read as String reads it, and one of another
// type records a violation and sets dst to "".
func (d *Decoder) OptString(dst *string) {
	if !d.Null() {
		*dst, _ = d.String()
	}
}

// OptBool is OptString for a boolean property, read as Bool reads it.
func (d *Decoder) OptBool(dst *bool) {
	if !d.Null() {
		*dst, _ = d.Bool()
	}
}

// OptStrings is OptString for a property holding an array of strings,
// read as Strings reads it.
func (d *Decoder) OptStrings(dst *[]string) {
	if !d.Null() {
		*dst, _ = d.Strings()
	}
}
