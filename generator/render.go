package generator

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/dave/jennifer/jen"
)

// The generated file is rendered in parts. Emitters write its top-level
// declarations into a genFile; rendering splits them into runs, and each run
// is written by jennifer as a file of its own (the package clause and the
// imports that run uses, then the declarations, unformatted), parsed, and
// printed the way gofmt prints it. The runs are rendered, parsed and printed
// in parallel, and the file is put together from the printed declarations
// and one import block for all. Every top-level declaration has a doc
// comment, so gofmt separates each from the one before by one blank line,
// whatever run it is in: the result is, byte for byte, what formatting the
// whole file at once gives (TestRenderParts checks it). The parsed runs are
// also what the type check of the generated code reads (typecheck.go), so
// the file is parsed once.

// genFile collects the generated file for jennifer: the methods emitters
// call on a jen.File, each recording a top-level item.
type genFile struct {
	path, name string
	headers    []string
	hints      []importHint
	items      []jen.Code
	starts     []int // the index in items where each declaration, doc comment included, starts
	inDoc      bool  // the last item is a comment, the doc of what follows
	// parts is how many runs the declarations are split into; 0 means a
	// few per processor.
	parts int
	pipe  *pipeline // if set, takes the declarations as they are finished (render_stream.go)
}

// importHint is the name of an import, as jen.File.ImportName (alias
// false) or ImportAlias (alias true) set it.
type importHint struct {
	path, name string
	alias      bool
}

func newGenFile(path, name string) *genFile { return &genFile{path: path, name: name} }

// HeaderComment adds a comment above the package clause, followed by a
// blank line.
func (f *genFile) HeaderComment(c string) { f.headers = append(f.headers, c) }

// ImportName says that the package at path is imported under its name.
func (f *genFile) ImportName(path, name string) {
	f.hints = append(f.hints, importHint{path, name, false})
}

// ImportAlias says that the package at path is imported as alias.
func (f *genFile) ImportAlias(path, alias string) {
	f.hints = append(f.hints, importHint{path, alias, true})
}

// Comment adds a top-level comment: the doc of the declaration that follows.
func (f *genFile) Comment(c string) *jen.Statement { return f.add(jen.Comment(c), true) }

// Commentf adds a top-level comment from a format.
func (f *genFile) Commentf(format string, a ...any) *jen.Statement {
	return f.add(jen.Commentf(format, a...), true)
}

// Func adds a top-level function declaration.
func (f *genFile) Func() *jen.Statement { return f.add(jen.Func(), false) }

// Var adds a top-level var declaration.
func (f *genFile) Var() *jen.Statement { return f.add(jen.Var(), false) }

// Const adds a top-level const declaration.
func (f *genFile) Const() *jen.Statement { return f.add(jen.Const(), false) }

func (f *genFile) add(s *jen.Statement, comment bool) *jen.Statement {
	if !f.inDoc {
		if f.pipe != nil {
			f.pipe.finished(f, len(f.starts))
		}
		f.starts = append(f.starts, len(f.items))
	}
	f.items = append(f.items, s)
	f.inDoc = comment
	return s
}

// jenFile returns a jen.File holding items, with the file's import names.
func (f *genFile) jenFile(items []jen.Code) *jen.File {
	jf := jen.NewFilePathName(f.path, f.name)
	for _, h := range f.hints {
		if h.alias {
			jf.ImportAlias(h.path, h.name)
		} else {
			jf.ImportName(h.path, h.name)
		}
	}
	for _, it := range items {
		jf.Add(it)
	}
	return jf
}

// renderWhole renders the file as one jen.File, formatted by jennifer.
func (f *genFile) renderWhole() ([]byte, error) {
	jf := f.jenFile(f.items)
	for _, h := range f.headers {
		jf.HeaderComment(h)
	}
	var buf bytes.Buffer
	if err := jf.Render(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// filePart is one run of declarations, rendered as a file of its own and
// parsed.
type filePart struct {
	items []jen.Code // the declarations, before they are rendered
	src   []byte
	file  *ast.File
	out   []byte // the declarations, formatted
}

// parsedFile is the generated file rendered and parsed in parts, before
// printing.
type parsedFile struct {
	f     *genFile
	fset  *token.FileSet
	parts []*filePart
}

// files returns the parsed parts, the files that type-checking the
// generated code reads in its place.
func (pf *parsedFile) files() []*ast.File {
	out := make([]*ast.File, len(pf.parts))
	for i, p := range pf.parts {
		out[i] = p.file
	}
	return out
}

// parse renders the declarations in runs and parses each into fset; the
// file named filename in positions.
func (f *genFile) parse(fset *token.FileSet, filename string) (*parsedFile, error) {
	n := f.parts
	if n <= 0 {
		n = 4 * runtime.GOMAXPROCS(0)
	}
	n = min(n, len(f.starts))
	pf := &parsedFile{f: f, fset: fset, parts: make([]*filePart, n)}
	errs := make([]error, n)
	parallel(n, func(i int) {
		lo, hi := f.starts[i*len(f.starts)/n], len(f.items)
		if i+1 < n {
			hi = f.starts[(i+1)*len(f.starts)/n]
		}
		pf.parts[i], errs[i] = f.parsePart(fset, filename, f.items[lo:hi])
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return pf, nil
}

// parsePart renders items, whole declarations, as a file of their own and
// parses it into fset.
func (f *genFile) parsePart(fset *token.FileSet, filename string, items []jen.Code) (*filePart, error) {
	jf := f.jenFile(items)
	jf.NoFormat = true
	var buf bytes.Buffer
	if err := jf.Render(&buf); err != nil {
		return nil, err
	}
	file, err := parser.ParseFile(fset, filename, buf.Bytes(), parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("%w\n%s", err, buf.Bytes())
	}
	return &filePart{src: buf.Bytes(), file: file}, nil
}

// print formats the parts in parallel and puts the file together: the
// header comments, the package clause, the imports of every part, and
// the declarations of each part in order.
func (pf *parsedFile) print() ([]byte, error) {
	head, ok := pf.head()
	if !ok {
		// Two parts name an import differently (jennifer numbers a name
		// taken by another import): only rendering the file whole gives
		// the names it would choose.
		return pf.f.renderWhole()
	}
	errs := make([]error, len(pf.parts))
	parallel(len(pf.parts), func(i int) { errs[i] = pf.printPart(pf.parts[i]) })
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return pf.join(head), nil
}

// assemble puts the file together from parts already printed.
func (pf *parsedFile) assemble() ([]byte, error) {
	head, ok := pf.head()
	if !ok {
		return pf.f.renderWhole() // as print does
	}
	return pf.join(head), nil
}

// printPart formats the declarations of p, without its imports, as gofmt
// formats them.
func (pf *parsedFile) printPart(p *filePart) error {
	clause := "package " + pf.f.name + "\n\n"
	decls := *p.file
	decls.Decls = nil
	for _, d := range p.file.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			continue
		}
		decls.Decls = append(decls.Decls, d)
	}
	// The part's file alone in a file set of its own: the printer looks
	// up the line of every position, and in the shared set parts printed
	// at once would each evict the others' file from its cache.
	fset := token.NewFileSet()
	fset.AddExistingFiles(pf.fset.File(p.file.Package))
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, &decls); err != nil {
		return fmt.Errorf("%w\n%s", err, p.src)
	}
	out, ok := bytes.CutPrefix(buf.Bytes(), []byte(clause))
	if !ok {
		return fmt.Errorf("formatted part does not start with %q:\n%s", clause, buf.Bytes())
	}
	p.out = out
	return nil
}

// join puts the file together from head and the printed parts.
func (pf *parsedFile) join(head []byte) []byte {
	size := len(head)
	for _, p := range pf.parts {
		size += 1 + len(p.out)
	}
	out := make([]byte, 0, size)
	out = append(out, head...)
	for _, p := range pf.parts {
		out = append(out, '\n')
		out = append(out, p.out...)
	}
	return out
}

// head renders and formats the header comments, the package clause and
// the imports of all parts, as jennifer writes them; false when two parts
// disagree on an import's name.
func (pf *parsedFile) head() ([]byte, bool) {
	names := map[string]string{} // path → "name " for an alias, "" for none
	byName := map[string]string{}
	var paths []string
	for _, p := range pf.parts {
		for _, spec := range p.file.Imports {
			path, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				return nil, false
			}
			alias, name := "", pf.f.hintedName(path)
			if spec.Name != nil {
				alias, name = spec.Name.Name+" ", spec.Name.Name
			}
			if prev, ok := names[path]; ok {
				if prev != alias {
					return nil, false
				}
				continue
			}
			if other, ok := byName[name]; ok && other != path {
				return nil, false
			}
			names[path] = alias
			byName[name] = path
			paths = append(paths, path)
		}
	}
	slices.Sort(paths) // as jennifer orders them
	var src strings.Builder
	for _, h := range pf.f.headers {
		if !strings.HasPrefix(h, "//") && !strings.HasPrefix(h, "/*") {
			return nil, false // only comments written out in full are rendered here
		}
		src.WriteString(h + "\n")
	}
	if len(pf.f.headers) > 0 {
		src.WriteString("\n")
	}
	src.WriteString("package " + pf.f.name + "\n\n")
	switch len(paths) {
	case 0:
	case 1:
		src.WriteString("import " + names[paths[0]] + strconv.Quote(paths[0]) + "\n\n")
	default:
		src.WriteString("import (\n")
		for _, path := range paths {
			src.WriteString(names[path] + strconv.Quote(path) + "\n")
		}
		src.WriteString(")\n\n")
	}
	out, err := format.Source([]byte(src.String()))
	if err != nil {
		return nil, false
	}
	return out, true
}

// hintedName is the name the package at path is imported by when the
// import has no alias: the name given for it, or else (a standard library
// package jennifer knows the name of) a stand-in that differs from every
// other package's.
func (f *genFile) hintedName(path string) string {
	for _, h := range f.hints {
		if h.path == path {
			return h.name
		}
	}
	return "\x00" + path
}

// parallel calls fn(0) … fn(n-1), in that order of starting, on up to
// GOMAXPROCS goroutines, and returns when all have returned.
func parallel(n int, fn func(i int)) {
	workers := min(n, runtime.GOMAXPROCS(0))
	if workers <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(i)
			}
		})
	}
	wg.Wait()
}
