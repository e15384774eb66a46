package generator

import (
	"go/ast"
	"go/token"
	"runtime"
	"sync"

	"github.com/dave/jennifer/jen"
)

// Emitting the declarations of a file is one goroutine's work; rendering,
// parsing and printing them is most of the rest, and need not wait for it.
// A pipeline takes runs of declarations as the emitter finishes them
// (genFile.add knows a declaration is finished when the next one starts)
// and renders, parses and prints each on worker goroutines meanwhile.
// Parsing goes first, so that the type check, which needs every part, can
// start as soon as the last one is written; the workers print the rest
// while it runs. Any split of the declarations prints the same file (see
// render.go), so the size of the runs changes nothing in it.

// pipeline renders, parses and prints runs of a file's declarations on
// worker goroutines.
type pipeline struct {
	fset     *token.FileSet
	filename string
	every    int      // declarations per run
	view     *genFile // the file the workers render with: its import names, none of its items
	next     int      // the first declaration not handed over yet

	mu      sync.Mutex
	cond    sync.Cond
	parts   []*filePart
	errs    []error
	toParse []int // parts to render and parse, in order
	toPrint []int // parts parsed, to print
	parsing int   // parts handed over and not parsed yet
	closed  bool  // every part is handed over
	workers sync.WaitGroup
}

// newPipeline returns a pipeline that parses into fset, as the file named
// filename, runs of every declarations.
func newPipeline(fset *token.FileSet, filename string, every int) *pipeline {
	pl := &pipeline{fset: fset, filename: filename, every: max(every, 1)}
	pl.cond.L = &pl.mu
	return pl
}

// start attaches the pipeline to f, whose parts are rendered with the
// import names hints, and starts the workers.
func (pl *pipeline) start(f *genFile, hints []importHint) {
	pl.view = &genFile{path: f.path, name: f.name, headers: f.headers, hints: hints}
	f.pipe = pl
	for range runtime.GOMAXPROCS(0) {
		pl.workers.Go(pl.work)
	}
}

// finished is told by f that its first n declarations are finished; it
// hands them over once there are enough for a run.
func (pl *pipeline) finished(f *genFile, n int) {
	if n-pl.next >= pl.every {
		pl.hand(f.items[f.starts[pl.next]:len(f.items):len(f.items)])
		pl.next = n
	}
}

// close hands over the last declarations of f: no more follow.
func (pl *pipeline) close(f *genFile) {
	f.pipe = nil
	if pl.next < len(f.starts) {
		pl.hand(f.items[f.starts[pl.next]:len(f.items):len(f.items)])
		pl.next = len(f.starts)
	}
	pl.mu.Lock()
	pl.closed = true
	pl.cond.Broadcast()
	pl.mu.Unlock()
}

// hand queues items, whole declarations, as the next part.
func (pl *pipeline) hand(items []jen.Code) {
	pl.mu.Lock()
	i := len(pl.parts)
	pl.parts = append(pl.parts, &filePart{items: items})
	pl.errs = append(pl.errs, nil)
	pl.toParse = append(pl.toParse, i)
	pl.parsing++
	pl.cond.Signal()
	pl.mu.Unlock()
}

// work renders and parses parts, else prints parsed ones, until every
// part is printed.
func (pl *pipeline) work() {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	for {
		switch {
		case len(pl.toParse) > 0:
			i := pl.toParse[0]
			pl.toParse = pl.toParse[1:]
			p := pl.parts[i]
			pl.mu.Unlock()
			parsed, err := pl.view.parsePart(pl.fset, pl.filename, p.items)
			pl.mu.Lock()
			if err != nil {
				pl.errs[i] = err
			} else {
				pl.parts[i] = parsed
				pl.toPrint = append(pl.toPrint, i)
			}
			pl.parsing--
			pl.cond.Broadcast()
		case len(pl.toPrint) > 0:
			i := pl.toPrint[0]
			pl.toPrint = pl.toPrint[1:]
			p := pl.parts[i]
			pl.mu.Unlock()
			err := (&parsedFile{f: pl.view, fset: pl.fset}).printPart(p)
			pl.mu.Lock()
			pl.errs[i] = err
		case pl.closed && pl.parsing == 0:
			return
		default:
			pl.cond.Wait()
		}
	}
}

// parsed waits until every part is parsed and returns them, or the first
// error in the file's order.
func (pl *pipeline) parsed() ([]*ast.File, error) {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	for !pl.closed || pl.parsing > 0 {
		pl.cond.Wait()
	}
	files := make([]*ast.File, len(pl.parts))
	for i, p := range pl.parts {
		if pl.errs[i] != nil {
			return nil, pl.errs[i]
		}
		files[i] = p.file
	}
	return files, nil
}

// printed waits until the workers are done and returns the file of f made
// of the printed parts, or the first error in the file's order.
func (pl *pipeline) printed(f *genFile) (*parsedFile, error) {
	pl.workers.Wait()
	for _, err := range pl.errs {
		if err != nil {
			return nil, err
		}
	}
	return &parsedFile{f: f, fset: pl.fset, parts: pl.parts}, nil
}
