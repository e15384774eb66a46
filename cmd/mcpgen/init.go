package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mcpgen/mcpgen/generator"
	"github.com/mcpgen/mcpgen/internal/manifest"
	"github.com/mcpgen/mcpgen/templates"
)

const initUsage = "usage: mcpgen init [-name name] [-module path] [dir]"

// runInit is mcpgen init: it writes the starter server, makes its module
// ready to build (go.mod, the tool directive, go mod tidy) and generates
// its code. Either all of that happens or nothing does.
func runInit(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcpgen init", flag.ContinueOnError)
	fs.SetOutput(stderr)
	name := fs.String("name", "", "the server's name, as it introduces itself to clients (default: the directory's name)")
	module := fs.String("module", "", "the module path of the go.mod to write when dir is in no module (default: the directory's name)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "%s\n\n", initUsage)
		fmt.Fprintf(stderr, "Writes a starter MCP server into dir, default \".\", which must be empty or hold no\nmore than go.mod, go.sum and dot files: main.go, tools.go with one tool, tools_test.go,\nREADME.md and .gitignore. Writes go.mod when dir is in no module, adds the mcpgen tool\ndirective (and a requirement of mcpgen when there is none), runs go mod tidy and\ngenerates mcp_gen.go and mcp.json. If a step fails, nothing is left written.\n\n")
		fs.PrintDefaults()
	}
	if status, ok := parseFlags(fs, args); !ok {
		return status
	}
	if fs.NArg() > 1 {
		fs.Usage()
		return 2
	}
	dir := "."
	if fs.NArg() == 1 {
		dir = fs.Arg(0)
	}
	fail := func(err error) int {
		fmt.Fprintln(stderr, "mcpgen init:", err)
		return 1
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return fail(err)
	}
	if err := checkEmpty(abs, dir); err != nil {
		return fail(err)
	}
	if *name == "" {
		*name = filepath.Base(abs)
	}
	mod, err := planModule(abs, *module)
	if err != nil {
		return fail(err)
	}
	if mod.path == mcpgenModule {
		return fail(fmt.Errorf("%s is inside mcpgen's own module (%s); start the server in a directory of its own, such as ../%s", dir, mod.root, filepath.Base(abs)))
	}
	src, err := mcpgenSource()
	if err != nil {
		return fail(err)
	}
	goMod, notes, err := mod.edit(src)
	if err != nil {
		return fail(err)
	}
	rel, err := filepath.Rel(mod.root, abs)
	if err != nil {
		return fail(err)
	}
	if rel = filepath.ToSlash(rel); rel == "." {
		rel = ""
	}
	files, contents, err := templates.ServerFiles(templates.Server{Name: *name, Replace: notes.replace, Dir: rel})
	if err != nil {
		return fail(err)
	}

	// From here on every change is undone if a later step fails.
	var undo undoList
	defer func() { undo.run() }()
	if err := undo.mkdirAll(abs); err != nil {
		return fail(err)
	}
	if notes.changed {
		if err := undo.writeFile(mod.goModPath, goMod); err != nil {
			return fail(err)
		}
	} else if err := undo.keep(mod.goModPath); err != nil { // go mod tidy may change it
		return fail(err)
	}
	if err := undo.keep(filepath.Join(mod.root, "go.sum")); err != nil {
		return fail(err)
	}
	for _, f := range files {
		if err := undo.writeFile(filepath.Join(abs, f), contents[f]); err != nil {
			return fail(err)
		}
	}
	tidy := exec.Command("go", "mod", "tidy")
	tidy.Dir = mod.root
	if out, err := tidy.CombinedOutput(); err != nil {
		return fail(fmt.Errorf("go mod tidy failed, so nothing was written:\n%s", bytes.TrimSpace(out)))
	}
	gen, err := generateStarter(abs)
	if err != nil {
		fmt.Fprintln(stderr, "mcpgen init: the starter server does not generate, so nothing was written:")
		return report(stderr, abs, err)
	}
	for _, f := range gen {
		if err := undo.writeFile(f.Path, f.Content); err != nil {
			return fail(err)
		}
	}
	undo.commit()

	show := func(path string) string {
		if rel, err := filepath.Rel(".", path); err == nil && !filepath.IsAbs(dir) {
			return rel
		}
		return path
	}
	if mod.created {
		fmt.Fprintf(stdout, "wrote %s (module %s)\n", show(filepath.Join(dir, "go.mod")), mod.path)
	} else if notes.changed {
		fmt.Fprintf(stdout, "updated %s\n", show(relTo(abs, dir, mod.goModPath)))
	}
	if notes.replace != "" {
		fmt.Fprintf(stdout, "  require github.com/mcpgen/mcpgen, replaced by the checkout this mcpgen runs from, %s\n", notes.replace)
		fmt.Fprintf(stdout, "  (that path exists on this machine only; %s says how to switch to a published version)\n", show(filepath.Join(dir, "README.md")))
	} else if notes.version != "" {
		fmt.Fprintf(stdout, "  require github.com/mcpgen/mcpgen %s\n", notes.version)
	}
	if notes.tool {
		fmt.Fprintf(stdout, "  tool github.com/mcpgen/mcpgen/cmd/mcpgen\n")
	}
	for _, f := range files {
		fmt.Fprintln(stdout, "wrote", show(filepath.Join(dir, f)))
	}
	for _, f := range gen {
		fmt.Fprintln(stdout, "wrote", show(filepath.Join(dir, filepath.Base(f.Path))))
	}
	fmt.Fprintln(stdout, "ran go mod tidy")
	cd := ""
	if filepath.Clean(dir) != "." {
		cd = "cd " + dir + " && "
	}
	fmt.Fprintf(stdout, "\nNext: %sgo test ./... && go run . (it talks MCP on stdin and stdout);\nadd tools to tools.go, then go generate ./...\n", cd)
	return 0
}

// generateStarter returns the generated files of the starter server in
// dir: mcp_gen.go, and mcp.json, its manifest, which its test holds the
// running server to.
func generateStarter(dir string) ([]generator.File, error) {
	pkgs, err := generator.Load(generator.Config{Dir: dir})
	if err != nil {
		return nil, err
	}
	var files []generator.File
	for _, p := range pkgs {
		src, err := generator.Emit(p)
		if err != nil {
			return nil, err
		}
		files = append(files, generator.File{Path: p.Output, Content: src})
	}
	m, err := manifest.FromPackages(pkgs)
	if err != nil {
		return nil, err
	}
	data, err := m.Encode()
	if err != nil {
		return nil, err
	}
	return append(files, generator.File{Path: filepath.Join(dir, "mcp.json"), Content: data}), nil
}

// checkEmpty refuses a target directory that holds anything but go.mod,
// go.sum and dot files; one that does not exist yet is fine.
func checkEmpty(abs, dir string) error {
	entries, err := os.ReadDir(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var in []string
	for _, e := range entries {
		n := e.Name()
		if n == "go.mod" || n == "go.sum" || strings.HasPrefix(n, ".") {
			continue
		}
		in = append(in, n)
	}
	if len(in) == 0 {
		return nil
	}
	sort.Strings(in)
	if len(in) > 5 {
		in = append(in[:5], "…")
	}
	return fmt.Errorf("%s is not empty (it holds %s); run init in a new or empty directory", dir, strings.Join(in, ", "))
}

// relTo spells path, a file in or above abs, relative to the working
// directory the way dir is.
func relTo(abs, dir, path string) string {
	rel, err := filepath.Rel(abs, path)
	if err != nil {
		return path
	}
	return filepath.Join(dir, rel)
}

// undoList records the changes init makes so that a failure can revert
// them all.
type undoList struct {
	steps []func()
	done  bool
}

// keep records path's current content (or absence) for restoring.
func (u *undoList) keep(path string) error {
	old, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		u.steps = append(u.steps, func() { os.Remove(path) })
	case err != nil:
		return err
	default:
		u.steps = append(u.steps, func() { os.WriteFile(path, old, 0o644) })
	}
	return nil
}

// writeFile writes path, recording how to restore what was there.
func (u *undoList) writeFile(path string, data []byte) error {
	if err := u.keep(path); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// mkdirAll creates dir and its missing parents, recording which it made.
func (u *undoList) mkdirAll(dir string) error {
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil || filepath.Dir(d) == d {
			break
		}
		missing = append(missing, d)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	// Undone newest first: the deepest directory must go first.
	for i := len(missing) - 1; i >= 0; i-- {
		d := missing[i]
		u.steps = append(u.steps, func() { os.Remove(d) })
	}
	return nil
}

// run reverts every recorded change, newest first, unless commit was
// called.
func (u *undoList) run() {
	if u.done {
		return
	}
	for i := len(u.steps) - 1; i >= 0; i-- {
		u.steps[i]()
	}
}

// commit keeps the changes.
func (u *undoList) commit() { u.done = true }
