// Package bad declares types the schema builder must reject. Each field
// that yields a diagnostic is marked with a "want" comment holding a part
// of every message expected at that field, separated by " | ".
package bad

import (
	"fmt"
	"time"
	"unsafe"
)

// Bad has every kind of unsupported field and malformed tag.
type Bad struct {
	Ch        chan int          `json:"ch"`                                                // want: Bad.Ch: unsupported type chan int: JSON has no value of it (encoding/json fails on it too); leave the field out with the tag json:"-", or give it a type JSON can hold
	Fn        func() error      `json:"fn"`                                                // want: Bad.Fn: unsupported type func() error
	C         complex128        `json:"c"`                                                 // want: Bad.C: unsupported type complex128: JSON has no value of it
	P         unsafe.Pointer    `json:"p"`                                                 // want: Bad.P: unsupported type unsafe.Pointer
	BoolKeys  map[bool]string   `json:"boolKeys"`                                          // want: Bad.BoolKeys: unsupported map key type bool
	WordKeys  map[Word]int      `json:"wordKeys"`                                          // want: Bad.WordKeys: map key type bad.Word in map[bad.Word]int has MarshalText but no UnmarshalText
	Chans     []chan string     `json:"chans"`                                             // want: Bad.Chans[]: unsupported type chan string
	FnMap     map[string]func() `json:"fnMap"`                                             // want: Bad.FnMap[key]: unsupported type func()
	Min       int               `json:"min" jsonschema:"minimum=abc"`                      // want: "minimum=abc": not a number
	Pattern   string            `json:"pattern" jsonschema:"pattern=a(b"`                  // want: "pattern=a(b": invalid pattern
	Two       int               `json:"two" jsonschema:"minimum=x,maximum=1_0"`            // want: "minimum=x": not a number | "maximum=1_0": not a number
	Len       string            `json:"len" jsonschema:"minLength=-1"`                     // want: "minLength=-1": not a non-negative integer
	Unknown   string            `json:"unknown" jsonschema:"colour=red"`                   // want: "colour=red": unknown key colour
	Flag      string            `json:"flag" jsonschema:"requird"`                         // want: "requird": unknown flag: did you mean "required"?
	Typo      int               `json:"typo" jsonschema:"minimun=1"`                       // want: "minimun=1": unknown key minimun: did you mean "minimum"?
	ItemTypo  []int             `json:"itemTypo" jsonschema:"maxItem=1"`                   // want: unknown key maxItem: did you mean "maxItems"?
	Err       error             `json:"err"`                                               // want: Bad.Err: unsupported type error: an interface with methods cannot be decoded
	Errs      []fmt.Stringer    `json:"errs"`                                              // want: Bad.Errs[]: unsupported type fmt.Stringer
	DefEnum   string            `json:"defEnum" jsonschema:"enum=a,enum=b,default=c"`      // want: default c is not one of the enum values ["a","b"]
	DefMax    int               `json:"defMax" jsonschema:"maximum=10,default=11"`         // want: default 11 is above the maximum 10
	DefRange  int8              `json:"defRange" jsonschema:"default=300"`                 // want: default 300 is above the maximum 127
	DefExcl   float64           `json:"defExcl" jsonschema:"exclusiveMinimum=0,default=0"` // want: default 0 is not above the exclusiveMinimum 0
	DefFrac   int               `json:"defFrac" jsonschema:"default=1.5"`                  // want: default 1.5 is not an integer
	DefPat    string            `json:"defPat" jsonschema:"pattern=^a+$,default=b"`        // want: default b does not match the pattern ^a+$
	DefLen    string            `json:"defLen" jsonschema:"maxLength=2,default=abc"`       // want: default abc is longer than maxLength 2
	DefItem   []string          `json:"defItem" jsonschema:"enum=x,default=y"`             // want: default item y is not one of the enum values ["x"]
	DefInts   []int             `json:"defInts" jsonschema:"default=1,default=2"`          // want: a default on an array of integers is not supported
	DefBools  []bool            `json:"defBools" jsonschema:"default=true"`                // want: a default on an array of booleans is not supported
	DefTime   time.Time         `json:"defTime" jsonschema:"default=2026-13-01"`           // want: default 2026-13-01 is not an RFC 3339 date-time
	DefBytes  []byte            `json:"defBytes" jsonschema:"default=aGk="`                // want: a default on a field of type []byte is not supported
	Dates     []time.Time       `json:"dates" jsonschema:"format=date"`                    // want: format date on a time.Time: its value is read and written as an RFC 3339 date-time
	DefDur    time.Duration     `json:"defDur" jsonschema:"default=5s,maximum=1h"`         // want: "default=5s": a time.Duration is an integer of nanoseconds in JSON: write default=5000000000 | "maximum=1h": a time.Duration is an integer of nanoseconds in JSON: write maximum=3600000000000
	Wrong     int               `json:"wrong" jsonschema:"minLength=3"`                    // want: "minLength=3" does not apply to a number
	Bool      bool              `json:"bool" jsonschema:"default=yes"`                     // want: "default=yes": not true or false
	RO        string            `json:"ro" jsonschema:"readOnly=maybe"`                    // want: "readOnly=maybe": not a boolean
	Quoted    Stamp             `json:"quoted,string"`                                     // want: the json tag option ",string" is not supported on bad.Stamp
	QuotedDef int               `json:"quotedDef,string" jsonschema:"default=1"`           // want: a default is not supported with the json tag option ",string"
	Typed     string            `json:"typed" jsonschema:"type=integer"`                   // want: "type=integer" changes the JSON type
	Items     []string          `json:"items" jsonschema:"pattern=(("`                     // want: "pattern=((": invalid pattern
	Uniq      []int             `json:"uniq" jsonschema:"uniqueItems=false"`               // want: uniqueItems takes only the value true
	Deep      [][]int           `json:"deep" jsonschema:"minimum=1"`                       // want: "minimum=1" does not apply to array items
	Struct    Inner             `json:"struct" jsonschema:"minLength=1"`                   // want: "minLength=1" does not apply to a schema of type object
	NaN       float64           `json:"nan" jsonschema:"maximum=NaN"`                      // want: "maximum=NaN": not a number
	Plus      float64           `json:"plus" jsonschema:"enum=+1"`                         // want: "enum=+1": not a number
	TwoEq     int               `json:"twoEq" jsonschema:"minimum=1=2"`                    // want: "minimum=1=2": a value with '=' is ignored
	Extra     string            `json:"extra" jsonschema_extras:"novalue"`                 // want: "novalue": not key=value
	ExtraDup  int8              `json:"extraDup" jsonschema_extras:"maximum=5"`            // want: key "maximum" duplicates a keyword
	ExtraInt  string            `json:"extraInt" jsonschema_extras:"minimum=low"`          // want: "minimum=low": not an integer
	Rec       List              `json:"rec"`                                               // want: Bad.Rec[]: recursive type bad.List
	BoolEnum  bool              `json:"boolEnum" jsonschema:"enum=true"`                   // want: "enum=true" does not apply to a boolean
	RefTag    *Node             `json:"refTag" jsonschema:"maxLength=3"`                   // want: "maxLength=3" does not apply to a schema of type object
	*hidden                     // want: embedded pointer to unexported struct type *bad.hidden
	Many      string            `json:"many" jsonschema:"minLength=a,maxLength=b,pattern=[,format=x"` // want: "minLength=a" | "maxLength=b" | "pattern=[": invalid pattern
}

// Inner has a bad field of its own.
type Inner struct {
	Sig chan<- bool `json:"sig"` // want: Bad.Struct.Sig: unsupported type chan<- bool
}

// List is recursive without a struct type.
type List []List

// Node is a recursive struct.
type Node struct {
	Next *Node    `json:"next"`
	Bad  []func() `json:"bad"` // want: Bad.RefTag.Bad[]: unsupported type func()
}

type hidden struct {
	Exposed string
}

// Stamp is an integer that decodes itself.
type Stamp int

// UnmarshalJSON decodes a stamp.
func (s *Stamp) UnmarshalJSON(b []byte) error { return nil }

// Word is written as a map key by MarshalText but cannot be read back.
type Word struct{ S string }

// MarshalText writes the word.
func (w Word) MarshalText() (text []byte, err error) { return []byte(w.S), nil }

// Unwritable has map keys that can be read but not written.
type Unwritable struct {
	Keys map[Readable]int `json:"keys"`
}

// Readable is a map key read by UnmarshalText, without MarshalText.
type Readable struct{ S string }

// UnmarshalText reads the key.
func (r *Readable) UnmarshalText(b []byte) error { r.S = string(b); return nil }
