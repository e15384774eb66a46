package generator

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"fmt"
	"go/token"
	"io"
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

// inputKey hashes what the generated file of pkg depends on; "" when some
// of it cannot be identified (a dependency without export data), so that
// the file is always generated anew.
func inputKey(fset *token.FileSet, pkg *packages.Package, output string) string {
	version := generatorVersion()
	if version == "" {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "version %s\noutput %s\npackage %s %s\n", version, output, pkg.PkgPath, pkg.Name)
	for _, name := range pkg.CompiledGoFiles {
		if filepath.Base(name) == output {
			continue // the file being generated
		}
		if !hashFile(h, "file", name) {
			return ""
		}
	}
	// The imports of the package's own files: the generated file's are
	// its output, not its input.
	var imports []string
	for _, f := range pkg.Syntax {
		if isOurs(fset, f, output) {
			continue
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

// remember records that input produced src. Failing to is no error: the
// next generation emits the file again.
func remember(input string, src []byte) {
	dir := cacheDir()
	if input == "" || dir == "" {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	sum := sha256.Sum256(src)
	tmp, err := os.CreateTemp(dir, "tmp-")
	if err != nil {
		return
	}
	_, err = fmt.Fprintf(tmp, "%x\n", sum)
	if cerr := tmp.Close(); err != nil || cerr != nil {
		os.Remove(tmp.Name())
		return
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, input)); err != nil {
		os.Remove(tmp.Name())
	}
}

// reusable returns the content of the file at path when input produced
// exactly that content before; nil otherwise.
func reusable(path, input string) []byte {
	dir := cacheDir()
	if input == "" || dir == "" {
		return nil
	}
	want, err := os.ReadFile(filepath.Join(dir, input))
	if err != nil {
		return nil
	}
	old, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	sum := sha256.Sum256(old)
	if strings.TrimSpace(string(want)) != hex.EncodeToString(sum[:]) {
		return nil
	}
	return old
}
