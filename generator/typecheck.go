package generator

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"
)

// checkInput is what type-checking a package's generated file needs: the
// package's other files, as loaded, and the loaded packages by path.
type checkInput struct {
	fset    *token.FileSet
	files   []*ast.File
	imports map[string]*types.Package
	cfg     Config
	// loaded is the package as the load checked it, nil when it cannot
	// stand in for checking the package's files again (see standIn);
	// ours are the previously generated files it was checked with.
	loaded *types.Package
	ours   []*token.File
}

func newCheckInput(fset *token.FileSet, pkg *packages.Package, imports map[string]*types.Package, cfg Config) *checkInput {
	in := &checkInput{fset: fset, imports: imports, cfg: cfg}
	methods := false
	for _, f := range pkg.Syntax {
		if !isOurs(fset, f, cfg.Output) {
			in.files = append(in.files, f)
			continue
		}
		in.ours = append(in.ours, fset.File(f.Package))
		methods = methods || declaresMethods(f)
	}
	// The package's declarations stand in for its files when the load
	// found no errors in them but uses of what generation declares: those
	// are in function bodies and initializers, which the check of the
	// generated files does not read.
	if !methods && !slices.ContainsFunc(pkg.TypeErrors, func(e types.Error) bool { return !awaitsGeneration(e.Msg) }) {
		in.loaded = pkg.Types
	}
	return in
}

// declaresMethods reports whether f declares a method.
func declaresMethods(f *ast.File) bool {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil {
			return true
		}
	}
	return false
}

// importGraph maps the path of every package reachable from pkgs to its
// types. All come from one load, so each type has one identity.
func importGraph(pkgs []*packages.Package) map[string]*types.Package {
	graph := map[string]*types.Package{}
	var visit func(p *types.Package)
	visit = func(p *types.Package) {
		if p == nil || graph[p.Path()] != nil {
			return
		}
		graph[p.Path()] = p
		for _, q := range p.Imports() {
			visit(q)
		}
	}
	for _, p := range pkgs {
		visit(p.Types)
	}
	return graph
}

// errNotLoaded is the importer's answer for a package the load did not
// reach: the check cannot be made.
var errNotLoaded = errors.New("not loaded")

// typeCheck type-checks each generated file together with the rest of its
// package. Generated code that does not compile is a bug of the generator,
// not of the user's code: it is reported as such, with its position in the
// file that would have been written, and nothing is written.
func typeCheck(cfg Config, pkgs []*Package, files []File) error {
	content := map[string][]byte{}
	for _, f := range files {
		if f.Content != nil {
			content[f.Path] = f.Content
		}
	}
	// A generated file may import packages the load did not reach (the
	// runtime, from a package that does not import it yet; regexp): then
	// the packages are loaded again with those, so that every type has
	// one identity.
	var targets []*Package
	var missing []string
	for _, p := range pkgs {
		src := content[p.Output]
		if src == nil || p.check == nil {
			continue
		}
		targets = append(targets, p)
		f, err := parser.ParseFile(token.NewFileSet(), p.Output, src, parser.ImportsOnly)
		if err != nil {
			continue // reported by the check
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if path != "unsafe" && !loadedWhole(p.check.imports[path]) && !slices.Contains(missing, path) {
				missing = append(missing, path)
			}
		}
	}
	inputs := map[*Package]*checkInput{}
	for _, p := range targets {
		inputs[p] = p.check
	}
	if len(missing) > 0 {
		reloaded, err := reload(cfg, targets, missing)
		if err != nil {
			return err
		}
		inputs = reloaded
	}
	var diags Diagnostics
	for _, p := range targets {
		if in := inputs[p]; in != nil {
			diags = append(diags, typeCheckFile(p, in, content[p.Output])...)
		}
	}
	if len(diags) > 0 {
		return diags.sort()
	}
	return nil
}

// reload loads the target packages again, with the packages missing from
// the first load.
func reload(cfg Config, targets []*Package, missing []string) (map[*Package]*checkInput, error) {
	fset := token.NewFileSet()
	lc := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedSyntax |
			packages.NeedTypes | packages.NeedTypesInfo | packages.NeedImports,
		Dir:        cfg.Dir,
		Fset:       fset,
		BuildFlags: cfg.BuildFlags,
	}
	var patterns []string
	for _, p := range targets {
		patterns = append(patterns, p.PkgPath)
	}
	loaded, err := packages.Load(lc, append(patterns, missing...)...)
	if err != nil {
		return nil, fmt.Errorf("loading the packages to check the generated code: %w", err)
	}
	graph := importGraph(loaded)
	out := map[*Package]*checkInput{}
	for _, p := range targets {
		for _, l := range loaded {
			if l.PkgPath == p.PkgPath {
				out[p] = newCheckInput(fset, l, graph, p.check.cfg)
			}
		}
	}
	return out, nil
}

// emitChecked emits the generated file of p and, when the load reached
// every package the file imports, type-checks it while it is printed,
// from the parts it was parsed in (see render.go and render_stream.go).
// checked reports that the check was made and found nothing wrong; else
// typeCheck checks the file as written, which places any error in it.
func emitChecked(p *Package) (src []byte, checked bool, err error) {
	in := p.check
	fset := token.NewFileSet()
	if in != nil {
		fset = in.fset // the check's files share one file set
	}
	pl := newPipeline(fset, p.Output, declsPerRun)
	f, same := emitStream(p, pl)
	files, err := pl.parsed()
	if err == nil && in != nil && same && importsLoaded(in, files) {
		diags, missing := checkFiles(p, in, files)
		checked = !missing && len(diags) == 0
	}
	pf, perr := pl.printed(f)
	if err == nil {
		err = perr
	}
	if err != nil {
		return nil, false, formatBug(p, err)
	}
	if !same {
		// An import was named differently once the file's own names were
		// known: the parts are rendered again with the right names.
		pf, err = f.parse(fset, p.Output)
		if err != nil {
			return nil, false, formatBug(p, err)
		}
		return printChecked(p, pf)
	}
	src, err = pf.assemble()
	if err != nil {
		return nil, false, formatBug(p, err)
	}
	return src, checked, nil
}

// declsPerRun is how many declarations the pipeline renders, parses and
// prints as one part: enough that a part's own costs (a file's imports
// rendered, parsed and put together) do not count, few enough that the
// workers start early and share the work evenly.
const declsPerRun = 8

// printChecked prints pf and, when the load reached every package the
// file imports, type-checks its parts meanwhile.
func printChecked(p *Package, pf *parsedFile) (src []byte, checked bool, err error) {
	in := p.check
	var wg sync.WaitGroup
	if in != nil && importsLoaded(in, pf.files()) {
		wg.Go(func() {
			diags, missing := checkFiles(p, in, pf.files())
			checked = !missing && len(diags) == 0
		})
	}
	src, err = pf.print()
	wg.Wait()
	if err != nil {
		return nil, false, formatBug(p, err)
	}
	return src, checked, nil
}

// importsLoaded reports whether the check can import every package that
// files import.
func importsLoaded(in *checkInput, files []*ast.File) bool {
	for _, f := range files {
		for _, imp := range f.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			if err != nil || path != "unsafe" && !loadedWhole(in.imports[path]) {
				return false
			}
		}
	}
	return true
}

// compileBug is the diagnostic of generated code that does not compile.
func compileBug(pos token.Position, msg string) Diagnostic {
	return Diagnostic{Pos: pos, Msg: "mcpgen bug: the generated code does not compile: " + msg + "; nothing was written (please report this)"}
}

func typeCheckFile(p *Package, in *checkInput, src []byte) Diagnostics {
	gen, err := parser.ParseFile(in.fset, p.Output, src, parser.SkipObjectResolution)
	if err != nil {
		var list scanner.ErrorList
		if errors.As(err, &list) {
			var diags Diagnostics
			for _, e := range list {
				diags = append(diags, compileBug(e.Pos, e.Msg))
			}
			return diags
		}
		return Diagnostics{compileBug(token.Position{Filename: p.Output}, err.Error())}
	}
	diags, _ := checkFiles(p, in, []*ast.File{gen})
	return diags
}

// checkFiles type-checks the generated files gen with the package's other
// files; missing reports that they import a package the load did not
// reach, and then nothing is judged.
func checkFiles(p *Package, in *checkInput, gen []*ast.File) (diags Diagnostics, missing bool) {
	var typeErrs []types.Error
	conf := types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			if t := in.imports[path]; loadedWhole(t) {
				return t, nil
			}
			missing = true
			return nil, errNotLoaded
		}),
		Error: func(err error) {
			if te, ok := err.(types.Error); ok {
				typeErrs = append(typeErrs, te)
			}
		},
	}
	if pkg := in.standIn(gen); pkg != nil {
		_ = types.NewChecker(&conf, in.fset, pkg, nil).Files(gen)
	} else {
		conf.Check(p.PkgPath, in.fset, append(in.files[:len(in.files):len(in.files)], gen...), nil)
	}
	if missing {
		return nil, true // a package the load did not reach: nothing to judge by
	}
	seen := map[string]bool{}
	for _, te := range typeErrs {
		pos := in.fset.Position(te.Pos)
		// Errors about RegisterMCP are the user's to fix (a call that
		// passes other receivers, another file that declares it): the
		// load leaves them out too.
		if strings.Contains(te.Msg, "RegisterMCP") || pendingForm(p, pos, te.Msg) {
			continue
		}
		d := compileBug(pos, te.Msg)
		if key := d.String(); !seen[key] {
			seen[key] = true
			diags = append(diags, d)
		}
	}
	return diags, false
}

// standIn returns the package to check the generated files gen in when
// the package's own declarations, as the load checked them, can stand in
// for its files, so that only gen is checked: a package whose scope holds
// those declarations and none of the previously generated file's. It
// returns nil when the package's files must be checked again with gen:
// the load found errors in them, or gen or the previously generated file
// declares methods (a method of a type the load completed would not be in
// its method set).
func (in *checkInput) standIn(gen []*ast.File) *types.Package {
	if in.loaded == nil || len(gen) == 0 || slices.ContainsFunc(gen, declaresMethods) {
		return nil
	}
	pkg := types.NewPackage(in.loaded.Path(), in.loaded.Name())
	scope := in.loaded.Scope()
	for _, name := range scope.Names() {
		if obj := scope.Lookup(name); !slices.Contains(in.ours, in.fset.File(obj.Pos())) {
			pkg.Scope().Insert(obj)
		}
	}
	return pkg
}

// loadedWhole reports whether t can be imported by the check: a package
// the load only reached through another's export data is a stub holding
// just what that package refers to (regexp through the runtime), not all
// of its declarations.
func loadedWhole(t *types.Package) bool { return t != nil && t.Complete() }

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
