// Package fuzzdecode holds a tool whose argument type has a field of every
// kind the generator decodes, for fuzzing the decoder it generates
// (mcp_gen.go) against encoding/json.
package fuzzdecode

import (
	"context"
	"encoding/json"
	"time"
)

// Level is a string enumeration.
type Level string

// The levels.
const (
	Low  Level = "low"
	High Level = "high"
)

// Inner is a nested struct.
type Inner struct {
	Name  string `json:"name"`
	Count int    `json:"count,omitempty"`
}

// Embedded is embedded in Kinds; its fields are Kinds' own.
type Embedded struct {
	Note string `json:"note,omitempty"`
}

// Kinds has a field of every kind.
type Kinds struct {
	Embedded
	Bool    bool            `json:"bool"`
	Int     int             `json:"int,omitempty"`
	Int8    int8            `json:"int8,omitempty"`
	Int64   int64           `json:"int64,omitempty"`
	Uint16  uint16          `json:"uint16,omitempty"`
	Uint64  uint64          `json:"uint64,omitempty"`
	Float32 float32         `json:"float32,omitempty"`
	Float64 float64         `json:"float64,omitempty"`
	String  string          `json:"string,omitempty"`
	Bounded int             `json:"bounded,omitempty" jsonschema:"minimum=-5,maximum=100"`
	Pattern string          `json:"pattern,omitempty" jsonschema:"pattern=^[a-z]*$,maxLength=8"`
	Level   Level           `json:"level,omitempty" jsonschema:"enum=low,enum=high"`
	Quoted  int             `json:"quoted,omitempty,string"`
	Ptr     *int            `json:"ptr,omitempty"`
	Bytes   []byte          `json:"bytes,omitempty"`
	Time    time.Time       `json:"time,omitzero"`
	Raw     json.RawMessage `json:"raw,omitempty"`
	Any     any             `json:"any,omitempty"`
	Strings []string        `json:"strings,omitempty"`
	Array   [2]int          `json:"array,omitzero"`
	Inner   Inner           `json:"inner,omitzero"`
	Inners  []*Inner        `json:"inners,omitempty"`
	Map     map[string]int  `json:"map,omitempty"`
	IntMap  map[int]string  `json:"intMap,omitempty"`
}

// Take echoes its arguments.
//
//mcp:tool
func Take(ctx context.Context, in Kinds) (string, error) { return "ok", nil }
