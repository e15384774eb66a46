package generator

import (
	"go/ast"
	"go/token"
	"go/types"
	"time"
)

// PromptOutput says how a prompt function's Go result becomes the result
// of prompts/get.
type PromptOutput int

const (
	PromptText     PromptOutput = iota // string: one user message
	PromptMessages                     // []runtime.PromptMessage
	PromptResult                       // *runtime.GetPromptResult
)

// Prompt is one //mcp:prompt function.
type Prompt struct {
	Pos         token.Position
	Name        string
	Title       string
	Description string
	Timeout     time.Duration // bounds a get's time (timeout=); 0: no bound

	Func    string
	Recv    *Receiver
	Context bool

	// Args are the prompt's arguments, the fields of the struct parameter
	// ArgStruct (passed as a pointer when ArgPointer); none when the
	// function takes no arguments.
	Args       []*Var
	ArgStruct  *Shape
	ArgPointer bool

	Output     PromptOutput
	OutputType types.Type
}

var promptKeys = map[string]string{"name": "value", "title": "value", "description": "value", "timeout": "value"}

const promptKeyList = "name, title, description, timeout"

const promptShape = "a prompt must look like func [(r *T)] F([ctx context.Context][, args Args]) (Out, error), with Args a struct of string fields and Out a string, []runtime.PromptMessage or *runtime.GetPromptResult"

// prompt builds one //mcp:prompt function. Prompt arguments are strings on
// the wire, so every field of the arguments struct must be string-kinded
// (a string, a named string type such as an enum, or a pointer to one);
// other fields are an error rather than a conversion that would surprise.
func (pb *primBuilder) prompt(fd *ast.FuncDecl, c *ast.Comment) []Diagnostic {
	line, diags := parseDirectiveLine(pb.fset, c, promptKeys, promptKeyList)
	pr := &Prompt{
		Name:        line.value("name"),
		Title:       line.value("title"),
		Description: line.value("description"),
		Func:        fd.Name.Name,
	}
	if pr.Name == "" {
		pr.Name = snakeCase(fd.Name.Name)
	}
	var tds []Diagnostic
	pr.Timeout, tds = timeoutKey(line, "//mcp:prompt")
	diags = append(diags, tds...)
	if pr.Description == "" {
		pr.Description = toolDescription(fd.Name.Name, fd.Doc.Text())
	}
	f, ds := pb.function(fd, "prompts", promptShape)
	if f == nil {
		return append(diags, ds...)
	}
	pr.Pos, pr.Recv, pr.Context = f.Pos, f.Recv, f.Context
	switch len(f.Params) {
	case 0:
	case 1:
		p := f.Params[0]
		st, ptr, ok := structParam(p.Type())
		if !ok {
			return append(diags, diagf(pb.fset.Position(p.Pos()), "%s: the arguments must be a struct or a pointer to a struct, not %s; %s", f.Name, p.Type(), promptShape))
		}
		s, _, ds := pb.b.build(st, p.Pos())
		if len(ds) > 0 {
			return append(diags, ds...)
		}
		if s.Kind != KindStruct {
			return append(diags, diagf(pb.fset.Position(p.Pos()), "%s: %s has its own JSON methods; the arguments must be a plain struct", f.Name, p.Type()))
		}
		pr.ArgStruct, pr.ArgPointer = s, ptr
		for _, fl := range s.Fields {
			elem := fl.Shape
			if elem.Kind == KindPointer && elem.Elem != nil {
				elem = elem.Elem
			}
			if elem.Kind != KindString {
				diags = append(diags, diagf(pb.fset.Position(fieldPos(st, fl)), "%s: prompt argument %q is %s; prompt arguments are strings, so its type must be a string type (or a pointer to one for an optional argument)", f.Name, fl.Name, fl.Shape.Type))
				continue
			}
			v := &Var{Name: fl.Name, Shape: fl.Shape, Field: fl, Required: fl.Required && fl.Shape.Kind != KindPointer, Enum: stringEnum(elem)}
			if sc := fl.Shape.Schema; sc != nil {
				v.Title, v.Description = sc.Title, sc.Description
				if fl.Shape.Kind == KindPointer && elem.Schema != nil && v.Description == "" {
					v.Description = elem.Schema.Description
				}
			}
			pr.Args = append(pr.Args, v)
		}
	default:
		return append(diags, diagf(f.Pos, "%s: too many parameters; %s", f.Name, promptShape))
	}

	res := f.Results
	if res.Len() != 2 || !isError(res.At(1).Type()) {
		return append(diags, diagf(f.Pos, "%s: a prompt returns its messages and an error; %s", f.Name, promptShape))
	}
	out := res.At(0).Type()
	pr.OutputType = out
	switch {
	case isString(out):
		pr.Output = PromptText
	case isPromptMessages(out):
		pr.Output = PromptMessages
	case isRuntimeType(out, "GetPromptResult", true):
		pr.Output = PromptResult
	default:
		return append(diags, diagf(f.Pos, "%s: unsupported result type %s; %s", f.Name, out, promptShape))
	}
	if prev := pb.prompts[pr.Name]; prev != nil {
		return append(diags, diagf(line.Pos, "duplicate prompt name %q (also used by %s at %s)", pr.Name, prev.Func, where(prev.Pos, pr.Pos)))
	}
	if len(diags) > 0 {
		return diags
	}
	pb.prompts[pr.Name] = pr
	pb.p.Prompts = append(pb.p.Prompts, pr)
	return nil
}

func isPromptMessages(t types.Type) bool {
	s, ok := types.Unalias(t).(*types.Slice)
	return ok && isRuntimeType(s.Elem(), "PromptMessage", false)
}
