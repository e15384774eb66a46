package generator

import (
	"fmt"
	"go/types"
	"strings"
)

// toolShape is the form of a tool function, for messages.
const toolShape = "a tool must look like func [(r *T)] F([ctx context.Context][, in In]) ([Out, ]error)"

// paramsProblem explains why a tool's parameters, from the first after an
// optional leading context, do not fit, with the fix.
func paramsProblem(fn string, params *types.Tuple, first int) string {
	for j := first; j < params.Len(); j++ {
		if isContext(params.At(j).Type()) {
			return fmt.Sprintf("%s: the context.Context parameter must come first: func %s(%s)", fn, fn, reorderContext(params, j))
		}
	}
	names := make([]string, 0, params.Len()-first)
	for j := first; j < params.Len(); j++ {
		names = append(names, typeName(params.At(j).Type(), params.At(j).Pkg()))
	}
	return fmt.Sprintf("%s: a tool takes one argument struct, not %d parameters (%s); make them fields of one struct; %s", fn, len(names), strings.Join(names, ", "), toolShape)
}

// reorderContext writes a parameter list with the context at index j moved
// to the front.
func reorderContext(params *types.Tuple, j int) string {
	parts := []string{param(params.At(j))}
	for k := 0; k < params.Len(); k++ {
		if k != j {
			parts = append(parts, param(params.At(k)))
		}
	}
	return strings.Join(parts, ", ")
}

func param(v *types.Var) string {
	name := v.Name()
	if name == "" || name == "_" {
		return typeName(v.Type(), v.Pkg())
	}
	return name + " " + typeName(v.Type(), v.Pkg())
}

// typeName writes a type as the code of package pkg does: with package
// names rather than import paths, and none for pkg's own types.
func typeName(t types.Type, pkg *types.Package) string {
	return types.TypeString(t, func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		return p.Name()
	})
}

// resultsProblem explains why a tool's results do not fit, with the fix;
// "" when they do.
func resultsProblem(fn string, results *types.Tuple) string {
	typeName := func(t types.Type) string { return typeName(t, results.At(0).Pkg()) }
	n := results.Len()
	switch {
	case n == 0:
		return fmt.Sprintf("%s: a tool must return an error (error, or (Out, error)); %s", fn, toolShape)
	case n > 2:
		return fmt.Sprintf("%s: a tool returns at most two results, one value and an error, not %d; %s", fn, n, toolShape)
	case isError(results.At(n - 1).Type()):
		return ""
	case n == 2 && isError(results.At(0).Type()):
		return fmt.Sprintf("%s: error must be the last result: (%s, error)", fn, typeName(results.At(1).Type()))
	}
	return fmt.Sprintf("%s: the last result must be error, not %s: return (%s, error)", fn, typeName(results.At(n-1).Type()), typeName(results.At(0).Type()))
}

// argumentProblem explains that a tool's argument must be a struct, with
// the parameter rewritten as a field of one.
func argumentProblem(fn string, v *types.Var) string {
	name := v.Name()
	if name == "" || name == "_" {
		name = "value"
	}
	field := strings.ToUpper(name[:1]) + name[1:]
	return fmt.Sprintf("%s: the argument must be a struct or a pointer to one, not %s: make it a field, as in type %sArgs struct { %s %s `json:\"%s\"` }", fn, typeName(v.Type(), v.Pkg()), fn, field, typeName(v.Type(), v.Pkg()), name)
}
