package schematypes

import (
	"encoding/json"
	"strings"
	"time"
)

// Nils holds every kind of value that can be nil, without omitempty: what
// a tool's result holds when a Go programmer leaves fields unset.
type Nils struct {
	Strings  []string                   `json:"strings"`
	Points   []Point                    `json:"points"`
	PtrElems []*Point                   `json:"ptrElems"`
	Map      map[string]int             `json:"map"`
	PtrMap   map[string]*string         `json:"ptrMap"`
	Nested   map[string][]int           `json:"nested"`
	Ptr      *string                    `json:"ptr"`
	PtrPoint *Point                     `json:"ptrPoint"`
	PtrPtr   **int                      `json:"ptrPtr"`
	Bytes    []byte                     `json:"bytes"`
	Raw      json.RawMessage            `json:"raw"`
	Any      any                        `json:"any"`
	RawMap   map[string]json.RawMessage `json:"rawMap"`
	Matrix   [][]float64                `json:"matrix"`
	Tags     Tags                       `json:"tags"`
	When     *time.Time                 `json:"when"`
	Arr      [2]*int                    `json:"arr"`
	Req      *int                       `json:"req" jsonschema:"required"`
}

// Omits covers omitempty and omitzero on every kind.
type Omits struct {
	Bool    bool              `json:"bool,omitempty"`
	Int     int8              `json:"int,omitempty"`
	Uint    uint              `json:"uint,omitempty"`
	Float   float32           `json:"float,omitempty"`
	String  string            `json:"string,omitempty"`
	Slice   []int             `json:"slice,omitempty"`
	Map     map[string]bool   `json:"map,omitempty"`
	Ptr     *Point            `json:"ptr,omitempty"`
	Arr     [0]int            `json:"arr,omitempty"`
	Struct  Point             `json:"struct,omitempty"`
	Any     any               `json:"any,omitempty"`
	Time    time.Time         `json:"time,omitzero"`
	ZPoint  Point             `json:"zPoint,omitzero"`
	ZSlice  []string          `json:"zSlice,omitzero"`
	ZWithS  WithSlice         `json:"zWithS,omitzero"`
	ZPtr    *Point            `json:"zPtr,omitzero"`
	ZMethod Odd               `json:"zMethod,omitzero"`
	ZPtrM   *Odd              `json:"zPtrM,omitzero"`
	Both    string            `json:"both,omitempty,omitzero"`
	Tagged  string            `json:"tagged,omitempty" jsonschema:"required"`
	Named   Celsius           `json:"named,omitempty"`
	Blob    Blob              `json:"blob,omitempty"`
	Keys    map[Key]Celsius   `json:"keys,omitempty"`
	Deep    map[string]*Omits `json:"deep,omitempty"`
}

// WithSlice is a struct that == cannot compare.
type WithSlice struct {
	S []int `json:"s"`
}

// Odd is zero, for omitzero, when it is odd: it has its own IsZero.
type Odd int

// IsZero reports whether o is odd.
func (o Odd) IsZero() bool { return o%2 != 0 }

// Outer reaches fields through embedded pointers, one of them two levels
// down, and through a value embedded in a pointer.
type Outer struct {
	*Meta
	*Inner2
	Own string `json:"own"`
}

// Inner2 is embedded by pointer in Outer and embeds Base by value.
type Inner2 struct {
	Base
	Level int `json:"level"`
}

// Scalars2 has float and integer extremes as named and plain types.
type Scalars2 struct {
	F32   float32   `json:"f32"`
	F64   float64   `json:"f64"`
	Temps []Celsius `json:"temps"`
	Small uint8     `json:"small"`
	Runes []rune    `json:"runes"`
}

// Marshaled covers values with their own JSON or text methods in results.
type Marshaled struct {
	V        Version        `json:"v"`
	Ptr      *Version       `json:"ptr"`
	Stamp    Stamp          `json:"stamp"`
	Hex      Hex            `json:"hex"`
	Versions []Version      `json:"versions"`
	Stamped  Stamped        `json:"stamped"`
	HexMap   map[string]Hex `json:"hexMap"`
}

// OutQuoted covers encoding/json's ",string" option in results: numbers and
// booleans are sent as strings, strings as JSON texts inside strings.
type OutQuoted struct {
	I     int     `json:"i,string"`
	I8    int8    `json:"i8,string"`
	U     uint64  `json:"u,string"`
	F     float64 `json:"f,string"`
	F32   float32 `json:"f32,string"`
	B     bool    `json:"b,string"`
	S     string  `json:"s,string"`
	P     *int    `json:"p,string"`
	PS    *string `json:"ps,string"`
	Omit  int     `json:"omit,string,omitempty"`
	Plain int     `json:"plain"`
	Ints  []int   `json:"ints,string"` // the option applies to scalars only
	PP    **bool  `json:"pp,string"`
}

// OutKeys covers maps whose keys are not strings, in results: integers are
// written in decimal, types with MarshalText by it, and encoding/json
// sorts the written names.
type OutKeys struct {
	Ints   map[int]string      `json:"ints"`
	Small  map[int8]bool       `json:"small"`
	Uints  map[uint16]*Point   `json:"uints"`
	Hexes  map[Hex]int         `json:"hexes"`
	Words  map[Word]int        `json:"words"`
	Texts  map[TextKey]string  `json:"texts"`
	Nested map[int]map[Hex]int `json:"nested"`
}

// Word is a map key written by MarshalText, which has no UnmarshalText:
// it can be sent but never read.
type Word struct{ S string }

// MarshalText writes the word in upper case.
func (w Word) MarshalText() ([]byte, error) { return []byte(strings.ToUpper(w.S)), nil }
