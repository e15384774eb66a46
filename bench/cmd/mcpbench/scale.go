package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/bench/internal/scale"
	"github.com/mcpgen/mcpgen/bench/internal/wire"
)

// scaleResult is what was measured of one kind of server with many tools.
type scaleResult struct {
	kind   string
	starts []time.Duration // process start to initialize answer
	rss    []int64         // VmRSS right after initialize
	lists  []time.Duration // tools/list, every page
	firsts []time.Duration // the same, the first listing of a process
	decode []time.Duration // of lists: the client's decoding of the pages
	pages  int
	bytes  int             // of all tools/list pages
	calls  []time.Duration // one tools/call round trip
}

var scaleOnly = flag.Bool("scale-only", false, "run only the scale phase (-scale tools, -rounds rounds) and print its table")

// runScaleOnly runs the scale phase alone and prints its table, with the
// share of the CPU other processes used meanwhile.
func runScaleOnly(cfg config) {
	if cfg.scale < 1 || cfg.writeReadme {
		log.Fatal("-scale-only needs -scale above 0 and prints its table instead of writing the README")
	}
	before := sampleCPU()
	res, err := runScale(cfg, cfg.scale)
	if err != nil {
		log.Fatal(err)
	}
	share, ok := otherLoad(before, sampleCPU(), goruntime.NumCPU())
	renderScale(func(format string, args ...any) { fmt.Printf(format, args...) }, cfg.scale, res)
	if ok {
		fmt.Printf("Other processes used %.0f%% of the CPU during the phase, the builds of the servers included.\n", 100*share)
	}
}

// Measurements per server and round of the scale phase.
const (
	scaleStarts = 5
	scaleLists  = 5
	scaleCalls  = 200
)

// runScale builds the server of n tools three ways and measures them
// round-robin: start → initialize, RSS after start, listing every tool, and
// one call.
func runScale(cfg config, n int) ([]*scaleResult, error) {
	work, err := os.MkdirTemp(filepath.Join(cfg.dir, "internal", "scale", "testdata"), "work-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	bins := map[string]string{}
	for _, kind := range scale.Kinds {
		dir := filepath.Join(work, kind)
		log.Printf("writing and building the %d-tool %s server", n, kind)
		if err := scale.Write(dir, kind, n); err != nil {
			return nil, err
		}
		bins[kind] = filepath.Join(work, kind+".bin")
		rel, _ := filepath.Rel(cfg.dir, dir)
		if err := goCmd(cfg.dir, "build", "-o", bins[kind], "./"+filepath.ToSlash(rel)); err != nil {
			return nil, fmt.Errorf("building the %d-tool %s server: %v", n, kind, err)
		}
	}
	results := make([]*scaleResult, len(scale.Kinds))
	for i, kind := range scale.Kinds {
		results[i] = &scaleResult{kind: kind}
	}
	for round := range cfg.rounds {
		for i := range results {
			r := results[(i+round)%len(results)]
			if err := scaleRound(r, bins[r.kind], n); err != nil {
				return nil, fmt.Errorf("scale round %d: %w", round+1, err)
			}
		}
	}
	return results, nil
}

func scaleRound(r *scaleResult, bin string, n int) error {
	for range scaleStarts {
		p, d, err := startProc(r.kind, bin)
		if err != nil {
			return err
		}
		rss, err := p.status("VmRSS:")
		if err != nil {
			p.kill()
			return err
		}
		r.starts = append(r.starts, d)
		r.rss = append(r.rss, rss)
		stop := p.watchdog(time.Minute)
		t0 := time.Now()
		tools, pages, _, _, err := p.listAll()
		stop()
		if err != nil {
			p.kill()
			return err
		}
		r.firsts = append(r.firsts, time.Since(t0))
		if tools != n {
			p.kill()
			return p.fail("tools/list returned %d tools over %d pages, want %d", tools, pages, n)
		}
		p.close()
	}
	p, _, err := startProc(r.kind, bin)
	if err != nil {
		return err
	}
	defer p.close()
	stop := p.watchdog(2 * time.Minute)
	defer stop()
	for range scaleLists {
		t0 := time.Now()
		tools, pages, size, decode, err := p.listAll()
		if err != nil {
			p.kill()
			return err
		}
		r.lists = append(r.lists, time.Since(t0))
		r.decode = append(r.decode, decode)
		if tools != n {
			p.kill()
			return p.fail("tools/list returned %d tools over %d pages, want %d", tools, pages, n)
		}
		r.pages, r.bytes = pages, size
	}
	k := n / 2
	want, _ := json.Marshal(scale.Answer(k))
	for range scaleCalls {
		p.id++
		t0 := time.Now()
		if err := p.write(wire.AppendCall(p.buf[:0], p.id, scale.ToolName(k), scale.CallArgs)); err != nil {
			p.kill()
			return p.fail("writing tools/call: %v", err)
		}
		line, err := p.readLine()
		if err != nil {
			p.kill()
			return err
		}
		r.calls = append(r.calls, time.Since(t0))
		if err := wire.QuickCheck(line, p.id, want); err != nil {
			p.kill()
			return p.fail("%v", err)
		}
	}
	log.Printf("scale %-6s start %.2fms  list %.2fms (%d pages)  call %.1fµs", r.kind,
		ms(r.starts[len(r.starts)-1]), ms(r.lists[len(r.lists)-1]), r.pages, us(r.calls[len(r.calls)-1]))
	return nil
}

// listAll reads tools/list page by page, following nextCursor. decode is
// the part of its time spent decoding the answers, from the arrival of
// each whole line: what is left is the server's and the pipe's.
func (p *proc) listAll() (tools, pages, size int, decode time.Duration, err error) {
	cursor := ""
	for {
		p.id++
		req := `{"jsonrpc":"2.0","id":` + strconv.FormatInt(p.id, 10) + `,"method":"tools/list"`
		if cursor != "" {
			c, _ := json.Marshal(cursor)
			req += `,"params":{"cursor":` + string(c) + `}`
		}
		if err := p.write([]byte(req + "}\n")); err != nil {
			return 0, 0, 0, 0, p.fail("writing tools/list: %v", err)
		}
		var m *wire.Message
		var t0 time.Time
		for m == nil { // readMessage, timing the decoding of the answer
			line, err := p.readLine()
			if err != nil {
				return 0, 0, 0, 0, err
			}
			t0 = time.Now()
			if m, err = wire.ParseMessage(line); err != nil {
				return 0, 0, 0, 0, p.fail("%v", err)
			}
			if m.IsRequest() {
				return 0, 0, 0, 0, p.fail("unexpected server request %q", m.Method)
			}
			if m.IsNotification() {
				p.notes++
				m = nil
			}
		}
		if m.Error != nil {
			return 0, 0, 0, 0, p.fail("tools/list: %v", m.Error)
		}
		var page struct {
			Tools      []json.RawMessage `json:"tools"`
			NextCursor string            `json:"nextCursor"`
		}
		if err := json.Unmarshal(m.Result, &page); err != nil {
			return 0, 0, 0, 0, p.fail("tools/list result: %v", err)
		}
		decode += time.Since(t0)
		tools += len(page.Tools)
		pages++
		size += len(m.Result)
		if page.NextCursor == "" {
			return tools, pages, size, decode, nil
		}
		cursor = page.NextCursor
	}
}

// status returns a size field of the process's /proc status in bytes.
func (p *proc) status(field string) (int64, error) { return procStatus(p.cmd.Process.Pid, field) }

// procStatus returns a size field ("VmRSS:", "VmHWM:") of the /proc status
// of process pid in bytes.
func procStatus(pid int, field string) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field); ok {
			f := strings.Fields(v)
			if len(f) == 2 && f[1] == "kB" {
				n, err := strconv.ParseInt(f[0], 10, 64)
				return n << 10, err
			}
		}
	}
	return 0, fmt.Errorf("no %s in /proc status", field)
}

var scaleNames = map[string]string{"mcpgen": "mcpgen", "gosdk": "Go SDK", "mcpgo": "mcp-go"}

// renderScale writes the scale table and its targets.
func renderScale(p func(string, ...any), n int, res []*scaleResult) {
	p("#### A server of %d tools\n\n", n)
	p("Each tool has 3 to 8 arguments (strings, bounded integers, booleans, a string enum, a list, a nested struct); the same tools are annotated for mcpgen and registered with each library its own way (schemas inferred from the same structs). Medians over the rounds: %d starts, each followed by a listing of every page (the first of a process), %d listings by one more process and %d calls per server and round. Of the listings, the time the client spends decoding the answers with `encoding/json`, from the arrival of each whole answer, is shown apart; the rest is the server's and the pipe's.\n\n", scaleStarts, scaleLists, scaleCalls)
	p("| metric |")
	for _, r := range res {
		p(" %s |", scaleNames[r.kind])
	}
	p(" mcpgen ÷ faster peer |\n|---|")
	for range res {
		p("---:|")
	}
	p("---:|\n")
	rows := []struct {
		label  string
		format string
		value  func(*scaleResult) float64
	}{
		{"start → initialize answer (ms)", "%.2f", func(r *scaleResult) float64 { return median(durations(r.starts)) / 1e6 }},
		{"RSS after initialize (MiB)", "%.1f", func(r *scaleResult) float64 { return median(int64s(r.rss)) / (1 << 20) }},
		{"tools/list, every page (ms)", "%.2f", func(r *scaleResult) float64 { return median(durations(r.lists)) / 1e6 }},
		{"of which the client decoding the pages (ms)", "%.2f", func(r *scaleResult) float64 { return median(durations(r.decode)) / 1e6 }},
		{"tools/list, every page, first of a process (ms)", "%.2f", func(r *scaleResult) float64 { return median(durations(r.firsts)) / 1e6 }},
		{"tools/list pages", "%.0f", func(r *scaleResult) float64 { return float64(r.pages) }},
		{"tools/list bytes (KiB)", "%.0f", func(r *scaleResult) float64 { return float64(r.bytes) / 1024 }},
		{"one tools/call round trip (µs)", "%.1f", func(r *scaleResult) float64 { return median(durations(r.calls)) / 1e3 }},
	}
	ratios := map[string]float64{}
	for _, row := range rows {
		p("| %s |", row.label)
		var g float64
		best := -1.0
		for _, r := range res {
			v := row.value(r)
			p(" "+row.format+" |", v)
			if r.kind == "mcpgen" {
				g = v
			} else if best < 0 || v < best {
				best = v
			}
		}
		if best > 0 {
			ratios[row.label] = g / best
			p(" %s |\n", ratio(g/best))
		} else {
			p(" — |\n")
		}
	}
	p("\n")
	targets := []struct {
		label, row string
		limit      float64
	}{
		{"start ≤ 0.2× the faster peer", "start → initialize answer (ms)", 0.2},
		{"RSS ≤ 0.5× the smaller peer", "RSS after initialize (MiB)", 0.5},
		{"tools/list (every page) ≤ 0.5× the faster peer", "tools/list, every page (ms)", 0.5},
	}
	p("| target at %d tools | measured | met |\n|---|---:|:---:|\n", n)
	for _, t := range targets {
		x, ok := ratios[t.row]
		if !ok {
			p("| %s | not measured | — |\n", t.label)
			continue
		}
		met := "no"
		if x <= t.limit {
			met = "yes"
		}
		p("| %s | %s | %s |\n", t.label, ratio(x), met)
	}
	p("\n")
}

func int64s(v []int64) []float64 {
	f := make([]float64, len(v))
	for i, x := range v {
		f[i] = float64(x)
	}
	return f
}
