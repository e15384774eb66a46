package generator

import (
	"go/token"
	"go/types"
	"path"
)

// Generated code lives in the user's package, so every name it declares or
// refers to is chosen against the package's scope: helpers (mcpDecode…),
// RegisterMCP's and the handlers' locals, receiver parameters and import
// names. A package-level json, runtime, mcpimpl or context, a function named like a
// helper or a receiver parameter named like an imported package then does
// not collide with the generated file.

// chooseLocals picks the names of RegisterMCP's parameters, of the
// handlers' locals and of the decoders' and encoders' parameters and
// locals: the usual names unless the package declares them, and receiver
// parameters that differ from those and from each other. (The decoders'
// checks and numbered locals, x0 and the like, keep their names; the type
// check catches a package that declares those.)
func (e *emitter) chooseLocals() {
	e.locals = map[string]string{}
	taken := map[string]bool{}
	free := func(n string) bool { return e.pkg.Scope[n] || taken[n] || token.IsKeyword(n) }
	for _, n := range []string{"s", "ctx", "req", "d", "in", "out", "err", "enc", "v", "key", "ok", "seen", "x", "b"} {
		e.locals[n] = freeName(n, free)
		taken[e.locals[n]] = true
	}
	e.recvs = map[*Receiver]string{}
	for _, r := range e.pkg.Receivers {
		name := freeName(r.Param, free)
		e.recvs[r] = name
		taken[name] = true
	}
}

// fixedImports are the packages generated code may import besides those of
// the user's types, with their package names.
var fixedImports = []struct{ path, name string }{
	{RuntimePath, "runtime"}, {ImplPath, "mcpimpl"}, {"context", "context"}, {"encoding/json", "json"}, {"regexp", "regexp"}, {"time", "time"},
}

// importNames tells the file the name of every package it may import: the
// package's own name when that is free, else an alias. A name is free when
// the package scope does not declare it, no local or receiver parameter of
// generated code uses it, it does not shadow a predeclared identifier, and
// no other import has it.
func (e *emitter) importNames() {
	assigned := map[string]bool{}
	localUse := map[string]bool{}
	for _, n := range e.locals {
		localUse[n] = true
	}
	for _, n := range e.recvs {
		localUse[n] = true
	}
	taken := func(n string) bool {
		return e.pkg.Scope[n] || e.used[n] || localNames[n] || localUse[n] || isNumberedLocal(n) ||
			assigned[n] || token.IsKeyword(n) || types.Universe.Lookup(n) != nil
	}
	done := map[string]bool{e.pkg.PkgPath: true}
	add := func(p, name string) {
		if done[p] {
			return
		}
		done[p] = true
		if name == "" || name == "_" || name == "." {
			name = path.Base(p)
		}
		alias := importAlias(name, taken)
		assigned[alias] = true
		if alias == name {
			e.f.ImportName(p, name)
		} else {
			e.f.ImportAlias(p, alias)
		}
	}
	for _, fi := range fixedImports {
		add(fi.path, fi.name)
	}
	if e.pkg.Types == nil {
		return
	}
	// Direct imports first: they are the likeliest to be used.
	queue := append([]*types.Package(nil), e.pkg.Types.Imports()...)
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if done[p.Path()] {
			continue
		}
		add(p.Path(), p.Name())
		queue = append(queue, p.Imports()...)
	}
}

// importAlias returns name if it is free, else a free alias. A name of one
// letter and digits (x509) would only ever be numbered into names of
// generated locals (x5092, …), so such a name is first given a suffix that
// is not a digit.
func importAlias(name string, taken func(string) bool) string {
	if taken(name) && isNumberedLocal(name+"2") {
		name += "pkg"
	}
	return freeName(name, taken)
}
