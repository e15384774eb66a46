package generator

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"go/parser"
	"go/token"
	"go/version"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"

	"golang.org/x/tools/go/packages"
)

// Generation is memoised: the hash of everything a generated file depends
// on (its input key) is recorded in the user's cache directory with the
// hash of the file it produced. When the file on disk has that hash,
// [Generate] returns it as it is, without emitting, formatting or
// type-checking it again.
//
// The input key covers the generator itself, the package's source files
// (the generated one excepted), the source files of the packages it
// imports, directly or not (for the standard library: the export data the
// go command wrote for it, named by its content); the files doc comments
// are read from are among those. It is
// machine-specific, which is why it is kept out of the generated file.

// cacheDir returns the directory of the memo records; "" disables them.
// Tests replace it.
var cacheDir = func() string {
	if os.Getenv("MCPGEN_CACHE") == "off" {
		return ""
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "mcpgen", "generate")
}

// onEmit is called before a package's file is emitted; tests count.
var onEmit = func(*Package) {}

// generatorVersion identifies the generator's code: the build ID of the
// running executable, which the go command derives from every input of
// the build. Tests replace it.
var generatorVersion = sync.OnceValue(executableID)

// executableID returns the Go build ID of the running executable, or else
// a hash of its content; "" when neither can be read, which disables reuse
// of generated files.
func executableID() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if ef, err := elf.Open(exe); err == nil {
		defer ef.Close()
		// An ELF note: name size, description size, type 4, "Go\0\0",
		// then the build ID.
		if s := ef.Section(".note.go.buildid"); s != nil {
			if data, err := s.Data(); err == nil && len(data) > 16 && string(data[12:16]) == "Go\x00\x00" {
				return "buildid:" + string(bytes.TrimRight(data[16:], "\x00"))
			}
		}
	}
	f, err := os.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	// Elsewhere the linker writes `\xff Go build ID: "…"\n \xff` near the
	// start of the text segment.
	head := make([]byte, 64<<10)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	const marker = "\xff Go build ID: \""
	if i := bytes.Index(head, []byte(marker)); i >= 0 {
		rest := head[i+len(marker):]
		if j := bytes.IndexByte(rest, '"'); j > 0 {
			return "buildid:" + string(rest[:j])
		}
	}
	h := sha256.New()
	h.Write(head)
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// keyMode is what [inputKey] needs of a package and of the packages it
// imports: their files, import graph, modules and export data. It is what
// the go command lists (go list -deps -export -compiled) before any
// parsing or type-checking, which is why [Generate] can find an
// up-to-date file with a load in this mode alone.
const keyMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
	packages.NeedModule | packages.NeedExportFile

// keyEnv are the environment variables of the go command that change what
// a package is built from beyond the file lists the key covers.
var keyEnv = []string{"GOOS", "GOARCH", "GOFLAGS", "CGO_ENABLED", "GOEXPERIMENT", "GOTOOLCHAIN"}

// inputKey hashes what the generated file of pkg depends on; "" when some
// of it cannot be identified (a dependency without export data), so that
// the file is always generated anew. It reads only what a load in
// [keyMode] fills in, and so gives the same key after that load as after
// the full one.
func inputKey(pkg *packages.Package, output string, buildFlags []string) string {
	gen := generatorVersion()
	if gen == "" {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "version %s\noutput %s\npackage %s %s\n", gen, output, pkg.PkgPath, pkg.Name)
	for _, f := range buildFlags {
		fmt.Fprintf(h, "flag %q\n", f)
	}
	for _, k := range keyEnv {
		fmt.Fprintf(h, "env %s=%q\n", k, os.Getenv(k))
	}
	// Of go.mod, the language version the package is checked with; the
	// versions of the modules required are in the paths of their files.
	if m := pkg.Module; m != nil {
		fmt.Fprintf(h, "module %s %s %s\n", m.Path, m.Version, version.Lang("go"+m.GoVersion))
	}
	// The package's own files, the generated one excepted: its imports
	// are its output, not its input.
	var imports []string
	fset := token.NewFileSet()
	for _, name := range pkg.CompiledGoFiles {
		if filepath.Base(name) == output {
			continue // the file being generated
		}
		data, err := os.ReadFile(name)
		if err != nil {
			return ""
		}
		fmt.Fprintf(h, "file %s %x\n", name, sha256.Sum256(data))
		f, err := parser.ParseFile(fset, name, data, parser.ImportsOnly)
		if err != nil {
			return ""
		}
		for _, imp := range f.Imports {
			if path, err := strconv.Unquote(imp.Path.Value); err == nil && !slices.Contains(imports, path) {
				imports = append(imports, path)
			}
		}
	}
	slices.Sort(imports)
	var deps []*packages.Package
	for _, path := range imports {
		if path == "unsafe" || path == "C" {
			continue
		}
		dep := pkg.Imports[path]
		if dep == nil {
			return ""
		}
		deps = append(deps, dep)
	}
	// The packages reached from them: those of the standard library by
	// their export data (named by the go command after its content, and
	// which changes only with the toolchain); the others by their source.
	ok := true
	seen := map[string]bool{}
	var visit func(p *packages.Package)
	visit = func(p *packages.Package) {
		if seen[p.PkgPath] || !ok {
			return
		}
		seen[p.PkgPath] = true
		if p.Module == nil {
			if p.PkgPath != "unsafe" && p.ExportFile == "" {
				ok = false
			}
			fmt.Fprintf(h, "std %s %s\n", p.PkgPath, p.ExportFile)
			return
		}
		fmt.Fprintf(h, "dep %s\n", p.PkgPath)
		for _, name := range p.CompiledGoFiles {
			ok = ok && hashFile(h, "file", name)
		}
		paths := make([]string, 0, len(p.Imports))
		for path := range p.Imports {
			paths = append(paths, path)
		}
		slices.Sort(paths)
		for _, path := range paths {
			visit(p.Imports[path])
		}
	}
	for _, dep := range deps {
		visit(dep)
	}
	if !ok {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}

// hashFile writes a file's name and content to h.
func hashFile(h io.Writer, kind, name string) bool {
	data, err := os.ReadFile(name)
	if err != nil {
		return false
	}
	sum := sha256.Sum256(data)
	fmt.Fprintf(h, "%s %s %x\n", kind, name, sum)
	return true
}

// memo is the record of one generation, kept as JSON in cacheDir under
// the input key.
type memo struct {
	// Sum is the SHA-256 of the generated file, hex; "" with Empty.
	Sum string `json:"sum,omitempty"`
	// Empty says the package had no annotations: there is no file.
	Empty bool `json:"empty,omitempty"`
	// Linted says Warnings were computed; a run that reports warnings
	// cannot reuse a record without them.
	Linted bool `json:"linted,omitempty"`
	// Warnings are the package's warnings, with their positions.
	Warnings []Diagnostic `json:"warnings,omitempty"`
}

// remember records what generation produced from input: src, or no file
// when empty, and the package's warnings when linted. Failing to is no
// error: the next generation emits the file again.
func remember(input string, src []byte, empty, linted bool, warnings []Diagnostic) {
	dir := cacheDir()
	if input == "" || dir == "" {
		return
	}
	m := memo{Empty: empty, Linted: linted, Warnings: warnings}
	if !empty {
		sum := sha256.Sum256(src)
		m.Sum = hex.EncodeToString(sum[:])
	}
	if !linted {
		// The warnings are those of the input: a record that has them
		// for the same output stays, for the runs that report them.
		if old, ok := recall(input); ok && old.Linted && old.Sum == m.Sum && old.Empty == m.Empty {
			return
		}
	}
	data, err := json.Marshal(m)
	if err != nil {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	// Written aside and renamed into place, so that a concurrent run reads
	// the old record or the new one, never a part of one.
	tmp, err := os.CreateTemp(dir, "tmp-")
	if err != nil {
		return
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err != nil || cerr != nil {
		os.Remove(tmp.Name())
		return
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, input)); err != nil {
		os.Remove(tmp.Name())
	}
}

// recall returns the record of input; false when there is none or it
// cannot be read, which only costs generating the file again.
func recall(input string) (memo, bool) {
	var m memo
	dir := cacheDir()
	if input == "" || dir == "" {
		return m, false
	}
	data, err := os.ReadFile(filepath.Join(dir, input))
	if err != nil || json.Unmarshal(data, &m) != nil {
		return m, false
	}
	if m.Empty != (m.Sum == "") {
		return m, false
	}
	return m, true
}

// reusable returns the content of the file at path when input produced
// exactly that content before; nil otherwise.
func reusable(path, input string) []byte {
	m, ok := recall(input)
	if !ok || m.Empty {
		return nil
	}
	return upToDate(path, m)
}

// upToDate returns the content of the file at path when it is the one m
// records; nil otherwise.
func upToDate(path string, m memo) []byte {
	old, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	sum := sha256.Sum256(old)
	if m.Sum != hex.EncodeToString(sum[:]) {
		return nil
	}
	return old
}

// reuseAll is [Generate] for when every package matched has an up-to-date
// file (or, without annotations, none) on record: it loads the packages
// in [keyMode] only, computes their input keys, and returns the files on
// disk, reporting the recorded warnings. It returns false, having reported
// nothing, as soon as something does not match (no record, a record
// without the warnings cfg.Warn wants, a file changed on disk, a package
// with errors), and Generate then does the full load.
func reuseAll(cfg Config) ([]File, bool) {
	if cacheDir() == "" || generatorVersion() == "" {
		return nil, false
	}
	patterns := cfg.Patterns
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	roots, err := packages.Load(&packages.Config{Mode: keyMode, Dir: cfg.Dir, BuildFlags: cfg.BuildFlags}, patterns...)
	if err != nil || len(roots) == 0 {
		return nil, false
	}
	clean := true
	packages.Visit(roots, nil, func(p *packages.Package) {
		if len(p.Errors) > 0 {
			clean = false
		}
	})
	if !clean {
		return nil, false
	}
	var files []File
	var warnings Diagnostics
	for _, pkg := range roots {
		m, ok := recall(inputKey(pkg, cfg.Output, cfg.BuildFlags))
		if !ok || cfg.Warn != nil && !m.Linted {
			return nil, false
		}
		path := outputPath(pkg, cfg.Output)
		switch {
		case m.Empty && isGeneratedFile(path):
			files = append(files, File{Path: path}) // stale: to remove
		case !m.Empty:
			src := upToDate(path, m)
			if src == nil {
				return nil, false
			}
			files = append(files, File{Path: path, Content: src})
		}
		warnings = append(warnings, m.Warnings...)
	}
	if cfg.Warn != nil {
		for _, w := range warnings.sort() {
			cfg.Warn(w)
		}
	}
	return files, true
}
