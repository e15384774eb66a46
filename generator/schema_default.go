package generator

import (
	"fmt"
	"time"
)

// defaultProblem says why the generated decoder could not apply the
// default of the site sh (a field's shape, its tag applied), or returns ""
// when it can, or there is none. A default the decoder does not apply
// would have the schema promise a value the tool never gets.
func defaultProblem(sh *Shape) string {
	if sh.Schema == nil || sh.Schema.Default == nil {
		return ""
	}
	d := sh.Schema.Default
	for sh.Kind == KindPointer && sh.Elem != nil {
		sh = sh.Elem
	}
	const fix = "drop the default and set the value in the handler when the field is empty"
	switch sh.Kind {
	case KindBool, KindInt, KindUint, KindFloat, KindString:
		return "" // the tag's own checks see that the value fits
	case KindTime:
		if s, ok := d.(string); ok {
			if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
				return fmt.Sprintf("default %s is not an RFC 3339 date-time such as 2026-01-02T15:04:05Z", s)
			}
		}
		return ""
	case KindSlice:
		if sh.Elem != nil && sh.Elem.Kind == KindString && !sh.Elem.Quoted {
			return ""
		}
		if sh.Elem != nil && sh.Elem.Schema != nil && sh.Elem.Schema.Type != "" && sh.Elem.Schema.Type != "string" {
			return fmt.Sprintf("a default on an array of %ss is not supported: the tag gives its items as strings, which the items' type rejects; %s", sh.Elem.Schema.Type, fix)
		}
	}
	return fmt.Sprintf("a default on a field of type %s is not supported (the decoder could not apply it); %s", typeString(sh.Type), fix)
}

// timeFormatProblem says why a format tag on a time.Time site (sh, or the
// element of a pointer or slice) cannot hold, or returns "": the decoder
// reads, and the encoder writes, an RFC 3339 date-time, so a schema that
// asks for another format (a date) would have clients send values the
// decoder rejects.
func timeFormatProblem(sh *Shape) string {
	for sh != nil && sh.Elem != nil && (sh.Kind == KindPointer || sh.Kind == KindSlice || sh.Kind == KindArray) {
		sh = sh.Elem
	}
	if sh == nil || sh.Kind != KindTime || sh.Schema == nil {
		return ""
	}
	if f := sh.Schema.Format; f != "" && f != "date-time" {
		return fmt.Sprintf("format %s on a time.Time: its value is read and written as an RFC 3339 date-time, which the format would tell clients not to send; to take a %s, use a string field with format=%s and parse it in the handler", f, f, f)
	}
	return ""
}
