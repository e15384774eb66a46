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

// nameAnonymous names the decoders and encoders of the anonymous struct
// types that tools and resources reach after where they are: the Go
// function and Input or Result for a tool's whole input or result
// (mcpDecodeSearchInput), else what holds the struct followed by the Go
// name of its field (mcpDecodeArgsOptions), instead of all after "Struct".
// The first site of a type in tool order names it.
func (e *emitter) nameAnonymous() {
	e.anon = map[string]string{}
	seen := map[string]bool{} // named struct types walked
	var walk func(s *Shape, name string)
	walk = func(s *Shape, name string) {
		for s != nil && s.Kind != KindStruct && s.Elem != nil {
			s = s.Elem // through pointers, slices, arrays and maps
		}
		if s == nil || s.Kind != KindStruct {
			return
		}
		key := typeKey(s.Type)
		if n, ok := types.Unalias(s.Type).(*types.Named); ok {
			if seen[key] {
				return
			}
			seen[key] = true
			name = n.Obj().Name()
		} else if _, ok := e.anon[key]; ok {
			return
		} else {
			e.anon[key] = name
		}
		for _, f := range s.Fields {
			walk(f.Shape, name+f.Path[len(f.Path)-1].Name)
		}
	}
	for _, t := range e.pkg.Tools {
		walk(t.Input, t.Func+"Input")
		walk(t.OutputShape, t.Func+"Result")
	}
	for _, r := range e.pkg.Resources {
		walk(r.OutputShape, r.Func+"Result")
	}
}
