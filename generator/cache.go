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
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"
)

// Generation is memoised: the hash of everything a generated file depends
// on (its input key) is recorded in the user's cache directory with the
// hash of the file it produced and the package's warnings. When the file
// on disk has that hash, [Generate] returns it as it is, without emitting,
// formatting or type-checking it again, and, when every package matched
// is in that case, without parsing or type-checking any of them: the key
// is computed from what the go command lists.
//
// The input key covers the generator itself, the build flags and the go
// command's environment, the module's language version, the package's
// source files (the generated one excepted) and the source files of the
// packages it imports, directly or not (of the standard library's, which
// change only with the toolchain, their names, sizes and modification
// times); the files doc comments are read from are among those; and the package's
// test files that mention runtime.AskForm, whose uses are warned about. It is
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

// onKey is called when a package's input key is computed; tests count.
var onKey = func() {}

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
// imports: their files, import graph and modules. It is what go list -deps
// prints without building anything (no -export, no -compiled: those check
// the build cache for every dependency, and cost more than the rest of the
// load), which is why [Generate] can find an up-to-date file with a load
// in this mode alone.
const keyMode = packages.NeedName | packages.NeedFiles | packages.NeedImports | packages.NeedModule

// keyEnv are the environment variables of the go command that change what
// a package is built from beyond the file lists the key covers.
var keyEnv = []string{"GOOS", "GOARCH", "GOFLAGS", "CGO_ENABLED", "GOEXPERIMENT", "GOTOOLCHAIN"}

// inputKey hashes what the generated file of pkg depends on; "" when some
// of it cannot be read, so that the file is always generated anew. It
// reads only what a load in [keyMode] fills in, and so gives the same key
// after that load as after the full one.
func inputKey(pkg *packages.Package, output string, buildFlags []string) string {
	onKey()
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
	var buf bytes.Buffer
	var imports []string
	for _, name := range pkg.GoFiles {
		if filepath.Base(name) == output {
			continue // the file being generated
		}
		if imports = hashSource(h, name, imports, &buf); imports == nil {
			return ""
		}
	}
	for _, name := range pkg.OtherFiles {
		if !hashFile(h, "other", name) {
			return ""
		}
	}
	// The test files that ask with forms, which testFileForms warns about.
	for _, tf := range askingTestFiles(pkg, buildFlags) {
		fmt.Fprintf(h, "test %s %x\n", tf.name, sha256.Sum256(tf.data))
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
	// The packages reached from them, by their source: Go files (a cgo
	// preamble among them) and, but in the standard library, the others
	// (C headers); the standard library's by what the file system says of
	// them.
	ok := true
	seen := map[string]bool{}
	var visit func(p *packages.Package)
	visit = func(p *packages.Package) {
		if seen[p.PkgPath] || !ok {
			return
		}
		seen[p.PkgPath] = true
		fmt.Fprintf(h, "dep %s\n", p.PkgPath)
		if len(p.GoFiles) == 0 {
			ok = false // not found, or not listed
			return
		}
		if isStd(p) {
			ok = hashStd(h, p)
			for _, path := range slices.Sorted(maps.Keys(p.Imports)) {
				// The go command adds runtime/cgo to a package that uses
				// cgo when it lists what is compiled, and only then.
				if path != "unsafe" && path != "C" && path != "runtime/cgo" {
					visit(p.Imports[path])
				}
			}
			return
		}
		var imports []string
		for _, name := range p.GoFiles {
			if imports = hashSource(h, name, imports, &buf); imports == nil {
				ok = false
				return
			}
		}
		if p.Module != nil {
			for _, name := range p.OtherFiles {
				ok = ok && hashFile(h, "other", name)
			}
		}
		// Those its files import: the go command's list, when it runs cgo,
		// adds the packages cgo's output imports.
		slices.Sort(imports)
		for _, path := range imports {
			if path == "unsafe" || path == "C" {
				continue
			}
			dep := p.Imports[path]
			if dep == nil {
				ok = false
				return
			}
			visit(dep)
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

// hashSource writes a Go file's name and content to h and returns
// imports with the paths the file imports added; nil when the file
// cannot be read or its imports parsed. buf is scratch space, reused
// from file to file: the standard library's sources a package reaches
// are megabytes.
func hashSource(h io.Writer, name string, imports []string, buf *bytes.Buffer) []string {
	f, err := os.Open(name)
	if err != nil {
		return nil
	}
	buf.Reset()
	_, err = buf.ReadFrom(f)
	f.Close()
	if err != nil {
		return nil
	}
	data := buf.Bytes()
	fmt.Fprintf(h, "file %s %x\n", name, sha256.Sum256(data))
	file, err := parser.ParseFile(token.NewFileSet(), name, data, parser.ImportsOnly)
	if err != nil {
		return nil
	}
	if imports == nil {
		imports = []string{}
	}
	for _, imp := range file.Imports {
		if path, err := strconv.Unquote(imp.Path.Value); err == nil && !slices.Contains(imports, path) {
			imports = append(imports, path)
		}
	}
	return imports
}

// isStd reports whether p is a package of the standard library: it is in
// no module, and the first element of its path has no dot.
func isStd(p *packages.Package) bool {
	first, _, _ := strings.Cut(p.PkgPath, "/")
	return p.Module == nil && !strings.Contains(first, ".")
}

// hashStd writes the names, sizes and modification times of a standard
// library package's Go files to h: they change with the toolchain, and
// reading them all (several megabytes from a package that imports the
// runtime) would cost more than the rest of the key.
func hashStd(h io.Writer, p *packages.Package) bool {
	for _, name := range p.GoFiles {
		fi, err := os.Stat(name)
		if err != nil {
			return false
		}
		fmt.Fprintf(h, "std %s %d %d\n", name, fi.Size(), fi.ModTime().UnixNano())
	}
	return true
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
// with errors), and Generate then does the full load; keys are the input
// keys computed until then, by package path, which the full load does not
// compute again.
func reuseAll(cfg Config) (files []File, keys map[string]string, ok bool) {
	if cacheDir() == "" || generatorVersion() == "" {
		return nil, nil, false
	}
	patterns := cfg.Patterns
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	roots, err := packages.Load(&packages.Config{Mode: keyMode, Dir: cfg.Dir, BuildFlags: cfg.BuildFlags}, patterns...)
	if err != nil || len(roots) == 0 {
		return nil, nil, false
	}
	clean := true
	packages.Visit(roots, nil, func(p *packages.Package) {
		if len(p.Errors) > 0 {
			clean = false
		}
	})
	if !clean {
		return nil, nil, false
	}
	keys = map[string]string{}
	var warnings Diagnostics
	for _, pkg := range roots {
		key := inputKey(pkg, cfg.Output, cfg.BuildFlags)
		keys[pkg.PkgPath] = key
		m, ok := recall(key)
		if !ok || cfg.Warn != nil && !m.Linted {
			return nil, keys, false
		}
		path := outputPath(pkg, cfg.Output)
		switch {
		case m.Empty && isGeneratedFile(path):
			files = append(files, File{Path: path}) // stale: to remove
		case !m.Empty:
			src := upToDate(path, m)
			if src == nil {
				return nil, keys, false
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
	return files, keys, true
}
