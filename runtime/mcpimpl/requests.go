package mcpimpl

import "sync"

// decoders holds the Decoders of finished requests, with their buffers, for
// the next ones.
var decoders = sync.Pool{New: func() any { return new(Decoder) }}

var emptyObject = []byte("{}")

// ArgumentsDecoder returns a Decoder over a tool's arguments, the
// Arguments of a runtime.ToolRequest, where nil reads as an empty object.
// Violations name the root "arguments". [Decoder.Done] hands it back.
func ArgumentsDecoder(args []byte) *Decoder {
	if args == nil {
		args = emptyObject
	}
	d := decoders.Get().(*Decoder)
	d.Reset(args, "arguments")
	return d
}

// StringsDecoder returns a Decoder over the values of m that names name,
// as a JSON object of strings in the order of names, so that generated
// code checks a resource template's variables (root "uri") and a prompt's
// arguments (root "arguments") as it checks a tool's arguments: violations
// name the variable or argument ("id: must be …"). Names absent from m are
// left out. [Decoder.Done] hands it back.
func StringsDecoder(root string, m map[string]string, names []string) *Decoder {
	d := decoders.Get().(*Decoder)
	b := keepSmall(d.own, 64<<10)
	b = append(b, '{')
	n := 0
	for _, name := range names {
		v, ok := m[name]
		if !ok {
			continue
		}
		if n > 0 {
			b = append(b, ',')
		}
		n++
		b = AppendString(b, name)
		b = append(b, ':')
		b = AppendString(b, v)
	}
	d.own = append(b, '}')
	d.Reset(d.own, root)
	return d
}

// Done returns [Decoder.Err] and hands d back to be reused by a later
// request; d must not be used afterwards. The error stays valid.
func (d *Decoder) Done() error {
	err := d.Err()
	d.Reset(nil, "")
	decoders.Put(d)
	return err
}
