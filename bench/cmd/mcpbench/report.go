package main

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/bench/internal/searchtool"
	"github.com/mcpgen/mcpgen/bench/internal/wire"
)

// The report goes into README.md between these two lines.
const (
	beginMarker = "<!-- mcpbench:begin -->"
	endMarker   = "<!-- mcpbench:end -->"
)

type machine struct {
	cpu, kernel, goVersion string
	cores                  int
	peers                  string  // module versions of the compared libraries
	otherLoad              float64 // share of the CPU other processes used during the stdio phase; -1 unknown
	httpLoad               float64 // the same during the HTTP phase; -1 unknown
	idleLoad               float64 // the same during the idle-sessions phase; -1 unknown
}

func machineInfo(dir string) machine {
	m := machine{cpu: "unknown", kernel: "unknown", goVersion: runtime.Version(), cores: runtime.NumCPU(), otherLoad: -1, httpLoad: -1, idleLoad: -1}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.SplitSeq(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.cpu = strings.TrimSpace(v)
				break
			}
		}
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.kernel = strings.TrimSpace(string(b))
	}
	cmd := exec.Command("go", "env", "GOVERSION")
	cmd.Dir = dir
	if out, err := cmd.Output(); err == nil {
		m.goVersion = strings.TrimSpace(string(out))
	}
	cmd = exec.Command("go", "list", "-m", "-f", "{{.Path}} {{.Version}}",
		"github.com/modelcontextprotocol/go-sdk", "github.com/mark3labs/mcp-go")
	cmd.Dir = dir
	if out, err := cmd.Output(); err == nil {
		m.peers = strings.Join(strings.Split(strings.TrimSpace(string(out)), "\n"), ", ")
	}
	return m
}

func durations(d []time.Duration) []float64 {
	v := make([]float64, len(d))
	for i, x := range d {
		v[i] = float64(x)
	}
	return v
}

// percentile returns the nearest-rank percentile p (0..100) of v.
func percentile(v []float64, p float64) float64 {
	if len(v) == 0 {
		return 0
	}
	v = slices.Clone(v)
	slices.Sort(v)
	i := int(math.Ceil(p/100*float64(len(v)))) - 1
	return v[max(0, min(i, len(v)-1))]
}

// metric is one row of the stdio table.
type metric struct {
	label  string
	format string
	value  func(*result) float64
}

var metrics = []metric{
	{"start → initialize answer, median (ms)", "%.2f", func(r *result) float64 { return median(durations(r.starts)) / 1e6 }},
	{"sequential round trips/s, median of rounds", "%.0f", func(r *result) float64 { return median(r.seqRates) }},
	{"sequential latency p50 (µs)", "%.1f", func(r *result) float64 { return percentile(durations(r.lat), 50) / 1e3 }},
	{"sequential latency p99 (µs)", "%.1f", func(r *result) float64 { return percentile(durations(r.lat), 99) / 1e3 }},
	{"pipelined calls/s, %d in flight, median of rounds", "%.0f", func(r *result) float64 { return median(r.pipeRates) }},
	{"peak RSS, VmHWM (MiB)", "%.1f", func(r *result) float64 { return mib(r.rss) }},
	{"binary size (MiB)", "%.1f", func(r *result) float64 { return mib(r.size) }},
}

// target is one of the goals mcpgen is held to, as a ratio in the same run.
type target struct {
	label string
	ratio func(res map[string]*result, benches map[string]benchLine) (float64, bool)
	met   func(float64) bool
}

func seqOf(r *result) float64   { return median(r.seqRates) }
func pipeOf(r *result) float64  { return median(r.pipeRates) }
func startOf(r *result) float64 { return median(durations(r.starts)) }
func p99Of(r *result) float64   { return percentile(durations(r.lat), 99) }

func ratioOf(f func(*result) float64, a, b string) func(map[string]*result, map[string]benchLine) (float64, bool) {
	return func(res map[string]*result, _ map[string]benchLine) (float64, bool) {
		ra, rb := res[a], res[b]
		if ra == nil || rb == nil || f(rb) == 0 {
			return 0, false
		}
		return f(ra) / f(rb), true
	}
}

var targets = []target{
	{"sequential round trips ≥ 0.9× limit", ratioOf(seqOf, "mcpgen", "limit"), func(x float64) bool { return x >= 0.9 }},
	{"pipelined throughput ≥ 0.75× limit", ratioOf(pipeOf, "mcpgen", "limit"), func(x float64) bool { return x >= 0.75 }},
	{"sequential latency p99 ≤ 1.5× limit's", ratioOf(p99Of, "mcpgen", "limit"), func(x float64) bool { return x <= 1.5 }},
	{"sequential round trips ≥ 0.8× floor", ratioOf(seqOf, "mcpgen", "floor"), func(x float64) bool { return x >= 0.8 }},
	{"sequential round trips ≥ 3× mcp-go", ratioOf(seqOf, "mcpgen", "mcpgo"), func(x float64) bool { return x >= 3 }},
	{"sequential round trips ≥ 5× Go SDK", ratioOf(seqOf, "mcpgen", "gosdk"), func(x float64) bool { return x >= 5 }},
	{"pipelined throughput ≥ 0.6× floor", ratioOf(pipeOf, "mcpgen", "floor"), func(x float64) bool { return x >= 0.6 }},
	{"pipelined throughput ≥ 2× mcp-go", ratioOf(pipeOf, "mcpgen", "mcpgo"), func(x float64) bool { return x >= 2 }},
	{"start → initialize ≤ 0.5× the faster peer", func(res map[string]*result, _ map[string]benchLine) (float64, bool) {
		g := res["mcpgen"]
		if g == nil {
			return 0, false
		}
		best := math.Inf(1)
		for _, peer := range []string{"gosdk", "mcpgo"} {
			if r := res[peer]; r != nil {
				best = min(best, startOf(r))
			}
		}
		if math.IsInf(best, 1) || best == 0 {
			return 0, false
		}
		return startOf(g) / best, true
	}, func(x float64) bool { return x <= 0.5 }},
	{"in-process allocs/op ≤ ¼ of the Go SDK's (both over io.Pipe)", func(_ map[string]*result, b map[string]benchLine) (float64, bool) {
		g, s := b["mcpgen/pipe"], b["gosdk/pipe"]
		if g.name == "" || s.name == "" || s.allocs == 0 {
			return 0, false
		}
		return g.allocs / s.allocs, true
	}, func(x float64) bool { return x <= 0.25 }},
}

var displayName = map[string]string{"mcpgen": "mcpgen", "limit": "limit", "floor": "floor", "gosdk": "Go SDK", "mcpgo": "mcp-go"}

// render writes the whole report as Markdown.
func render(cfg config, m machine, res map[string]*result, hts []*httpTarget, idle []*idleResult, scaled []*scaleResult, benches []benchLine, gens []genLine) string {
	var b bytes.Buffer
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }

	p("Generated by `go run ./cmd/mcpbench%s` on %s.\n\n", flagSummary(cfg), time.Now().UTC().Format("2006-01-02 15:04 MST"))
	p("Machine: %s, %d cores, %s, Linux %s. ", m.cpu, m.cores, m.goVersion, m.kernel)
	if m.peers != "" {
		p("Libraries: %s. ", m.peers)
	}
	if m.otherLoad >= 0 {
		p("Other processes used %.1f%% of the CPU during the stdio measurements. ", 100*m.otherLoad)
	}
	p("Settings: %d rounds × (%d timed starts, %d warm-up calls, %s sequential, %s pipelined with %d in flight) per server, servers interleaved round-robin.\n\n",
		cfg.rounds, cfg.starts, cfg.warmup, cfg.duration, cfg.duration, cfg.inflight)

	servers := cfg.servers
	peers := slices.DeleteFunc(slices.Clone(servers), func(s string) bool { return s == "mcpgen" })
	_, haveGen := res["mcpgen"]

	p("#### Over stdio, one process per server\n\n")
	p("| metric |")
	for _, s := range servers {
		p(" %s |", displayName[s])
	}
	if haveGen {
		for _, s := range peers {
			p(" mcpgen ÷ %s |", displayName[s])
		}
	}
	p("\n|---|")
	for range servers {
		p("---:|")
	}
	if haveGen {
		for range peers {
			p("---:|")
		}
	}
	p("\n")
	for _, mt := range metrics {
		label := mt.label
		if strings.Contains(label, "%d") {
			label = fmt.Sprintf(label, cfg.inflight)
		}
		p("| %s |", label)
		for _, s := range servers {
			p(" "+mt.format+" |", mt.value(res[s]))
		}
		if haveGen {
			g := mt.value(res["mcpgen"])
			for _, s := range peers {
				if v := mt.value(res[s]); v != 0 {
					p(" %s |", ratio(g/v))
				} else {
					p(" — |")
				}
			}
		}
		p("\n")
	}
	p("\n")
	if _, ok := res["limit"]; ok {
		renderVsLimit(p, servers, res)
	}

	benchByName := map[string]benchLine{}
	for _, bl := range benches {
		benchByName[bl.name] = bl
	}

	p("#### Targets (ratios from this run)\n\n")
	p("| target | measured | met |\n|---|---:|:---:|\n")
	for _, t := range targets {
		x, ok := t.ratio(res, benchByName)
		if !ok {
			p("| %s | not measured | — |\n", t.label)
			continue
		}
		met := "no"
		if t.met(x) {
			met = "yes"
		}
		p("| %s | %s | %s |\n", t.label, ratio(x), met)
	}
	p("\n")

	p("#### Invalid calls\n\n")
	p("What each server answers; MCP asks for a tool result with `isError: true` for invalid arguments (so that the model sees the message) and a JSON-RPC error for an unknown tool; **bold** marks any other answer, and \"accepted\" means the tool ran.\n\n")
	p("| call |")
	for _, s := range servers {
		p(" %s |", displayName[s])
	}
	p("\n|---|")
	for range servers {
		p("---|")
	}
	p("\n")
	for i, c := range wire.BadCases {
		if c.Tool != searchtool.Name {
			p("| %s: `%s` |", c.Label, c.Tool)
		} else {
			p("| %s: `%s` |", c.Label, strings.ReplaceAll(c.Args, "|", `\|`))
		}
		for _, s := range servers {
			v := "—"
			if i < len(res[s].bad) {
				v = res[s].bad[i]
				if v != c.Expected() {
					v = "**" + v + "**"
				}
			}
			p(" %s |", strings.ReplaceAll(v, "|", `\|`))
		}
		p("\n")
	}
	p("| declared input schema (tools/list) |")
	for _, s := range servers {
		p(" %s |", res[s].schema)
	}
	p("\n\n")
	var notes []string
	for _, s := range servers {
		for _, n := range res[s].notes {
			notes = append(notes, fmt.Sprintf("%s %s.", displayName[s], n))
		}
	}
	if len(notes) > 0 {
		p("Observed: %s\n\n", strings.Join(notes, " "))
	}

	renderHTTP(p, cfg, m, hts)
	renderCrowd(p, cfg, m, hts)
	renderIdle(p, cfg, m, idle)

	if len(scaled) > 0 {
		renderScale(p, cfg.scale, scaled)
	}

	var large []benchLine
	benches = slices.DeleteFunc(slices.Clone(benches), func(bl benchLine) bool {
		if rest, ok := strings.CutPrefix(bl.name, largePrefix); ok {
			bl.name = rest
			large = append(large, bl)
			return true
		}
		return false
	})
	if len(large) > 0 {
		renderLarge(p, servers, large)
	}

	if len(benches) > 0 {
		p("#### In process, one `tools/call` round trip\n\n")
		p("`go %s` (median of %d). `pipe`: the server's serve loop over io.Pipe with the same raw client as above; ", joinArgs(inprocArgs(cfg)), cfg.count)
		p("`inmemory`: the Go SDK's own client over `mcp.NewInMemoryTransports`; `inprocess`: mcp-go's in-process client, which calls the server without JSON in between. Client costs are included in both of the latter.\n\n")
		p("| benchmark | ns/op | B/op | allocs/op |\n|---|---:|---:|---:|\n")
		for _, bl := range benches {
			p("| %s | %.0f | %.0f | %.0f |\n", bl.name, bl.ns, bl.bytes, bl.allocs)
		}
		if g, ok := benchByName["mcpgen/pipe"]; ok {
			p("\n")
			for _, other := range benches {
				if other.name == g.name || other.allocs == 0 || other.bytes == 0 {
					continue
				}
				p("mcpgen/pipe ÷ %s: %s ns, %s B, %s allocs. ", other.name, ratio(g.ns/other.ns), ratio(g.bytes/other.bytes), ratio(g.allocs/other.allocs))
			}
			p("\n")
		}
		p("\n")
	}
	if len(gens) > 0 {
		p("#### Generation scaling\n\n")
		p("`go %s`: milliseconds and megabytes allocated per generation of a package of N annotated tools, its previously generated file on disk, median of the iterations. `load`: a bare go/packages load with the generator's mode; `generate`: generator.Generate emitting the file (its load included); `own`: the difference, the generator's own work; `gen. load`: the load as Generate does it, which reads of the previously generated file only its imports (that file is replaced); `emit`: generate less gen. load, the emitting, printing and type-checking of the file; `reuse`: generator.Generate when the file on disk is up to date (its load included), which emits nothing.\n\n", joinArgs(genArgs(cfg)))
		p("| tools | load (ms) | generate (ms) | own (ms) | own ÷ load | gen. load (ms) | emit (ms) | emit ÷ load | reuse (ms) | reuse ÷ load | load (MB) | generate (MB) |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
		var at200 *genLine
		for i, g := range gens {
			share, emit, reuse := 0.0, 0.0, 0.0
			if g.load > 0 {
				share, emit, reuse = g.own/g.load, g.emit/g.load, g.reuse/g.load
			}
			if g.tools == "200" {
				at200 = &gens[i]
			}
			p("| %s | %.0f | %.0f | %.0f | %.0f%% | %.0f | %.0f | %.0f%% | %.0f | %.0f%% | %.1f | %.1f |\n", g.tools, g.load, g.generate, g.own, 100*share, g.genLoad, g.emit, 100*emit, g.reuse, 100*reuse, g.loadMB, g.generateMB)
		}
		p("\n")
		if at200 != nil && at200.load > 0 {
			share := at200.own / at200.load
			met := "no"
			if share <= 0.25 {
				met = "yes"
			}
			p("Target: the generator's own work adds ≤ 25%% to the load time at 200 tools: measured %.0f%%, met: %s (emitting, printing and checking the file alone: %.0f%% of the load; Generate's own load %.0f ms against the bare load's %.0f). ", 100*share, met, 100*at200.emit/at200.load, at200.genLoad, at200.load)
			reuse := at200.reuse / at200.load
			met = "no"
			if reuse <= 1.05 {
				met = "yes"
			}
			p("Generating an unchanged package costs ≤ 105%% of loading it: measured %.0f%%, met: %s. ", 100*reuse, met)
		}
		if n := len(gens); n >= 2 && gens[0].emit > 0 && gens[0].generateMB > 0 {
			first, last := gens[0], gens[n-1]
			p("Growth from %s to %s tools: emit ×%.2f, generate ×%.2f, memory allocated by generation ×%.2f (linear would be ×%s).", first.tools, last.tools, last.emit/first.emit, last.generate/first.generate, last.generateMB/first.generateMB, sizeRatio(first.tools, last.tools))
		}
		p("\n\n")
	}
	return b.String()
}

// limitMetrics are the stdio figures shown relative to the limit server.
var limitMetrics = []struct {
	label string
	value func(*result) float64
}{
	{"sequential round trips/s", seqOf},
	{"sequential latency p50", func(r *result) float64 { return percentile(durations(r.lat), 50) }},
	{"sequential latency p99", p99Of},
	{"pipelined calls/s", pipeOf},
	{"start → initialize answer", startOf},
	{"peak RSS", func(r *result) float64 { return float64(r.rss) }},
}

// renderVsLimit writes every server's stdio figures as ratios to those of
// the limit server, which does no JSON work: for throughput, the share of
// what the pipe and the scheduler allow; for latency and memory, the
// multiple of their floor.
func renderVsLimit(p func(string, ...any), servers []string, res map[string]*result) {
	others := slices.DeleteFunc(slices.Clone(servers), func(s string) bool { return s == "limit" })
	p("#### Relative to `limit` (no JSON work: the cost of the pipe, the system calls and the scheduler)\n\n")
	p("| metric |")
	for _, s := range others {
		p(" %s ÷ limit |", displayName[s])
	}
	p("\n|---|")
	for range others {
		p("---:|")
	}
	p("\n")
	for _, mt := range limitMetrics {
		p("| %s |", mt.label)
		l := mt.value(res["limit"])
		for _, s := range others {
			if l == 0 {
				p(" — |")
				continue
			}
			p(" %s |", ratio(mt.value(res[s])/l))
		}
		p("\n")
	}
	p("\n")
}

// renderLarge writes the large-message series: per case, each server's
// time and allocations, mcpgen's ratios to limit and to the faster peer,
// and the growth of mcpgen's time along each series against the growth of
// the payload, which shows any worse-than-linear behaviour.
func renderLarge(p func(string, ...any), servers []string, large []benchLine) {
	byName := map[string]benchLine{}
	var cases []string
	for _, bl := range large {
		_, c, ok := strings.Cut(bl.name, "/")
		if !ok {
			continue
		}
		byName[bl.name] = bl
		if !slices.Contains(cases, c) {
			cases = append(cases, c)
		}
	}
	p("#### Large messages, in process\n\n")
	p("One call through each server's serve loop over io.Pipe (`BenchmarkLarge`): `in=` a string argument of that size (measure_text), `out=` a text answer of that size (make_text), `items=` a structured result of that many `{id, name}` items (list_items, `structuredContent` and the same JSON as text). Time per call in µs, and allocations per call.\n\n")
	p("| case |")
	for _, s := range servers {
		p(" %s µs |", displayName[s])
	}
	p(" mcpgen ÷ limit | mcpgen ÷ faster peer |")
	for _, s := range servers {
		p(" %s allocs |", displayName[s])
	}
	p("\n|---|")
	for range servers {
		p("---:|")
	}
	p("---:|---:|")
	for range servers {
		p("---:|")
	}
	p("\n")
	for _, c := range cases {
		p("| %s |", c)
		for _, s := range servers {
			if bl, ok := byName[s+"/"+c]; ok {
				p(" %.1f |", bl.ns/1e3)
			} else {
				p(" — |")
			}
		}
		g, okG := byName["mcpgen/"+c]
		if l, ok := byName["limit/"+c]; ok && okG && l.ns > 0 {
			p(" %s |", ratio(g.ns/l.ns))
		} else {
			p(" — |")
		}
		best := 0.0
		for _, peer := range []string{"gosdk", "mcpgo"} {
			if bl, ok := byName[peer+"/"+c]; ok && (best == 0 || bl.ns < best) {
				best = bl.ns
			}
		}
		if okG && best > 0 {
			p(" %s |", ratio(g.ns/best))
		} else {
			p(" — |")
		}
		for _, s := range servers {
			if bl, ok := byName[s+"/"+c]; ok {
				p(" %.0f |", bl.allocs)
			} else {
				p(" — |")
			}
		}
		p("\n")
	}
	p("\n")
	// Growth along each series: time ratio of the last case to the first,
	// against the payload ratio.
	var growth []string
	for _, series := range []string{"in=", "out=", "items="} {
		var first, last benchLine
		var firstCase, lastCase string
		for _, c := range cases {
			if bl, ok := byName["mcpgen/"+c]; ok && strings.HasPrefix(c, series) {
				if firstCase == "" {
					first, firstCase = bl, c
				}
				last, lastCase = bl, c
			}
		}
		if firstCase == "" || firstCase == lastCase || first.ns == 0 {
			continue
		}
		growth = append(growth, fmt.Sprintf("%s → %s: time ×%.1f for payload ×%s", firstCase, lastCase, last.ns/first.ns, payloadRatio(firstCase, lastCase)))
	}
	if len(growth) > 0 {
		p("Growth of mcpgen's time along each series (linear cost grows like the payload; fixed per-call costs make small cases relatively dearer): %s.\n\n", strings.Join(growth, "; "))
	}
}

// payloadRatio returns the ratio of the payloads of two cases such as
// in=1KiB and in=1MiB.
func payloadRatio(a, b string) string {
	size := func(c string) float64 {
		_, v, _ := strings.Cut(c, "=")
		mult := 1.0
		switch {
		case strings.HasSuffix(v, "MiB"):
			v, mult = strings.TrimSuffix(v, "MiB"), 1<<20
		case strings.HasSuffix(v, "KiB"):
			v, mult = strings.TrimSuffix(v, "KiB"), 1<<10
		}
		n, _ := strconv.ParseFloat(v, 64)
		return n * mult
	}
	x, y := size(a), size(b)
	if x == 0 {
		return "?"
	}
	return strconv.FormatFloat(y/x, 'f', 0, 64)
}

// sizeRatio returns b/a for two tool counts given as text.
func sizeRatio(a, b string) string {
	x, errA := strconv.ParseFloat(a, 64)
	y, errB := strconv.ParseFloat(b, 64)
	if errA != nil || errB != nil || x == 0 {
		return "?"
	}
	return strconv.FormatFloat(y/x, 'g', 3, 64)
}

// flagSummary repeats the flags given on the command line.
func flagSummary(cfg config) string {
	if len(cfg.flagsSet) == 0 {
		return ""
	}
	return " " + strings.Join(cfg.flagsSet, " ")
}

// readmeWithReport returns the README with the report between the markers.
func readmeWithReport(path, report string) ([]byte, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	i := bytes.Index(text, []byte(beginMarker))
	j := bytes.Index(text, []byte(endMarker))
	if i < 0 || j < i {
		return nil, errors.New(path + " lacks the lines " + beginMarker + " and " + endMarker)
	}
	var out bytes.Buffer
	out.Write(text[:i+len(beginMarker)])
	out.WriteString("\n")
	out.WriteString(report)
	out.Write(text[j:])
	return out.Bytes(), nil
}

// ratio formats a ratio with two significant digits below 0.1.
func ratio(x float64) string {
	if x != 0 && math.Abs(x) < 0.1 {
		return strconv.FormatFloat(x, 'g', 2, 64) + "×"
	}
	return fmt.Sprintf("%.2f×", x)
}
