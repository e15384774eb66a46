package outputcheck

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"testing"
	"time"
	"unsafe"

	"github.com/mcpgen/mcpgen/generator"
	"github.com/mcpgen/mcpgen/generator/internal/schematypes"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// outputs are the tools and the Go types they return.
var outputs = []struct {
	tool string
	typ  reflect.Type
}{
	{"scalars", reflect.TypeFor[schematypes.Scalars]()},
	{"scalars2", reflect.TypeFor[schematypes.Scalars2]()},
	{"optional", reflect.TypeFor[schematypes.Optional]()},
	{"nils", reflect.TypeFor[*schematypes.Nils]()},
	{"omits", reflect.TypeFor[schematypes.Omits]()},
	{"meta", reflect.TypeFor[schematypes.Meta]()},
	{"embedding", reflect.TypeFor[schematypes.Embedding]()},
	{"outer", reflect.TypeFor[schematypes.Outer]()},
	{"conflicts", reflect.TypeFor[schematypes.Conflicts]()},
	{"diamond", reflect.TypeFor[schematypes.Diamond]()},
	{"shadow", reflect.TypeFor[schematypes.Shadow]()},
	{"forest", reflect.TypeFor[schematypes.Forest]()},
	{"dept", reflect.TypeFor[schematypes.Dept]()},
	{"chain", reflect.TypeFor[schematypes.Chain]()},
	{"pages", reflect.TypeFor[schematypes.Pages]()},
	{"marshaled", reflect.TypeFor[schematypes.Marshaled]()},
	{"trees", reflect.TypeFor[[]schematypes.Tree]()},
	{"point_map", reflect.TypeFor[map[string]*schematypes.Point]()},
	{"persons", reflect.TypeFor[[2]*schematypes.Person]()},
	{"quoted", reflect.TypeFor[schematypes.OutQuoted]()},
	{"keys", reflect.TypeFor[schematypes.OutKeys]()},
	{"int_map", reflect.TypeFor[map[int64]string]()},
}

// TestGeneratedFileIsCurrent keeps mcp_gen.go in step with the generator.
func TestGeneratedFileIsCurrent(t *testing.T) {
	files, err := generator.Generate(generator.Config{Dir: "."})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 {
		t.Fatalf("got %d files", len(files))
	}
	have, err := os.ReadFile(files[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, files[0].Content) {
		t.Fatalf("%s is stale: run go generate ./generator/internal/outputcheck", files[0].Path)
	}
}

// TestOutputsAgreeWithSchemas is the property that output schemas describe
// what is sent: for each output type, random values including every zero
// form (nil slices, maps, pointers and embedded pointers, zero structs)
// are returned by a tool, and the structuredContent the server writes
// must validate against the tool's published output schema, and must say
// what encoding/json says, except where the nil rule differs from it.
func TestOutputsAgreeWithSchemas(t *testing.T) {
	c := startClient(t)
	var list struct {
		Result struct {
			Tools []struct {
				Name         string
				OutputSchema json.RawMessage
			}
		}
	}
	if err := json.Unmarshal(c.call(`{"jsonrpc":"2.0","id":"l","method":"tools/list"}`), &list); err != nil {
		t.Fatal(err)
	}
	schemas := map[string]*jsonschema.Schema{}
	for _, tool := range list.Result.Tools {
		comp := jsonschema.NewCompiler()
		comp.DefaultDraft(jsonschema.Draft2020)
		comp.AssertFormat()
		comp.AssertContent()
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(tool.OutputSchema))
		if err != nil {
			t.Fatal(err)
		}
		if err := comp.AddResource("out.json", doc); err != nil {
			t.Fatal(err)
		}
		sch, err := comp.Compile("out.json")
		if err != nil {
			t.Fatalf("%s: the output schema does not compile: %v", tool.Name, err)
		}
		schemas[tool.Name] = sch
	}

	g := &gen{rng: rand.New(rand.NewPCG(7, 11)), seen: map[string]int{}}
	failures := 0
	for _, o := range outputs {
		sch := schemas[o.tool]
		if sch == nil {
			t.Fatalf("no tool %s", o.tool)
		}
		for i := range 300 {
			var v reflect.Value
			if i == 0 {
				v = reflect.New(o.typ).Elem() // the zero value
				if o.typ.Kind() == reflect.Pointer {
					v = reflect.New(o.typ.Elem())
				}
			} else {
				v = g.value(o.typ, 0)
				if o.typ.Kind() == reflect.Pointer && v.IsNil() {
					v = reflect.New(o.typ.Elem())
				}
			}
			Next = v.Interface()
			resp := c.call(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q}}`, i, o.tool))
			var r struct {
				Result struct {
					StructuredContent json.RawMessage
					IsError           bool
					Content           []struct{ Text string }
				}
			}
			if err := json.Unmarshal(resp, &r); err != nil || r.Result.IsError || r.Result.StructuredContent == nil {
				t.Fatalf("%s: no structured result for %#v: %s", o.tool, Next, resp)
			}
			sent := r.Result.StructuredContent
			if len(r.Result.Content) != 1 || r.Result.Content[0].Text != string(sent) {
				t.Errorf("%s: the text block differs from the structured content", o.tool)
			}
			var inst any
			if err := json.Unmarshal(sent, &inst); err != nil {
				t.Fatal(err)
			}
			if err := sch.Validate(inst); err != nil {
				failures++
				if failures <= 10 {
					t.Errorf("%s sent %s, which its output schema rejects: %v", o.tool, sent, err)
				}
				continue
			}
			want, err := json.Marshal(wrapped(o.tool, Next))
			if err != nil {
				t.Fatal(err)
			}
			w := decodeNumbers(t, want)
			if o.tool == "optional" {
				// A field the schema skips (jsonschema:"-") is not sent.
				delete(w.(map[string]any), "schemaSkip")
			}
			if msg := agree(w, decodeNumbers(t, sent), ""); msg != "" {
				failures++
				if failures <= 10 {
					t.Errorf("%s: %s\nencoding/json: %s\n         sent: %s", o.tool, msg, want, sent)
				}
			}
		}
	}
	if failures > 0 {
		t.Errorf("%d failures", failures)
	}
	for _, form := range []string{"nil slice", "nil map", "nil pointer", "nil embedded pointer", "nil pointer element", "nil bytes", "nil interface", "nil raw"} {
		if g.seen[form] == 0 {
			t.Errorf("no value held a %s", form)
		}
	}
	t.Logf("zero forms generated: %v", g.seen)
}

func wrapped(tool string, v any) any {
	switch tool {
	case "trees", "persons":
		return map[string]any{"items": v}
	}
	return v
}

func decodeNumbers(t *testing.T, b []byte) any {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// agree compares what encoding/json writes (want) with what was sent,
// allowing only the nil rule's differences: where encoding/json writes
// null, the server may write [], {}, "" or leave the property out.
func agree(want, got any, path string) string {
	if want == nil {
		switch g := got.(type) {
		case nil:
			return ""
		case []any:
			if len(g) == 0 {
				return ""
			}
		case map[string]any:
			if len(g) == 0 {
				return ""
			}
		case string:
			if g == "" {
				return ""
			}
		}
		return fmt.Sprintf("%s: encoding/json writes null, sent %v", path, got)
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: want an object, sent %v", path, got)
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok {
				if wv != nil {
					return fmt.Sprintf("%s.%s: left out, encoding/json writes %v", path, k, wv)
				}
				continue
			}
			if msg := agree(wv, gv, path+"."+k); msg != "" {
				return msg
			}
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				return fmt.Sprintf("%s.%s: sent, encoding/json leaves it out", path, k)
			}
		}
		return ""
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("%s: want %v, sent %v", path, want, got)
		}
		for i := range w {
			if msg := agree(w[i], g[i], fmt.Sprintf("%s[%d]", path, i)); msg != "" {
				return msg
			}
		}
		return ""
	}
	if want != got {
		return fmt.Sprintf("%s: encoding/json writes %v, sent %v", path, want, got)
	}
	return ""
}

// gen makes random values, each nil-able part nil now and then.
type gen struct {
	rng  *rand.Rand
	seen map[string]int // zero forms made, by kind
}

const maxDepth = 4

var (
	timeType = reflect.TypeFor[time.Time]()
	rawType  = reflect.TypeFor[json.RawMessage]()
)

var strs = []string{"", "a", "héllo ✓", "quote\" back\\", "nl\n\t\x01", "bad \xff", "\u2028", "<&>", "0"}

func (g *gen) value(t reflect.Type, depth int) reflect.Value {
	v := reflect.New(t).Elem()
	g.fill(v, depth)
	return v
}

func (g *gen) nilNow(depth int) bool { return depth >= maxDepth || g.rng.IntN(4) == 0 }

func (g *gen) fill(v reflect.Value, depth int) {
	r := g.rng
	t := v.Type()
	switch {
	case t == timeType:
		sec := r.Int64N(253402300799) - 62135596800 // years 1…9999
		zone := time.FixedZone("z", (r.IntN(47)-23)*3600+r.IntN(2)*1800)
		v.Set(reflect.ValueOf(time.Unix(sec, r.Int64N(1e9)).In(zone)))
		return
	case t == rawType:
		raws := []string{"", "null", "1", `{"a": [1, 2.5e3, "x"]}`, " \"s\" ", "[]"}
		s := raws[r.IntN(len(raws))]
		if s == "" {
			g.seen["nil raw"]++
			return
		}
		v.SetBytes([]byte(s))
		return
	}
	switch t.Kind() {
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		bits := t.Bits()
		switch r.IntN(4) {
		case 0:
			v.SetInt(0)
		case 1:
			v.SetInt(-1 << (bits - 1))
		case 2:
			v.SetInt(1<<(bits-1) - 1)
		default:
			v.SetInt(r.Int64() >> (64 - bits))
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		bits := t.Bits()
		switch r.IntN(3) {
		case 0:
			v.SetUint(0)
		case 1:
			v.SetUint(math.MaxUint64 >> (64 - bits))
		default:
			v.SetUint(r.Uint64() >> (64 - bits))
		}
	case reflect.Float32, reflect.Float64:
		fs := []float64{0, 1, -0.5, 1e-7, 1e21, 123456.789, math.MaxFloat32, math.SmallestNonzeroFloat32}
		f := fs[r.IntN(len(fs))]
		if r.IntN(2) == 0 {
			f = r.NormFloat64() * math.Pow(10, float64(r.IntN(40)-20))
		}
		if t.Kind() == reflect.Float64 && r.IntN(5) == 0 {
			f = math.MaxFloat64 * r.Float64()
		}
		v.SetFloat(f)
	case reflect.String:
		v.SetString(strs[r.IntN(len(strs))])
	case reflect.Interface:
		if g.nilNow(depth) {
			g.seen["nil interface"]++
			return
		}
		anys := []any{"s", 2.5, true, map[string]any{"k": []any{1.0, "x"}}, []any{}}
		v.Set(reflect.ValueOf(anys[r.IntN(len(anys))]))
	case reflect.Pointer:
		if g.nilNow(depth) {
			g.seen["nil pointer"]++
			return
		}
		p := reflect.New(t.Elem())
		g.fill(p.Elem(), depth+1)
		v.Set(p)
	case reflect.Slice:
		if g.nilNow(depth) {
			if t.Elem().Kind() == reflect.Uint8 {
				g.seen["nil bytes"]++
			} else {
				g.seen["nil slice"]++
			}
			return
		}
		n := r.IntN(4)
		s := reflect.MakeSlice(t, n, n)
		for i := range n {
			g.fillElem(s.Index(i), depth)
		}
		v.Set(s)
	case reflect.Array:
		for i := range v.Len() {
			g.fillElem(v.Index(i), depth)
		}
	case reflect.Map:
		if g.nilNow(depth) {
			g.seen["nil map"]++
			return
		}
		m := reflect.MakeMap(t)
		for range r.IntN(4) {
			k := reflect.New(t.Key()).Elem()
			g.fill(k, maxDepth)
			m.SetMapIndex(k, g.valueElem(t.Elem(), depth))
		}
		v.Set(m)
	case reflect.Struct:
		for i := range t.NumField() {
			f := v.Field(i)
			if !f.CanSet() {
				f = reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
			}
			if t.Field(i).Anonymous && f.Kind() == reflect.Pointer && g.nilNow(depth) {
				g.seen["nil embedded pointer"]++
				continue
			}
			g.fill(f, depth+1)
		}
	default:
		panic("no random values of " + t.String())
	}
}

// fillElem fills an element of a slice, array or map, counting nil
// pointer elements.
func (g *gen) fillElem(v reflect.Value, depth int) {
	if v.Kind() == reflect.Pointer && g.nilNow(depth) {
		g.seen["nil pointer element"]++
		return
	}
	g.fill(v, depth+1)
}

func (g *gen) valueElem(t reflect.Type, depth int) reflect.Value {
	v := reflect.New(t).Elem()
	g.fillElem(v, depth)
	return v
}

// client talks to a server running RegisterMCP over in-memory pipes.
type client struct {
	t   *testing.T
	in  io.Writer
	out *bufio.Reader
}

func startClient(t *testing.T) *client {
	s := runtime.NewServer("outputcheck", "0")
	RegisterMCP(s)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Serve(ctx, inR, outW)
	}()
	t.Cleanup(func() {
		inW.Close()
		cancel()
		outR.Close()
		<-done
	})
	c := &client{t: t, in: inW, out: bufio.NewReaderSize(outR, 1<<20)}
	c.call(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
	io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	return c
}

func (c *client) call(line string) []byte {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatal(err)
	}
	b, err := c.out.ReadBytes('\n')
	if err != nil {
		c.t.Fatal(err)
	}
	return b
}
