package generator

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// unknownKeyMessage says that a directive has no key named key, suggesting
// the known key it looks like a typo or a spelling of, or else listing
// them all (order: the known keys, comma-separated). The MCP spelling of a
// tool annotation (readOnlyHint) and snake or kebab case (read_only) are
// recognized.
func unknownKeyMessage(key, order string) string {
	known := strings.Split(order, ", ")
	norm := strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(key))
	norm = strings.TrimSuffix(norm, "hint")
	for _, k := range known {
		if norm == k && key != k {
			return fmt.Sprintf("unknown key %q (did you mean %s?)", key, k)
		}
	}
	if s := didYouMean(key, known); s != "" {
		return fmt.Sprintf("unknown key %q%s", key, s)
	}
	return fmt.Sprintf("unknown key %q (known: %s)", key, order)
}

// resultHint is what to do instead of returning t, a type a tool cannot
// return, when there is a common fix: a number or boolean goes into a
// struct (structured content is a JSON object) or into text.
func resultHint(t types.Type, pkg *types.Package) string {
	b, ok := t.Underlying().(*types.Basic)
	if !ok || b.Info()&(types.IsNumeric|types.IsBoolean) == 0 {
		return ""
	}
	return fmt.Sprintf(": return a struct with a field of type %s (structured content is a JSON object), or the value as a string", typeName(t, pkg))
}

// detachedDirective says why the directive c is attached to no function,
// with the fix when the declaration that follows it is a function whose doc
// comment it was meant to be in: a blank line or another comment group
// separates them.
func detachedDirective(fset *token.FileSet, file *ast.File, c *ast.Comment) string {
	msg := fmt.Sprintf("//mcp:%s must be in the doc comment of a top-level function or method", directiveKind(c.Text))
	for _, decl := range file.Decls {
		if decl.End() < c.Slash {
			continue
		}
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || decl.Pos() < c.Slash {
			return msg // inside a declaration, or before one that is no function
		}
		if fd.Doc != nil && fd.Doc.Pos() <= c.Slash {
			return msg
		}
		return fmt.Sprintf("%s; a blank line separates it from func %s below: remove the blank line, so that it is part of %s's doc comment", msg, fd.Name.Name, fd.Name.Name)
	}
	return msg
}
