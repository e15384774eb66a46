package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"
)

//go:generate go tool mcpgen

// FS serves read-only tools over one root folder. Paths never leave the
// root: os.Root refuses any that would.
type FS struct {
	root fs.FS
}

// SearchArgs are the arguments of search_files.
type SearchArgs struct {
	// Pattern is a glob matched against file names, such as "*.go".
	Pattern string `json:"pattern"`
	// Limit is the largest number of files to return.
	Limit int `json:"limit,omitempty" jsonschema:"minimum=1,maximum=100,default=10"`
	// Recursive searches subfolders too.
	Recursive bool `json:"recursive,omitempty"`
}

// SearchFiles finds files whose name matches a glob pattern.
//
//mcp:tool readonly
func (f *FS) SearchFiles(ctx context.Context, in SearchArgs) (string, error) {
	if _, err := path.Match(in.Pattern, ""); err != nil {
		return "", fmt.Errorf("pattern %q is not a valid glob: %v", in.Pattern, err)
	}
	var found []string
	err := fs.WalkDir(f.root, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable entries are skipped, not fatal
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		if d.IsDir() {
			if p != "." && !in.Recursive {
				return fs.SkipDir
			}
			return nil
		}
		if ok, _ := path.Match(in.Pattern, d.Name()); ok {
			found = append(found, p)
			if len(found) == in.Limit {
				return fs.SkipAll
			}
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	if len(found) == 0 {
		return fmt.Sprintf("no files match %q", in.Pattern), nil
	}
	return strings.Join(found, "\n"), nil
}

// SortOrder says how list_dir orders entries.
type SortOrder string

// The orders list_dir knows.
const (
	ByName     SortOrder = "name"     // alphabetical
	BySize     SortOrder = "size"     // largest first
	ByModified SortOrder = "modified" // newest first
)

// ListArgs are the arguments of list_dir.
type ListArgs struct {
	// Dir is the folder to list, relative to the root; empty for the root.
	Dir string `json:"dir,omitempty" jsonschema:"maxLength=1024"`
	// Sort orders the entries.
	Sort SortOrder `json:"sort,omitempty" jsonschema:"default=name"`
}

// Listing is the content of one folder.
type Listing struct {
	// Dir is the folder listed.
	Dir string `json:"dir"`
	// Entries are the folder's files and subfolders.
	Entries []Entry `json:"entries"`
}

// Entry is one file or folder.
type Entry struct {
	Name     string    `json:"name"`
	Size     int64     `json:"size"`
	IsDir    bool      `json:"isDir"`
	Modified time.Time `json:"modified"`
}

// ListDir lists the files and folders in a folder.
//
//mcp:tool readonly idempotent
func (f *FS) ListDir(ctx context.Context, in ListArgs) (Listing, error) {
	dir := in.Dir
	if dir == "" {
		dir = "."
	}
	if !fs.ValidPath(dir) {
		return Listing{}, fmt.Errorf("dir %q must be a relative slash-separated path inside the root, without . or .. elements", in.Dir)
	}
	entries, err := fs.ReadDir(f.root, dir)
	if errors.Is(err, fs.ErrNotExist) {
		return Listing{}, fmt.Errorf("dir %q does not exist", in.Dir)
	}
	if err != nil {
		return Listing{}, err
	}
	out := Listing{Dir: dir, Entries: make([]Entry, 0, len(entries))}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			continue
		}
		out.Entries = append(out.Entries, Entry{Name: e.Name(), Size: info.Size(), IsDir: e.IsDir(), Modified: info.ModTime().UTC()})
	}
	slices.SortFunc(out.Entries, func(a, b Entry) int {
		switch in.Sort {
		case BySize:
			return int(b.Size - a.Size)
		case ByModified:
			return b.Modified.Compare(a.Modified)
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out, nil
}
