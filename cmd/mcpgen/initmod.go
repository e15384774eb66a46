package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	goruntime "runtime"
	"runtime/debug"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
)

// The module and tool that init makes a module depend on.
const (
	mcpgenModule = "github.com/mcpgen/mcpgen"
	mcpgenTool   = mcpgenModule + "/cmd/mcpgen"
	// goVersion is the go line of a go.mod init writes: the oldest release
	// the runtime builds with.
	goVersion = "1.26.0"
	// unpublished is the version the go command itself gives a module
	// that is required only through a replace directive.
	unpublished = "v0.0.0-00010101000000-000000000000"
)

// modulePlan is the module a new server goes into.
type modulePlan struct {
	root      string // directory of go.mod
	goModPath string
	path      string        // module path
	file      *modfile.File // the parsed go.mod; nil when created
	created   bool
}

// planModule finds the module enclosing dir, or plans a new one rooted at
// dir when there is none.
func planModule(dir, modulePath string) (*modulePlan, error) {
	for d := dir; ; d = filepath.Dir(d) {
		path := filepath.Join(d, "go.mod")
		data, err := os.ReadFile(path)
		if err == nil {
			f, err := modfile.Parse(path, data, nil)
			if err != nil {
				return nil, err
			}
			if f.Module == nil {
				return nil, fmt.Errorf("%s has no module line", path)
			}
			if modulePath != "" && modulePath != f.Module.Mod.Path {
				return nil, fmt.Errorf("-module %s: the directory is already inside module %s (%s); -module names the module of a new go.mod only", modulePath, f.Module.Mod.Path, path)
			}
			return &modulePlan{root: d, goModPath: path, path: f.Module.Mod.Path, file: f}, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	if modulePath == "" {
		modulePath = filepath.Base(dir)
	}
	if err := module.CheckImportPath(modulePath); err != nil {
		return nil, fmt.Errorf("%q cannot be a module path (%v); choose one with -module, e.g. -module example.com/%s", modulePath, err, filepath.Base(dir))
	}
	return &modulePlan{root: dir, goModPath: filepath.Join(dir, "go.mod"), path: modulePath, created: true}, nil
}

// source says where the running mcpgen comes from: a published version,
// or a checkout on this machine.
type source struct {
	version  string // a published version, or ""
	checkout string // the checkout's directory, when not published
}

// mcpgenSource finds out where the running mcpgen comes from. A binary
// built from a published version knows it from its build information;
// one built from a checkout (go install ./cmd/mcpgen, go run, or go tool
// through a replace directive) was compiled from files inside it.
func mcpgenSource() (source, error) {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Path == mcpgenModule && bi.Main.Replace == nil &&
		semver.IsValid(bi.Main.Version) && bi.Main.Version != unpublished {
		return source{version: bi.Main.Version}, nil
	}
	if _, file, _, ok := goruntime.Caller(0); ok && filepath.IsAbs(file) {
		root := filepath.Dir(filepath.Dir(filepath.Dir(file))) // …/cmd/mcpgen/initmod.go
		if data, err := os.ReadFile(filepath.Join(root, "go.mod")); err == nil && modfile.ModulePath(data) == mcpgenModule {
			return source{checkout: root}, nil
		}
	}
	return source{}, errors.New("cannot tell which mcpgen this is: it is not a published version, and the checkout it was built from is not found; run init with mcpgen from a published version, or from a clone (go run ./cmd/mcpgen init DIR)")
}

// editNotes say what edit changed.
type editNotes struct {
	changed bool   // go.mod changed
	tool    bool   // the tool directive was added
	version string // the mcpgen version now required, if added
	replace string // the checkout mcpgen is now replaced by, if added
}

// edit returns the go.mod that makes the module able to build a server
// and run mcpgen from go generate: it requires mcpgen (at the running
// version, or replaced by the running checkout) unless it already does,
// and has the tool directive.
func (m *modulePlan) edit(src source) ([]byte, editNotes, error) {
	var n editNotes
	f := m.file
	if f == nil {
		f = new(modfile.File)
		if err := f.AddModuleStmt(m.path); err != nil {
			return nil, n, err
		}
		if err := f.AddGoStmt(goVersion); err != nil {
			return nil, n, err
		}
		n.changed = true
	}
	if m.path != mcpgenModule && !requires(f, mcpgenModule) {
		version, replace := src.version, ""
		switch {
		case replaces(f, mcpgenModule):
			version = unpublished // the module's own replace stays
		case version == "":
			version, replace = unpublished, src.checkout
		}
		if err := f.AddRequire(mcpgenModule, version); err != nil {
			return nil, n, err
		}
		if replace != "" {
			if err := f.AddReplace(mcpgenModule, "", replace, ""); err != nil {
				return nil, n, err
			}
		}
		if version != unpublished {
			n.version = version
		}
		n.replace = replace
		n.changed = true
	}
	if !hasTool(f, mcpgenTool) {
		if err := f.AddTool(mcpgenTool); err != nil {
			return nil, n, err
		}
		n.tool, n.changed = true, true
	}
	f.Cleanup()
	out, err := f.Format()
	return out, n, err
}

func requires(f *modfile.File, path string) bool {
	for _, r := range f.Require {
		if r.Mod.Path == path {
			return true
		}
	}
	return false
}

func replaces(f *modfile.File, path string) bool {
	for _, r := range f.Replace {
		if r.Old.Path == path {
			return true
		}
	}
	return false
}

func hasTool(f *modfile.File, path string) bool {
	for _, t := range f.Tool {
		if t.Path == path {
			return true
		}
	}
	return false
}
