package mcpimpl

// Strings writes s as an array of strings, [] when s is empty or nil, as
// OpenArray, then Elem and String for each element, then CloseArray write
// it.
func (e *Encoder) Strings(s []string) {
	e.OpenArray()
	for _, x := range s {
		e.Elem()
		e.String(x)
	}
	e.CloseArray()
}
