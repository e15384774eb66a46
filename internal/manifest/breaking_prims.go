package manifest

import "fmt"

// comparePrims lists the changes to resources, resource templates and
// prompts, each in old's order, then the ones only new has. Removing one
// is breaking, as is a prompt argument removed or newly required; a
// resource's or template's MIME type changed is breaking too, since a
// client reads the contents by it; a template's variables are compared
// as compareTemplate says. Anything added is compatible.
func comparePrims(old, new *Manifest) []Change {
	var out []Change
	out = append(out, diffByKey("resource", old.Resources, new.Resources,
		func(r Resource) string { return r.URI },
		func(o, n Resource) []Change {
			return describedChanges("resource "+o.URI, o.Name, n.Name, o.Title, n.Title, o.Description, n.Description, o.MIMEType, n.MIMEType)
		})...)
	// A template only new has, named like one only old has, is that
	// template with its URI changed.
	moved := pairTemplates(old.ResourceTemplates, new.ResourceTemplates)
	out = append(out, diffByKey("resource template", old.ResourceTemplates, new.ResourceTemplates,
		func(t Template) string {
			if o, ok := moved[t.URITemplate]; ok {
				return o
			}
			return t.URITemplate
		},
		compareTemplate)...)
	out = append(out, diffByKey("prompt", old.Prompts, new.Prompts,
		func(p Prompt) string { return p.Name },
		comparePrompt)...)
	return out
}

// diffByKey reports the items removed (breaking) and added (compatible)
// between old and new, and the changes same calls finds in the items both
// have.
func diffByKey[T any](what string, old, new []T, key func(T) string, same func(o, n T) []Change) []Change {
	var out []Change
	newByKey := map[string]T{}
	for _, n := range new {
		newByKey[key(n)] = n
	}
	oldKeys := map[string]bool{}
	for _, o := range old {
		k := key(o)
		oldKeys[k] = true
		n, ok := newByKey[k]
		if !ok {
			out = append(out, Change{Tool: what + " " + k, Breaking: true, Message: what + " removed"})
			continue
		}
		out = append(out, same(o, n)...)
	}
	for _, n := range new {
		if k := key(n); !oldKeys[k] {
			out = append(out, Change{Tool: what + " " + k, Message: what + " added"})
		}
	}
	return out
}

// describedChanges compares the descriptive members of a resource or a
// template.
func describedChanges(where, oName, nName, oTitle, nTitle, oDesc, nDesc, oMIME, nMIME string) []Change {
	var out []Change
	if oMIME != nMIME {
		out = append(out, Change{Tool: where, Breaking: oMIME != "", Message: fmt.Sprintf("mimeType changed from %q to %q", oMIME, nMIME)})
	}
	if oName != nName {
		out = append(out, Change{Tool: where, Message: fmt.Sprintf("name changed from %q to %q", oName, nName)})
	}
	if oTitle != nTitle {
		out = append(out, Change{Tool: where, Message: fmt.Sprintf("title changed from %q to %q", oTitle, nTitle)})
	}
	if oDesc != nDesc {
		out = append(out, Change{Tool: where, Message: "description changed"})
	}
	return out
}

// comparePrompt compares one prompt's arguments and descriptive members.
func comparePrompt(o, n Prompt) []Change {
	where := "prompt " + o.Name
	var out []Change
	newArgs := map[string]PromptArgument{}
	for _, a := range n.Arguments {
		newArgs[a.Name] = a
	}
	oldArgs := map[string]bool{}
	for _, oa := range o.Arguments {
		oldArgs[oa.Name] = true
		path := "arguments." + oa.Name
		na, ok := newArgs[oa.Name]
		switch {
		case !ok:
			out = append(out, Change{Tool: where, Path: path, Breaking: true, Message: "argument removed"})
		case !oa.Required && na.Required:
			out = append(out, Change{Tool: where, Path: path, Breaking: true, Message: "argument newly required"})
		case oa.Required && !na.Required:
			out = append(out, Change{Tool: where, Path: path, Message: "argument no longer required"})
		}
	}
	for _, na := range n.Arguments {
		if oldArgs[na.Name] {
			continue
		}
		if na.Required {
			out = append(out, Change{Tool: where, Path: "arguments." + na.Name, Breaking: true, Message: "argument added, required"})
		} else {
			out = append(out, Change{Tool: where, Path: "arguments." + na.Name, Message: "optional argument added"})
		}
	}
	if o.Title != n.Title {
		out = append(out, Change{Tool: where, Message: fmt.Sprintf("title changed from %q to %q", o.Title, n.Title)})
	}
	if o.Description != n.Description {
		out = append(out, Change{Tool: where, Message: "description changed"})
	}
	return out
}
