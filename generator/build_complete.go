package generator

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// Completion is one //mcp:complete function: it completes one argument of
// a prompt or one variable of a resource template.
type Completion struct {
	Pos      token.Position // of the directive
	Prompt   string         // the prompt completed, or ""
	Template string         // the URI template completed, or ""
	Arg      string

	Func        string
	Recv        *Receiver
	Context     bool
	WithContext bool // takes the resolved arguments as a map[string]string

	target token.Position // of the prompt= or resource= key
	argPos token.Position // of the arg= key
}

var completeKeys = map[string]string{"prompt": "value", "resource": "value", "arg": "value"}

const completeKeyList = "prompt, resource, arg"

const completeShape = "a completion must look like func [(r *T)] F([ctx context.Context, ]prefix string[, context map[string]string]) ([]string, error)"

// complete builds one //mcp:complete function; finish attaches it.
func (pb *primBuilder) complete(fd *ast.FuncDecl, c *ast.Comment) []Diagnostic {
	line, diags := parseDirectiveLine(pb.fset, c, completeKeys, completeKeyList)
	cp := &Completion{Pos: line.Pos, Func: fd.Name.Name}
	pk, hasPrompt := line.get("prompt")
	rk, hasRes := line.get("resource")
	ak, hasArg := line.get("arg")
	switch {
	case hasPrompt && hasRes:
		diags = append(diags, diagf(rk.Pos, "//mcp:complete: give prompt= or resource=, not both"))
	case hasPrompt:
		cp.Prompt, cp.target = pk.Value, pk.Pos
	case hasRes:
		cp.Template, cp.target = rk.Value, rk.Pos
	default:
		diags = append(diags, diagf(line.Pos, "//mcp:complete needs prompt=<prompt name> or resource=<URI template>, and arg=<name>"))
	}
	if hasArg {
		cp.Arg, cp.argPos = ak.Value, ak.Pos
	} else if hasPrompt || hasRes {
		diags = append(diags, diagf(line.Pos, "//mcp:complete needs arg=<argument or variable name>"))
	}

	f, ds := pb.function(fd, "completions", completeShape)
	if f == nil {
		return append(diags, ds...)
	}
	cp.Recv, cp.Context = f.Recv, f.Context
	ok := len(f.Params) >= 1 && len(f.Params) <= 2 && isBasicString(f.Params[0].Type())
	if ok && len(f.Params) == 2 {
		m, isMap := types.Unalias(f.Params[1].Type()).(*types.Map)
		ok = isMap && isBasicString(m.Key()) && isBasicString(m.Elem())
		cp.WithContext = true
	}
	res := f.Results
	if ok {
		s, isSlice := types.Unalias(res.At(0).Type()).(*types.Slice)
		ok = res.Len() == 2 && isError(res.At(1).Type()) && isSlice && isBasicString(s.Elem())
	}
	if !ok {
		return append(diags, diagf(f.Pos, "%s: %s", f.Name, completeShape))
	}
	if len(diags) == 0 {
		pb.completes = append(pb.completes, cp)
	}
	return diags
}

// attach gives a completion to the prompt argument or template variable
// it names.
func (pb *primBuilder) attach(c *Completion) []Diagnostic {
	var vars []*Var
	var names []string
	if c.Prompt != "" {
		pr := pb.prompts[c.Prompt]
		if pr == nil {
			return []Diagnostic{diagf(c.target, "//mcp:complete: no prompt named %q%s", c.Prompt, known(pb.promptNames()))}
		}
		vars = pr.Args
	} else {
		r := pb.uris[c.Template]
		if r == nil || !r.Template {
			return []Diagnostic{diagf(c.target, "//mcp:complete: no resource template %q%s", c.Template, known(pb.templateNames()))}
		}
		vars = r.Vars
	}
	for _, v := range vars {
		names = append(names, v.Name)
		if v.Name != c.Arg {
			continue
		}
		if v.Complete != nil {
			return []Diagnostic{diagf(c.Pos, "%s: %s is already completed by %s at %s", c.Func, c.Arg, v.Complete.Func, where(v.Complete.Pos, c.Pos))}
		}
		v.Complete = c
		return nil
	}
	what := "prompt " + c.Prompt + " has no argument"
	if c.Template != "" {
		what = "resource template " + c.Template + " has no variable"
	}
	return []Diagnostic{diagf(c.argPos, "//mcp:complete: %s %q%s", what, c.Arg, known(names))}
}

func (pb *primBuilder) promptNames() []string {
	var out []string
	for _, p := range pb.p.Prompts {
		out = append(out, p.Name)
	}
	return out
}

func (pb *primBuilder) templateNames() []string {
	var out []string
	for _, r := range pb.p.Resources {
		if r.Template {
			out = append(out, r.URI)
		}
	}
	return out
}

// known renders the names that exist, for a message about one that does
// not.
func known(names []string) string {
	if len(names) == 0 {
		return " (there are none)"
	}
	return " (known: " + strings.Join(names, ", ") + ")"
}

func isBasicString(t types.Type) bool {
	b, ok := types.Unalias(t).(*types.Basic)
	return ok && b.Kind() == types.String
}
