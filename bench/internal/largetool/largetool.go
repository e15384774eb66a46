// Package largetool holds the bodies of the three tools that measure large
// messages, shared by every benchmark server: measure_text takes a long
// string argument, make_text answers with a long text, list_items answers
// with a structured result of many items. Their cost is the protocol
// stack's handling of size: reading, decoding, encoding and writing.
package largetool

import (
	"strconv"
	"strings"
)

// The tool names.
const (
	MeasureName = "measure_text"
	MakeName    = "make_text"
	ItemsName   = "list_items"
)

// The tool descriptions.
const (
	MeasureDescription = "Counts the bytes of a text."
	MakeDescription    = "Answers with a text of the given size."
	ItemsDescription   = "Lists the given number of items."
)

// MaxSize bounds make_text's size and MaxCount list_items' count.
const (
	MaxSize  = 16 << 20
	MaxCount = 100000
)

// Measure is measure_text's answer: "N bytes".
func Measure(text string) string { return strconv.Itoa(len(text)) + " bytes" }

// Make is make_text's answer: size bytes of 'x'.
func Make(size int) string { return strings.Repeat("x", size) }

// Item is one element of list_items' answer.
type Item struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

// Items is list_items' answer.
type Items struct {
	Items []Item `json:"items"`
}

// List is list_items' answer for count items. The names share one string,
// so that the tool allocates the same few times for any count and the
// allocations measured per item are the protocol stack's.
func List(count int) Items {
	items := make([]Item, count)
	ends := make([]int, count)
	var names []byte
	for i := range items {
		names = strconv.AppendInt(append(names, "item-"...), int64(i), 10)
		ends[i] = len(names)
	}
	all, start := string(names), 0
	for i := range items {
		items[i] = Item{ID: i, Name: all[start:ends[i]]}
		start = ends[i]
	}
	return Items{Items: items}
}
