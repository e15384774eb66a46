package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/mcpgen/mcpgen/runtime"
)

//go:generate go tool mcpgen

// Notes serves a folder of Markdown notes, one file per note: the note
// "groceries" is the file groceries.md. Every file access goes through an
// os.Root, so no id can reach outside the folder.
type Notes struct {
	root *os.Root
	// updated is told the URI of a resource whose contents changed
	// (runtime.Server.ResourceUpdated), for subscribed clients.
	updated func(uri string)
	mu      sync.Mutex // serializes writes
}

// errOutside is the error for an id that names a file outside the folder.
var errOutside = errors.New("note ids name files inside the notes folder; ids with '/', '\\' or '..' are refused")

// file returns the file name of a note, refusing ids that would leave the
// folder (os.Root would refuse them too, with a less helpful message).
func file(id string) (string, error) {
	if id == "" || strings.ContainsAny(id, `/\`) || id == "." || id == ".." || strings.HasPrefix(id, ".") {
		return "", fmt.Errorf("note %q: %w", id, errOutside)
	}
	return id + ".md", nil
}

// noteURI is the URI of a note.
func noteURI(id string) string { return "notes://" + id }

// ids lists the notes in the folder, sorted.
func (n *Notes) ids() ([]string, error) {
	entries, err := fs.ReadDir(n.root.FS(), ".")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if id, ok := strings.CutSuffix(e.Name(), ".md"); ok && e.Type().IsRegular() && !strings.HasPrefix(id, ".") {
			out = append(out, id)
		}
	}
	return out, nil
}

// read returns the text of a note.
func (n *Notes) read(id string) (string, error) {
	name, err := file(id)
	if err != nil {
		return "", err
	}
	b, err := fs.ReadFile(n.root.FS(), name)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("note %q: %w", id, runtime.ErrResourceNotFound)
	}
	return string(b), err
}

// NoteArgs name a note and give text for it.
type NoteArgs struct {
	// ID names the note: the file name without .md, such as "groceries".
	ID string `json:"id" jsonschema:"minLength=1,maxLength=100"`
	// Text is Markdown.
	Text string `json:"text"`
}

// CreateNote creates a new note; it fails if the note exists.
//
//mcp:tool destructive=false
func (n *Notes) CreateNote(in NoteArgs) (string, error) {
	name, err := file(in.ID)
	if err != nil {
		return "", err
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	f, err := n.root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return "", fmt.Errorf("note %q exists already; use append_to_note to add to it", in.ID)
	}
	if err != nil {
		return "", err
	}
	_, err = f.WriteString(in.Text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	n.updated("notes://index")
	return "created " + noteURI(in.ID), nil
}

// AppendToNote adds text at the end of an existing note, on a new line.
// Clients subscribed to the note are told it changed.
//
//mcp:tool
func (n *Notes) AppendToNote(in NoteArgs) (string, error) {
	name, err := file(in.ID)
	if err != nil {
		return "", err
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	f, err := n.root.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("there is no note %q; use create_note first", in.ID)
	}
	if err != nil {
		return "", err
	}
	_, err = f.WriteString("\n" + in.Text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	n.updated(noteURI(in.ID))
	n.updated("notes://index")
	return "appended to " + noteURI(in.ID), nil
}

// SearchArgs are the arguments of search_notes.
type SearchArgs struct {
	// Query is the text to look for, ignoring case.
	Query string `json:"query" jsonschema:"minLength=1"`
	// Limit is the largest number of matching lines to return.
	Limit int `json:"limit,omitempty" jsonschema:"minimum=1,maximum=100,default=20"`
}

// Match is one line of a note that contains the query.
type Match struct {
	ID   string `json:"id"`
	Line int    `json:"line"` // 1-based
	Text string `json:"text"`
}

// SearchNotes finds the lines of the notes that contain a text.
//
//mcp:tool readonly
func (n *Notes) SearchNotes(ctx context.Context, in SearchArgs) ([]Match, error) {
	ids, err := n.ids()
	if err != nil {
		return nil, err
	}
	query := strings.ToLower(in.Query)
	matches := []Match{}
	for _, id := range ids {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		text, err := n.read(id)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(strings.NewReader(text))
		for line := 1; sc.Scan(); line++ {
			if strings.Contains(strings.ToLower(sc.Text()), query) {
				matches = append(matches, Match{ID: id, Line: line, Text: sc.Text()})
				if len(matches) == in.Limit {
					return matches, nil
				}
			}
		}
	}
	return matches, nil
}

// Entry is one note in the index.
type Entry struct {
	ID    string `json:"id"`
	URI   string `json:"uri"`
	Title string `json:"title"` // the first line, without leading #
	Size  int64  `json:"size"`  // in bytes
}

// Index lists the notes, as JSON.
//
//mcp:resource uri=notes://index name=index title="All notes"
func (n *Notes) Index() ([]Entry, error) {
	ids, err := n.ids()
	if err != nil {
		return nil, err
	}
	out := []Entry{}
	for _, id := range ids {
		text, err := n.read(id)
		if err != nil {
			continue
		}
		title, _, _ := strings.Cut(text, "\n")
		out = append(out, Entry{ID: id, URI: noteURI(id), Title: strings.TrimSpace(strings.TrimLeft(title, "#")), Size: int64(len(text))})
	}
	return out, nil
}

// Note is one note, as Markdown.
//
//mcp:resource uri=notes://{id} name=note mime=text/markdown subscribe
func (n *Notes) Note(id string) (string, error) {
	text, err := n.read(id)
	if errors.Is(err, errOutside) {
		// The client asked for something it may not have: invalid params,
		// not a server failure.
		return "", runtime.NewError(runtime.CodeInvalidParams, "Invalid params: "+err.Error(), map[string]string{"uri": noteURI(id)})
	}
	return text, err
}

// Style is how a summary is written.
type Style string

// The styles of summarize_note.
const (
	Brief    Style = "brief"    // a sentence or two
	Detailed Style = "detailed" // a structured summary
	Bullets  Style = "bullets"  // a bulleted list
)

// SummarizeArgs are the arguments of summarize_note.
type SummarizeArgs struct {
	// ID names the note to summarize.
	ID string `json:"id" jsonschema:"title=Note"`
	// Style is how the summary is written; brief when not given.
	Style Style `json:"style,omitempty"`
}

// SummarizeNote asks the model to summarize one note, which it embeds.
//
//mcp:prompt title="Summarize a note"
func (n *Notes) SummarizeNote(in SummarizeArgs) ([]runtime.PromptMessage, error) {
	text, err := n.read(in.ID)
	if err != nil {
		return nil, err
	}
	style := in.Style
	if style == "" {
		style = Brief
	}
	return []runtime.PromptMessage{
		{Role: "user", Content: runtime.NewEmbeddedText(noteURI(in.ID), "text/markdown", text)},
		runtime.UserMessage(fmt.Sprintf("Summarize the note above (%s style).", style)),
	}, nil
}

// CompleteNoteID offers the ids of the notes that start with what was
// typed.
//
//mcp:complete prompt=summarize_note arg=id
func (n *Notes) CompleteNoteID(prefix string) ([]string, error) { return n.matching(prefix) }

// CompleteNoteURI completes the id in notes://{id}.
//
//mcp:complete resource=notes://{id} arg=id
func (n *Notes) CompleteNoteURI(prefix string) ([]string, error) { return n.matching(prefix) }

func (n *Notes) matching(prefix string) ([]string, error) {
	ids, err := n.ids()
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(ids, func(id string) bool {
		return !strings.HasPrefix(strings.ToLower(id), strings.ToLower(prefix))
	}), nil
}
