// Package schematypes holds Go types that exercise the rules of the
// generator's schema builder. The tests build schemas from these types and
// compare them with invopop/jsonschema's reflection of the same types.
package schematypes

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/mcpgen/mcpgen/generator/internal/schematypes/ext"
)

// Scalars has a field of every scalar kind.
type Scalars struct {
	Bool    bool    `json:"bool"`
	Int     int     `json:"int"`
	Int8    int8    `json:"int8"`
	Int16   int16   `json:"int16"`
	Int32   int32   `json:"int32"`
	Int64   int64   `json:"int64"`
	Uint    uint    `json:"uint"`
	Uint8   uint8   `json:"uint8"`
	Uint16  uint16  `json:"uint16"`
	Uint32  uint32  `json:"uint32"`
	Uint64  uint64  `json:"uint64"`
	Byte    byte    `json:"byte"`
	Rune    rune    `json:"rune"`
	Float32 float32 `json:"float32"`
	Float64 float64 `json:"float64"`
	String  string  `json:"string"`
	Celsius Celsius `json:"celsius"`
}

// Celsius is a temperature.
type Celsius float64

// Uintptrs has a uintptr, which invopop cannot reflect.
type Uintptrs struct {
	P uintptr `json:"p"`
}

// Optional covers what makes a property required.
type Optional struct {
	Plain      string  `json:"plain"`
	Ptr        *string `json:"ptr"`
	PtrOmit    *int    `json:"ptrOmit,omitempty"`
	Omit       string  `json:"omit,omitempty"`
	Zero       int     `json:"zero,omitzero"`
	PtrPtr     **bool  `json:"ptrPtr"`
	PtrReq     *string `json:"ptrReq" jsonschema:"required"`
	OmitReq    string  `json:"omitReq,omitempty" jsonschema:"required"`
	Skipped    string  `json:"-"`
	SchemaSkip string  `json:"schemaSkip" jsonschema:"-"`
	NoTag      string
	OnlyOpts   string `json:",omitempty"`
	unexported string
}

// StringTags covers the jsonschema keys of string fields.
type StringTags struct {
	Name     string  `json:"name" jsonschema:"title=Name,description=The name,minLength=1,maxLength=20,pattern=^[a-z]+$,format=hostname,default=bob,example=alice,example=carol"`
	Code     string  `json:"code" jsonschema:"pattern=^[A-Z]{3\\,20}$"`
	Choice   string  `json:"choice" jsonschema:"enum=a,enum=b,enum=c"`
	RO       string  `json:"ro" jsonschema:"readOnly=true"`
	WO       string  `json:"wo" jsonschema:"writeOnly=true"`
	Desc     string  `json:"desc" jsonschema_description:"From jsonschema_description"`
	Both     string  `json:"both" jsonschema:"description=The tag key wins" jsonschema_description:"loses"`
	Extras   string  `json:"extras" jsonschema_extras:"a=1,b=true,a=2,c=x\\,y,d=false,a=3"`
	Eq       string  `json:"eq" jsonschema:"pattern=^a=b$"`
	Nullable string  `json:"nullable" jsonschema:"nullable,minLength=2"`
	Anchor   string  `json:"anchor" jsonschema:"anchor=here"`
	OptReq   string  `json:"optReq,omitempty" jsonschema:"required,maxLength=2"`
	Email    *string `json:"email,omitempty" jsonschema:"format=email,example=a@b.c"`
	Flagged  string  `json:"flagged" jsonschema:"oneof_required=one"`
	Other    string  `json:"other" jsonschema:"oneof_required=two,anyof_required=x"`
	Sentence string  `json:"sentence" jsonschema:"default=a\\, b and c"`
}

// NumberTags covers the jsonschema keys of numeric and boolean fields.
type NumberTags struct {
	Range     int     `json:"range" jsonschema:"minimum=1,maximum=10"`
	Excl      float64 `json:"excl" jsonschema:"exclusiveMinimum=0,exclusiveMaximum=1.5"`
	Mult      int     `json:"mult" jsonschema:"multipleOf=5"`
	Def       int     `json:"def" jsonschema:"default=7,example=8,example=9"`
	Enum      int     `json:"enum" jsonschema:"enum=1,enum=2,enum=3"`
	Small     int8    `json:"small" jsonschema:"minimum=-5"`
	U16       uint16  `json:"u16" jsonschema:"maximum=1000,minimum=10"`
	FloatEnum float32 `json:"floatEnum" jsonschema:"enum=1.5,enum=2.5e3"`
	Ptr       *int    `json:"ptr" jsonschema:"minimum=3,title=Pointer"`
	BoolDef   bool    `json:"boolDef" jsonschema:"default=true"`
	BoolFalse bool    `json:"boolFalse" jsonschema:"default=false,description=off"`
	Extra     int     `json:"extra" jsonschema_extras:"minimum=3,minimum=4"`
	Negative  float64 `json:"negative" jsonschema:"minimum=-1.25e-2,maximum=0"`
}

// ArrayTags covers the jsonschema keys of slice and array fields, most of
// which apply to the items.
type ArrayTags struct {
	Tags      []string   `json:"tags" jsonschema:"minItems=1,maxItems=5,uniqueItems=true,pattern=^[a-z]+$,format=slug,minLength=2,enum=x,enum=y"`
	Nums      []int      `json:"nums" jsonschema:"minimum=0,maximum=9,enum=1,enum=2,example=1"`
	Defaults  []string   `json:"defaults" jsonschema:"default=a,default=b"`
	Fixed     [3]float64 `json:"fixed" jsonschema:"exclusiveMaximum=1"`
	Ptrs      []*string  `json:"ptrs" jsonschema:"maxLength=4"`
	Described []string   `json:"described" jsonschema:"description=a list,title=T"`
	Colors    []Color    `json:"colors" jsonschema:"enum=red"`
	Nested    [][]string `json:"nested" jsonschema:"minItems=2"`
	ROItems   []string   `json:"roItems" jsonschema:"readOnly=true,maxLength=3"`
	BytesLen  []byte     `json:"bytesLen" jsonschema:"maxLength=100"`
}

// Point is a point in the plane.
type Point struct {
	X int `json:"x"`
	Y int `json:"y"`
}

// Key is a map key.
type Key string

// Tags is a named slice.
type Tags []string

// Collections covers slices, arrays, maps and the special types.
type Collections struct {
	Strings   []string                   `json:"strings"`
	Arr       [4]int                     `json:"arr"`
	ByteArr   [2]byte                    `json:"byteArr"`
	Bytes     []byte                     `json:"bytes"`
	Blob      Blob                       `json:"blob"`
	Map       map[string]int             `json:"map"`
	KeyMap    map[Key]string             `json:"keyMap"`
	AnyMap    map[string]any             `json:"anyMap"`
	PointMap  map[string]Point           `json:"pointMap"`
	SliceMap  map[string][]string        `json:"sliceMap"`
	RawMap    map[string]json.RawMessage `json:"rawMap"`
	Raw       json.RawMessage            `json:"raw"`
	Any       any                        `json:"any"`
	Stringer  fmt.Stringer               `json:"stringer"`
	When      time.Time                  `json:"when"`
	WhenPtr   *time.Time                 `json:"whenPtr"`
	Matrix    [][]int                    `json:"matrix"`
	Points    []Point                    `json:"points"`
	PtrPoints []*Point                   `json:"ptrPoints"`
	Tags      Tags                       `json:"tags"`
	Anon      struct {
		A string `json:"a"`
		B *int   `json:"b,omitempty"`
	} `json:"anon"`
}

// Blob is a named byte slice.
type Blob []byte

// Base is embedded by value.
type Base struct {
	ID      string    `json:"id"`
	Created time.Time `json:"created"`
}

// Meta is embedded by pointer.
type Meta struct {
	Labels []string `json:"labels,omitempty"`
	Note   string
	*Deep
}

// Deep is embedded by pointer two levels down.
type Deep struct {
	Depth int `json:"depth"`
}

type hidden struct {
	Shown  int `json:"shown"`
	secret int
}

// Embedding covers embedded structs, embedded pointers and a tagged
// embedded struct.
type Embedding struct {
	Base
	*Meta
	hidden
	Name  string `json:"name"`
	Point `json:"point"`
	Tags
}

// ConflictA and ConflictB have fields of the same names.
type ConflictA struct {
	X int
	Y string
	Z bool `json:"z"`
}

// ConflictB is the other half of Conflicts.
type ConflictB struct {
	X int
	Y string `json:"Y"`
	W int
}

// Conflicts has names that encoding/json resolves: X is dropped (equal
// depth, both untagged), B's tagged Y wins, the outer W wins.
type Conflicts struct {
	ConflictA
	ConflictB
	W string
}

// Inner is reached twice at the same depth in Diamond.
type Inner struct {
	V int
}

// Left embeds Inner.
type Left struct {
	Inner
	L int
}

// Right embeds Inner.
type Right struct {
	Inner
	R int
}

// Diamond reaches Inner.V twice at one depth: encoding/json drops it.
type Diamond struct {
	Left
	*Right
	Own int
}

// Shadow hides an embedded field with a shallower one and one tagged name.
type Shadow struct {
	Base
	ID    int    `json:"id"`
	Other string `json:"created"`
}

// JSONNames covers json tag names that encoding/json and invopop read
// differently.
type JSONNames struct {
	Dash    string `json:"-,"`
	Invalid string `json:"bad\\name"`
	Space   string `json:"with space"`
}

// Color is a color.
type Color string

// The colors, in an order that is neither alphabetical nor by value.
const (
	Red          Color = "red"
	Green        Color = "green"
	Blue         Color = "blue"
	DefaultColor       = Red
)

const notAColor = "purple"

// Priority is a priority.
type Priority int

// The priorities.
const (
	Urgent Priority = 10
	Low    Priority = 1
	Normal Priority = 5
)

// Level is a small unsigned level.
type Level uint8

// The levels.
const (
	LevelOff Level = iota
	LevelOn
)

// Plain is a named string without constants.
type Plain string

// Enums covers enums from constants.
type Enums struct {
	Color    Color            `json:"color"`
	Colors   []Color          `json:"colors"`
	ColorMap map[string]Color `json:"colorMap"`
	Priority Priority         `json:"priority"`
	Level    Level            `json:"level"`
	Tagged   Color            `json:"tagged" jsonschema:"enum=red,enum=green"`
	PtrColor *Color           `json:"ptrColor,omitempty"`
	Plain    Plain            `json:"plain"`
	Size     ext.Size         `json:"size"`
}

// Foreign has named types of other modules that have constants: they make
// no enum, since their constants name some of their values, not all.
type Foreign struct {
	Timeout time.Duration            `json:"timeout"`
	Month   time.Month               `json:"month"`
	Weekday time.Weekday             `json:"weekday"`
	Mode    packages.LoadMode        `json:"mode"`
	Sizes   []ext.Size               `json:"sizes"`
	Waits   map[string]time.Duration `json:"waits"`
}

// Quoted has fields with encoding/json's ",string" option.
type Quoted struct {
	Int      int      `json:"int,string"`
	Int8     int8     `json:"int8,string"`
	Uint     uint16   `json:"uint,string"`
	Float    float32  `json:"float,string"`
	Bool     bool     `json:"bool,string"`
	String   string   `json:"string,string"`
	Ptr      *int64   `json:"ptr,string,omitempty"`
	Priority Priority `json:"priority,string"`
	Tagged   int      `json:"tagged,string" jsonschema:"enum=1,enum=2"`
	Slice    []int    `json:"slice,string"` // the option does not apply to a slice
}

// Keys has maps whose keys are not strings.
type Keys struct {
	Ints  map[int]string       `json:"ints"`
	Small map[int8]int         `json:"small"`
	Uints map[uint]bool        `json:"uints"`
	Texts map[TextKey]int      `json:"texts"`
	Named map[Color]int        `json:"named"`
	Ptrs  map[*TextKey]float64 `json:"ptrs"`
}

// TextKey decodes itself from text, which encoding/json prefers for map
// keys even over a string kind.
type TextKey string

// UnmarshalText reads a key.
func (k *TextKey) UnmarshalText(b []byte) error { *k = TextKey(b); return nil }

// Documented is documented.
//
// It has two paragraphs.
type Documented struct {
	// Doc is a doc comment.
	Doc  string `json:"doc"`
	Line string `json:"line"` // Line is a line comment.
	// Both has a doc comment.
	Both          string    `json:"both"`                                                  // and a line comment, which loses.
	Tagged        string    `json:"tagged" jsonschema:"description=from the tag"`          // loses to the tag.
	TaggedDesc    string    `json:"taggedDesc" jsonschema_description:"from the desc tag"` // loses to the tag.
	Color         Color     `json:"color"`
	Commented     Color     `json:"commented"` // Commented wins over the type's doc.
	Nested        Point     `json:"nested"`
	Thing         ext.Thing `json:"thing"`
	First, Second string    // Shared by two names.
	Anon          struct {
		// Inner is in an anonymous struct.
		Inner string `json:"inner"`
	} `json:"anon"`
	Items []Point `json:"items"`
}

// Tree is a tree node.
type Tree struct {
	Value    string `json:"value"`
	Children []Tree `json:"children,omitempty"`
	Parent   *Tree  `json:"parent,omitempty"`
}

// Forest holds trees without being recursive itself.
type Forest struct {
	Trees []Tree `json:"trees"`
	Best  *Tree  `json:"best"` // The best tree.
}

// Dept and Person refer to each other.
type Dept struct {
	Name  string   `json:"name"`
	Staff []Person `json:"staff"`
}

// Person belongs to a department.
type Person struct {
	Name    string  `json:"name"`
	Dept    *Dept   `json:"dept,omitempty"`
	Manager *Person `json:"manager,omitempty"`
}

// Chain recurses through a named slice type.
type Chain struct {
	Links Links `json:"links"`
}

// Links is a list of chains.
type Links []Chain

// Version is a version, encoded as "major.minor".
type Version struct {
	Major, Minor int
}

// MarshalJSON encodes v as "major.minor".
func (v Version) MarshalJSON() ([]byte, error) {
	return json.Marshal(fmt.Sprintf("%d.%d", v.Major, v.Minor))
}

// UnmarshalJSON decodes "major.minor".
func (v *Version) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	_, err := fmt.Sscanf(s, "%d.%d", &v.Major, &v.Minor)
	return err
}

// Stamp is decoded by its own method only.
type Stamp int64

// UnmarshalJSON decodes a quoted or bare number.
func (s *Stamp) UnmarshalJSON(b []byte) error {
	n, err := strconv.ParseInt(strings.Trim(string(b), `"`), 10, 64)
	*s = Stamp(n)
	return err
}

// Hex is an integer written as hexadecimal text.
type Hex uint32

// MarshalText writes h in hexadecimal.
func (h Hex) MarshalText() ([]byte, error) { return []byte(strconv.FormatUint(uint64(h), 16)), nil }

// UnmarshalText reads hexadecimal.
func (h *Hex) UnmarshalText(b []byte) error {
	n, err := strconv.ParseUint(string(b), 16, 32)
	*h = Hex(n)
	return err
}

// Stamped embeds a type with JSON methods, so it has them too.
type Stamped struct {
	Version
	Extra string
}

// Marshalers covers types with their own JSON or text methods.
type Marshalers struct {
	V        Version   `json:"v"`
	Typed    Version   `json:"typed" jsonschema:"type=string,pattern=^\\d+\\.\\d+$"`
	Ptr      *Version  `json:"ptr,omitempty"`
	Stamp    Stamp     `json:"stamp"`
	Hex      Hex       `json:"hex"`
	Versions []Version `json:"versions"`
	Stamped  Stamped   `json:"stamped"`
	OneOf    any       `json:"oneOf" jsonschema:"oneof_type=string;integer"`
	Titled   Version   `json:"titled" jsonschema:"title=V,description=a version"`
}

// Page is a generic recursive type.
type Page[T any] struct {
	Items []T      `json:"items"`
	Next  *Page[T] `json:"next,omitempty"`
}

// Pages instantiates Page twice.
type Pages struct {
	Strings Page[string] `json:"strings"`
	Points  Page[Point]  `json:"points"`
}
