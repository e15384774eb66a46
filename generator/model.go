package generator

import (
	"fmt"
	"go/token"
	"go/types"
	"io"
	"strings"
	"time"

	"github.com/invopop/jsonschema"
)

// Package is the typed model of one Go package's MCP surface: everything the
// emitter needs, derived from source and types, with no knowledge of how the
// code is written out.
type Package struct {
	Name    string // Go package name
	PkgPath string // import path
	Dir     string // directory holding the package's files
	Output  string // path of the file to generate

	Receivers []*Receiver // receiver types of annotated methods, in order of first appearance
	Tools     []*Tool     // in source order
	Resources []*Resource // //mcp:resource, in source order
	Prompts   []*Prompt   // //mcp:prompt, in source order
	Forms     []*Form     // struct types used with runtime.AskForm or marked //mcp:form, in order of first use
	Subscribe bool        // a resource asks for resources/subscribe

	// Types is the type-checked package; Scope holds its package-level
	// names declared outside the generated file, which generated
	// identifiers and import names avoid.
	Types *types.Package
	Scope map[string]bool

	check    *checkInput // what type-checking the generated file needs; nil: not checked
	inputKey string      // hash of what the generated file depends on; "": unknown
	reused   []byte      // the file on disk, up to date: Generate returns it without emitting
	linted   bool        // warnings were computed
	failed   bool        // building the model gave errors: it is incomplete
	warnings Diagnostics // the package's warnings, when linted
	// pendingForms are the uses of AskForm with forms of other packages
	// loaded from source, which get their methods in this run.
	pendingForms []token.Position

	// Defs holds the definition shapes of recursive types by their "$defs"
	// name: a Shape with a Ref refers to Defs[Ref].
	Defs map[string]*Shape
}

// Receiver is a type whose methods are annotated; RegisterMCP takes one
// parameter of this type.
type Receiver struct {
	Type  types.Type // as written on the method: *FS or FS
	Param string     // parameter name in RegisterMCP
}

// Annotations are the MCP tool annotations; nil means unset.
type Annotations struct {
	ReadOnly    *bool
	Destructive *bool
	Idempotent  *bool
	OpenWorld   *bool
}

// Empty reports whether no annotation is set.
func (a Annotations) Empty() bool {
	return a.ReadOnly == nil && a.Destructive == nil && a.Idempotent == nil && a.OpenWorld == nil
}

// OutputKind says how a tool's Go result becomes a CallToolResult.
type OutputKind int

const (
	OutputNone       OutputKind = iota // func(...) error: empty content
	OutputText                         // string: one text block
	OutputStructured                   // struct, map or slice: structuredContent + text
	OutputResult                       // *runtime.CallToolResult: passed through
	OutputContent                      // []runtime.Content: passed through as content
)

// String names the kind.
func (k OutputKind) String() string {
	switch k {
	case OutputNone:
		return "none"
	case OutputText:
		return "text"
	case OutputStructured:
		return "structured"
	case OutputResult:
		return "result"
	case OutputContent:
		return "content"
	}
	return fmt.Sprintf("OutputKind(%d)", int(k))
}

// Tool is one //mcp:tool function or method.
type Tool struct {
	Pos         token.Position
	Name        string
	Title       string
	Description string
	Annotations Annotations
	Timeout     time.Duration // bound on a call's time; 0: the server's default

	Func    string    // Go function or method name
	Recv    *Receiver // nil for a plain function
	Context bool      // the first parameter is a context.Context

	// Input is the shape of the argument struct; nil when the function takes
	// no arguments. InputPointer is set when the parameter is *In.
	Input        *Shape
	InputPointer bool
	InputSchema  *jsonschema.Schema // always an object schema

	Output       OutputKind
	OutputType   types.Type         // the Go result type (nil for OutputNone)
	OutputSchema *jsonschema.Schema // OutputStructured only
	// OutputShape is the shape of the result (of the pointer's element for
	// *T), which the generated encoder writes; OutputStructured only.
	OutputShape *Shape
	// OutputWrap, when non-empty, is the property that wraps a non-object
	// structured result (a slice) so that structuredContent is an object.
	OutputWrap string
}

// Kind classifies a Go type by how its JSON value is decoded.
type Kind int

const (
	KindBool        Kind = iota // bool
	KindInt                     // int, int8 … int64 (Bits says which)
	KindUint                    // uint, uint8 … uint64, uintptr
	KindFloat                   // float32, float64
	KindString                  // string
	KindStruct                  // struct; Fields lists the JSON properties
	KindSlice                   // []Elem
	KindArray                   // [Len]Elem
	KindMap                     // map[string]Elem
	KindPointer                 // *Elem: optional, null allowed
	KindTime                    // time.Time: RFC 3339 string
	KindBytes                   // []byte: base64 string
	KindRawMessage              // json.RawMessage: any JSON value, kept raw
	KindAny                     // interface type: any JSON value, decoded by encoding/json
	KindUnmarshaler             // a type with its own UnmarshalJSON (or MarshalJSON): decoded by encoding/json
)

var kindNames = [...]string{"bool", "int", "uint", "float", "string", "struct", "slice", "array", "map", "pointer", "time", "bytes", "rawmessage", "any", "unmarshaler"}

// String names the kind.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Shape is the typed model of one JSON value site: a Go type together with
// the schema that applies at that site (a field's tags refine its type's
// schema, so two fields of one type may have different shapes).
type Shape struct {
	Kind Kind
	Type types.Type // the Go type at this site (named types kept)
	Bits int        // KindInt, KindUint, KindFloat: 8, 16, 32 or 64 (int, uint: 64)

	// Schema is the JSON Schema of this site, tags applied. For a recursive
	// reference it is {"$ref": …}.
	Schema *jsonschema.Schema

	Fields []*Field // KindStruct
	Elem   *Shape   // KindSlice, KindArray, KindMap, KindPointer
	Len    int64    // KindArray

	// Ref, when non-empty, marks a recursive use of a named struct type: the
	// Shape has no Fields; the definition is Defs[Ref] of the root builder.
	Ref string

	// Quoted marks a bool, number or string field with encoding/json's
	// ",string" option: its JSON value is a string holding the JSON text of
	// the value. On a pointer it is set on the pointer's shape.
	Quoted bool

	// EnumNote names the values of an integer type's enum from constants,
	// "0 (Low), 1 (High)", as the schema's description ends with it
	// (enumnote.go); "" for any other site.
	EnumNote string

	// Key is the kind of a map's keys: KeyString, KeyInt, KeyUint or
	// KeyText (a type with UnmarshalText in the shape of an input, with
	// MarshalText in the shape of a result). KindMap only.
	Key MapKey
}

// MapKey says how a JSON object's keys become Go map keys, as
// encoding/json converts them.
type MapKey int

const (
	KeyString MapKey = iota // a type of string kind: the key itself
	KeyInt                  // a signed integer kind: decimal digits
	KeyUint                 // an unsigned integer kind: decimal digits
	KeyText                 // a type with UnmarshalText, which takes precedence over the kind
)

// Field is one JSON property of a struct shape.
type Field struct {
	Name     string      // JSON property name
	Path     []FieldStep // Go selector path from the struct, through embedded structs
	Required bool
	// Nullable is set for jsonschema:"nullable": the schema allows null,
	// which leaves the field as it is, as encoding/json does.
	Nullable bool
	// OmitEmpty and OmitZero are the json tag's options: the generated
	// encoder leaves the property out when the value is empty or zero.
	OmitEmpty, OmitZero bool
	Shape               *Shape
}

// FieldStep is one step of a field's Go selector path.
type FieldStep struct {
	Name string // Go field name
	// Ptr is set for an embedded *T step, which must be allocated before a
	// field below it can be set. Type is then the pointer type.
	Ptr  bool
	Type types.Type
}

// GoPath returns the field's selector, e.g. "Base.ID".
func (f *Field) GoPath() string {
	names := make([]string, len(f.Path))
	for i, s := range f.Path {
		names[i] = s.Name
	}
	return strings.Join(names, ".")
}

// Dump writes a readable description of the model, for debugging (mcpgen -dump).
func (p *Package) Dump(w io.Writer) {
	fmt.Fprintf(w, "package %s (%s) -> %s\n", p.Name, p.PkgPath, p.Output)
	for _, r := range p.Receivers {
		fmt.Fprintf(w, "receiver %s %s\n", r.Param, r.Type)
	}
	for _, t := range p.Tools {
		fmt.Fprintf(w, "tool %q func=%s pos=%s output=%s\n", t.Name, t.Func, t.Pos, t.Output)
		if t.Input != nil {
			dumpShape(w, t.Input, "  in ")
		}
		if t.OutputShape != nil {
			dumpShape(w, t.OutputShape, "  out ")
		}
	}
	p.dumpPrims(w)
	p.dumpForms(w)
}

func dumpShape(w io.Writer, s *Shape, indent string) {
	fmt.Fprintf(w, "%s%s %s", indent, s.Kind, s.Type)
	if s.Ref != "" {
		fmt.Fprintf(w, " ref=%s", s.Ref)
	}
	fmt.Fprintln(w)
	for _, f := range s.Fields {
		req := ""
		if f.Required {
			req = " required"
		}
		fmt.Fprintf(w, "%s  .%s (%s)%s\n", indent, f.Name, f.GoPath(), req)
		dumpShape(w, f.Shape, indent+"    ")
	}
	if s.Elem != nil {
		dumpShape(w, s.Elem, indent+"  []")
	}
}
