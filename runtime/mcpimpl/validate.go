package mcpimpl

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// This file holds the checks generated decoders call, so that every tool
// words its violations the same way.

// DecodeNoArguments reads the arguments of a tool that takes none: an
// object without properties.
func DecodeNoArguments(d *Decoder) {
	if !d.Object() {
		return
	}
	for {
		if _, ok := d.Field(); !ok {
			return
		}
		d.Unknown("")
	}
}

// CheckLength records a violation when the number of characters of s is
// below min or above max; a negative bound is not checked.
func CheckLength(d *Decoder, s string, min, max int) {
	n := utf8.RuneCountInString(s)
	switch {
	case min >= 0 && n < min:
		d.Invalid("must be at least " + plural(min, "character") + " long")
	case max >= 0 && n > max:
		d.Invalid("must be at most " + plural(max, "character") + " long")
	}
}

// CheckItems records a violation when an array's n items are fewer than
// min or more than max; a negative bound is not checked.
func CheckItems(d *Decoder, n, min, max int) {
	switch {
	case min >= 0 && n < min:
		if min == max {
			d.Violation("must have exactly " + plural(min, "item") + ", got " + strconv.Itoa(n))
			return
		}
		d.Violation("must have at least " + plural(min, "item") + ", got " + strconv.Itoa(n))
	case max >= 0 && n > max:
		if min == max {
			d.Violation("must have exactly " + plural(max, "item") + ", got " + strconv.Itoa(n))
			return
		}
		d.Violation("must have at most " + plural(max, "item") + ", got " + strconv.Itoa(n))
	}
}

// CheckUnique records a violation when two items of s are equal.
func CheckUnique[T comparable](d *Decoder, s []T) {
	if len(s) < 2 {
		return
	}
	first := make(map[T]int, len(s))
	for i, v := range s {
		if j, dup := first[v]; dup {
			d.Violation("must have unique items, but items " + strconv.Itoa(j) + " and " + strconv.Itoa(i) + " are equal")
			return
		}
		first[v] = i
	}
}

// MultipleOf reports whether x is a multiple of m, allowing for the
// rounding of decimal fractions in binary floating point.
func MultipleOf(x, m float64) bool {
	if m <= 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return false
	}
	q := x / m
	return math.Abs(q-math.Round(q)) <= 1e-9*math.Max(1, math.Abs(q))
}

func plural(n int, word string) string {
	s := strconv.Itoa(n) + " " + word
	if n != 1 {
		s += "s"
	}
	return s
}
