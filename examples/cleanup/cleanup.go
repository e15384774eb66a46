package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

//go:generate go tool mcpgen

// Cleaner deletes old files in one folder. Paths never leave the folder:
// os.Root refuses any that would.
type Cleaner struct {
	root *os.Root
	now  func() time.Time
}

// PurgeArgs are the arguments of purge_old.
type PurgeArgs struct {
	// Days is the age, in days since the last change, from which a file is
	// old.
	Days int `json:"days" jsonschema:"minimum=1,maximum=36500"`
}

// PurgeConfirm is the form the user fills in before anything is deleted.
// mcpgen derives its requested schema from the fields, and decodes and
// checks the answer, because PurgeOld asks with runtime.AskForm.
type PurgeConfirm struct {
	Confirm bool `json:"confirm" jsonschema:"title=Delete them,description=Delete the files for good"`
}

// PurgeOld deletes the files not changed for a number of days, after the
// user confirms. It reports progress while it scans and deletes.
//
//mcp:tool destructive
func (c *Cleaner) PurgeOld(ctx context.Context, in PurgeArgs) (string, error) {
	log := runtime.Logger(ctx)
	old, scanned, err := c.findOld(ctx, time.Duration(in.Days)*24*time.Hour)
	if err != nil {
		return "", err
	}
	if len(old) == 0 {
		return fmt.Sprintf("no file is older than %d days", in.Days), nil
	}

	// Deleting is for good: ask the user first.
	answer, res, err := runtime.AskForm[PurgeConfirm](ctx,
		fmt.Sprintf("Delete %d files older than %d days, such as %s?", len(old), in.Days, old[0]))
	if errors.Is(err, runtime.ErrCapability) {
		return "", fmt.Errorf("nothing deleted: this tool asks the user to confirm, and the client cannot ask (%v)", err)
	}
	if err != nil {
		return "", err // under revision 2026-07-28, until the client answers: the call runs again with the answer
	}
	if answer == nil || !answer.Confirm {
		return fmt.Sprintf("nothing deleted: the user chose %q", res.Action), nil
	}

	// Progress goes on from the scan: one step per file scanned, then one
	// per file deleted.
	deleted := 0
	for i, name := range old {
		if err := ctx.Err(); err != nil {
			return "", fmt.Errorf("stopped after deleting %d of %d files: %w", deleted, len(old), err)
		}
		if err := c.root.Remove(name); err != nil {
			log.Warn("not deleted", "file", name, "err", err)
		} else {
			deleted++
			log.Info("deleted", "file", name)
		}
		runtime.Progress(ctx, float64(scanned+i+1), float64(scanned+len(old)), "deleted "+name)
	}
	return fmt.Sprintf("deleted %d of %d files older than %d days", deleted, len(old), in.Days), nil
}

// findOld lists the files of the folder and its subfolders not changed for
// age, reporting progress as it goes, and counts the files it scanned.
func (c *Cleaner) findOld(ctx context.Context, age time.Duration) (old []string, scanned int, err error) {
	cutoff := c.now().Add(-age)
	err = fs.WalkDir(c.root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable entries are skipped
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		scanned++
		runtime.Progress(ctx, float64(scanned), 0, "scanned "+p)
		if info, err := d.Info(); err == nil && info.ModTime().Before(cutoff) {
			old = append(old, p)
		}
		return nil
	})
	return old, scanned, err
}
