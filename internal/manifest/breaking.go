package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strings"
)

// Change is one difference between two manifests.
type Change struct {
	Tool     string // the tool it concerns; for another primitive its kind and key, e.g. "resource notes://index", "prompt summarize"
	Path     string // "" for the tool itself; else e.g. "arguments.limit", "result.entries[].name"
	Breaking bool   // a client written against the old manifest may fail with the new one
	Message  string
}

// String renders the change as mcpgen inspect -breaking prints it.
func (c Change) String() string {
	kind := "compatible"
	if c.Breaking {
		kind = "breaking"
	}
	where := c.Tool
	if c.Path != "" {
		where += ": " + c.Path
	}
	return kind + ": " + where + ": " + c.Message
}

// Compare lists the changes from old to new, tools in old's order, then
// the tools only new has. A client sends arguments and reads results, so
// for arguments whatever admits fewer values is breaking (a tool or
// argument removed, an argument newly required, a type changed, an enum
// narrowed, a bound tightened, additionalProperties closed), and for the
// structured result whatever gives the client less than before (a field
// removed or no longer always present, a type changed, an enum widened).
// Resources, resource templates and prompts follow, as comparePrims
// classifies them, then the forms, whose changes are all compatible (see
// compareForms).
func Compare(old, new *Manifest) ([]Change, error) {
	var out []Change
	newByName := map[string]*Tool{}
	for i := range new.Tools {
		newByName[new.Tools[i].Name] = &new.Tools[i]
	}
	oldNames := map[string]bool{}
	for i := range old.Tools {
		ot := &old.Tools[i]
		oldNames[ot.Name] = true
		nt := newByName[ot.Name]
		if nt == nil {
			msg := "tool removed"
			if r := renamedTo(ot, new, old); r != "" {
				msg = fmt.Sprintf("tool removed; renamed to %s? (same input schema)", r)
			}
			out = append(out, Change{Tool: ot.Name, Breaking: true, Message: msg})
			continue
		}
		cs, err := compareTool(ot, nt)
		if err != nil {
			return nil, err
		}
		out = append(out, cs...)
	}
	for _, nt := range new.Tools {
		if !oldNames[nt.Name] {
			out = append(out, Change{Tool: nt.Name, Message: "tool added"})
		}
	}
	out = append(out, comparePrims(old, new)...)
	return append(out, compareForms(old.Forms, new.Forms)...), nil
}

// renamedTo returns the name of a tool only new has whose input schema is
// the same as t's, if there is exactly one.
func renamedTo(t *Tool, new, old *Manifest) string {
	found := ""
	for _, nt := range new.Tools {
		if slices.ContainsFunc(old.Tools, func(o Tool) bool { return o.Name == nt.Name }) {
			continue
		}
		if compactJSON(nt.InputSchema) == compactJSON(t.InputSchema) {
			if found != "" {
				return ""
			}
			found = nt.Name
		}
	}
	return found
}

// comparer compares two schemas of one tool in one direction.
type comparer struct {
	tool    string
	input   bool // arguments (the client writes them) rather than the result (it reads it)
	oldRoot *schema
	newRoot *schema
	seen    map[[2]string]bool // pairs of $refs compared already
	changes []Change
}

func (c *comparer) add(path string, breaking bool, format string, args ...any) {
	c.changes = append(c.changes, Change{Tool: c.tool, Path: path, Breaking: breaking, Message: fmt.Sprintf(format, args...)})
}

func compareTool(ot, nt *Tool) ([]Change, error) {
	var out []Change
	parse := func(t *Tool, raw json.RawMessage, what string) (*schema, error) {
		s, err := parseSchema(raw)
		if err != nil {
			return nil, fmt.Errorf("tool %s: %s: %v", t.Name, what, err)
		}
		return s, nil
	}
	oin, err := parse(ot, ot.InputSchema, "inputSchema")
	if err != nil {
		return nil, err
	}
	nin, err := parse(nt, nt.InputSchema, "inputSchema")
	if err != nil {
		return nil, err
	}
	c := &comparer{tool: ot.Name, input: true, oldRoot: oin, newRoot: nin, seen: map[[2]string]bool{}}
	c.compare("arguments", oin, nin)
	out = append(out, c.changes...)

	oout, err := parse(ot, ot.OutputSchema, "outputSchema")
	if err != nil {
		return nil, err
	}
	nout, err := parse(nt, nt.OutputSchema, "outputSchema")
	if err != nil {
		return nil, err
	}
	switch {
	case oout != nil && nout == nil:
		out = append(out, Change{Tool: ot.Name, Path: "result", Breaking: true, Message: "structured result removed (no outputSchema)"})
	case oout == nil && nout != nil:
		out = append(out, Change{Tool: ot.Name, Path: "result", Message: "structured result added (outputSchema)"})
	case oout != nil:
		c := &comparer{tool: ot.Name, oldRoot: oout, newRoot: nout, seen: map[[2]string]bool{}}
		c.compare("result", oout, nout)
		out = append(out, c.changes...)
	}

	if ot.Title != nt.Title {
		out = append(out, Change{Tool: ot.Name, Message: fmt.Sprintf("title changed from %q to %q", ot.Title, nt.Title)})
	}
	if strings.TrimSpace(ot.Description) != strings.TrimSpace(nt.Description) {
		out = append(out, Change{Tool: ot.Name, Message: "description changed"})
	}
	if o, n := hints(ot.Annotations), hints(nt.Annotations); o != n {
		out = append(out, Change{Tool: ot.Name, Message: fmt.Sprintf("hints changed from %q to %q", o, n)})
	}
	return out, nil
}

// compare compares the schemas of one value site.
func (c *comparer) compare(path string, o, n *schema) {
	if o != nil && n != nil && o.Ref != "" && n.Ref != "" {
		key := [2]string{o.Ref, n.Ref}
		if c.seen[key] {
			return
		}
		c.seen[key] = true
	}
	o, n = resolve(c.oldRoot, o), resolve(c.newRoot, n)
	if o == nil || n == nil {
		return
	}
	if ot, nt := typeName(c.oldRoot, o), typeName(c.newRoot, n); !c.typeCompatible(o.Type, n.Type) {
		c.add(path, true, "type changed from %s to %s", ot, nt)
		return
	} else if !slices.Equal(o.Type, n.Type) {
		c.add(path, false, "type widened from %s to %s", ot, nt)
	}
	c.compareEnum(path, o, n)
	c.compareBounds(path, o, n)
	if !bytes.Equal(o.Default, n.Default) && c.input {
		switch {
		case o.Default == nil:
			c.add(path, false, "default %s added", compactJSON(n.Default))
		case n.Default == nil:
			c.add(path, false, "default %s removed", compactJSON(o.Default))
		case compactJSON(o.Default) != compactJSON(n.Default):
			c.add(path, false, "default changed from %s to %s", compactJSON(o.Default), compactJSON(n.Default))
		}
	}
	c.compareObject(path, o, n)
	if o.Items != nil && n.Items != nil {
		c.compare(path+"[]", o.Items, n.Items)
	}
}

// typeCompatible reports whether n's types accept (input) or stay within
// (result) o's; an empty list means any type. integer is within number.
func (c *comparer) typeCompatible(o, n types) bool {
	within := func(small, big types) bool {
		if len(big) == 0 {
			return true
		}
		if len(small) == 0 {
			return false
		}
		for _, t := range small {
			if !slices.Contains(big, t) && !(t == "integer" && slices.Contains(big, "number")) {
				return false
			}
		}
		return true
	}
	if c.input {
		return within(o, n)
	}
	return within(n, o)
}

func (c *comparer) compareEnum(path string, o, n *schema) {
	if len(o.Enum) == 0 && len(n.Enum) == 0 {
		return
	}
	set := func(vals []json.RawMessage) []string {
		var s []string
		for _, v := range vals {
			s = append(s, compactJSON(v))
		}
		return s
	}
	ov, nv := set(o.Enum), set(n.Enum)
	var removed, added []string
	for _, v := range ov {
		if !slices.Contains(nv, v) {
			removed = append(removed, v)
		}
	}
	for _, v := range nv {
		if !slices.Contains(ov, v) {
			added = append(added, v)
		}
	}
	switch {
	case len(ov) == 0:
		c.add(path, c.input, "now restricted to the values %s", strings.Join(nv, ", "))
	case len(nv) == 0:
		c.add(path, !c.input, "no longer restricted to the values %s", strings.Join(ov, ", "))
	default:
		if len(removed) > 0 {
			c.add(path, c.input, "enum narrowed: %s removed", strings.Join(removed, ", "))
		}
		if len(added) > 0 {
			c.add(path, !c.input, "enum widened: %s added", strings.Join(added, ", "))
		}
	}
}

// compareBounds compares the numeric bounds: for arguments a bound that
// admits fewer values is breaking.
func (c *comparer) compareBounds(path string, o, n *schema) {
	for _, b := range []struct {
		name  string
		o, n  *json.Number
		lower bool // a lower bound: raising it tightens
	}{
		{"minimum", o.Minimum, n.Minimum, true},
		{"exclusiveMinimum", o.ExclusiveMinimum, n.ExclusiveMinimum, true},
		{"maximum", o.Maximum, n.Maximum, false},
		{"exclusiveMaximum", o.ExclusiveMaximum, n.ExclusiveMaximum, false},
		{"minLength", o.MinLength, n.MinLength, true},
		{"maxLength", o.MaxLength, n.MaxLength, false},
		{"minItems", o.MinItems, n.MinItems, true},
		{"maxItems", o.MaxItems, n.MaxItems, false},
	} {
		var tightened bool
		var msg string
		switch {
		case b.o == nil && b.n == nil:
			continue
		case b.o == nil:
			tightened, msg = true, fmt.Sprintf("%s %s added", b.name, b.n)
		case b.n == nil:
			tightened, msg = false, fmt.Sprintf("%s %s removed", b.name, b.o)
		default:
			cmp := compareNumbers(*b.o, *b.n)
			if cmp == 0 {
				continue
			}
			raised := cmp < 0
			tightened = raised == b.lower
			verb := "lowered"
			if raised {
				verb = "raised"
			}
			msg = fmt.Sprintf("%s %s from %s to %s", b.name, verb, b.o, b.n)
		}
		if tightened {
			msg += " (bound tightened)"
		} else {
			msg += " (bound loosened)"
		}
		c.add(path, tightened && c.input || !tightened && !c.input, "%s", msg)
	}
	if o.Pattern != n.Pattern {
		switch {
		case o.Pattern == "":
			c.add(path, c.input, "pattern %q added", n.Pattern)
		case n.Pattern == "":
			c.add(path, !c.input, "pattern %q removed", o.Pattern)
		default:
			c.add(path, true, "pattern changed from %q to %q", o.Pattern, n.Pattern)
		}
	}
	if o.MultipleOf == nil != (n.MultipleOf == nil) || o.MultipleOf != nil && compareNumbers(*o.MultipleOf, *n.MultipleOf) != 0 {
		c.add(path, c.input || o.MultipleOf != nil && n.MultipleOf == nil, "multipleOf changed from %s to %s", numOrNone(o.MultipleOf), numOrNone(n.MultipleOf))
	}
	if o.UniqueItems != n.UniqueItems {
		c.add(path, n.UniqueItems == c.input, "uniqueItems changed from %v to %v", o.UniqueItems, n.UniqueItems)
	}
}

func numOrNone(n *json.Number) string {
	if n == nil {
		return "none"
	}
	return n.String()
}

// compareNumbers compares two JSON numbers exactly.
func compareNumbers(a, b json.Number) int {
	x, okx := new(big.Rat).SetString(a.String())
	y, oky := new(big.Rat).SetString(b.String())
	if !okx || !oky {
		return strings.Compare(a.String(), b.String())
	}
	return x.Cmp(y)
}

// compareObject compares the properties of two object schemas.
func (c *comparer) compareObject(path string, o, n *schema) {
	for _, p := range o.Properties {
		sub := path + "." + p.Name
		np := n.Properties.get(p.Name)
		oreq, nreq := o.requires(p.Name), n.requires(p.Name)
		if np == nil {
			switch {
			case c.input && n.closed():
				c.add(sub, true, "argument removed; a client that sends it is now refused")
			case c.input:
				c.add(sub, false, "argument removed; it is now ignored")
			default:
				c.add(sub, true, "field removed")
			}
			continue
		}
		switch {
		case c.input && !oreq && nreq:
			c.add(sub, true, "argument newly required")
		case c.input && oreq && !nreq:
			c.add(sub, false, "argument no longer required")
		case !c.input && oreq && !nreq:
			c.add(sub, true, "field no longer always present")
		}
		c.compare(sub, p.Schema, np)
	}
	for _, p := range n.Properties {
		if o.Properties.get(p.Name) != nil {
			continue
		}
		sub := path + "." + p.Name
		switch {
		case c.input && n.requires(p.Name):
			c.add(sub, true, "argument added, required")
		case c.input:
			c.add(sub, false, "optional argument added")
		default:
			c.add(sub, false, "field added")
		}
	}
	if c.input && !o.closed() && n.closed() && len(o.Type) > 0 && o.Type[0] == "object" {
		c.add(path, true, "additionalProperties closed: properties not listed are now refused")
	}
	if c.input && o.closed() && !n.closed() {
		c.add(path, false, "additionalProperties opened")
	}
}
