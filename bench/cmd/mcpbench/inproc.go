package main

import (
	"bufio"
	"bytes"
	"fmt"
	"log"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// benchLine is the median of one in-process benchmark over -count runs.
type benchLine struct {
	name   string // e.g. gosdk/pipe
	ns     float64
	bytes  float64
	allocs float64
}

// benchRE matches a result line of BenchmarkCall or BenchmarkLarge; the
// name of a BenchmarkLarge result keeps the prefix "large:".
var benchRE = regexp.MustCompile(`^Benchmark(?:Call/|Large/)(\S+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op(?:\s+[\d.]+ MB/s)?\s+([\d.]+) B/op\s+([\d.]+) allocs/op`)

// inprocArgs are the go test arguments of the in-process benchmarks; -p 1
// keeps the packages' benchmarks from running at the same time.
func inprocArgs(cfg config) []string {
	args := []string{"test", "-p", "1", "-run", "^$", "-bench", "^(BenchmarkCall|BenchmarkLarge)$", "-benchmem",
		"-benchtime", cfg.benchtime, "-count", strconv.Itoa(cfg.count)}
	for _, s := range cfg.servers {
		args = append(args, "./servers/"+s)
	}
	return args
}

// runGo runs the go command with args in the module and returns its
// standard output; what names the run in an error.
func runGo(cfg config, args []string, what string) ([]byte, error) {
	log.Printf("go %s", joinArgs(args))
	cmd := exec.Command("go", args...)
	cmd.Dir = cfg.dir
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		os.Stderr.Write(out)
		return nil, fmt.Errorf("%s: %v", what, err)
	}
	return out, nil
}

// largePrefix marks the results of BenchmarkLarge.
const largePrefix = "large:"

// runInproc runs the in-process benchmarks of the selected servers.
func runInproc(cfg config) ([]benchLine, error) {
	out, err := runGo(cfg, inprocArgs(cfg), "in-process benchmarks")
	if err != nil {
		return nil, err
	}
	samples := map[string][]benchLine{}
	var order []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		m := benchRE.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		if strings.HasPrefix(sc.Text(), "BenchmarkLarge/") {
			m[1] = largePrefix + m[1]
		}
		ns, _ := strconv.ParseFloat(m[2], 64)
		b, _ := strconv.ParseFloat(m[3], 64)
		a, _ := strconv.ParseFloat(m[4], 64)
		if _, ok := samples[m[1]]; !ok {
			order = append(order, m[1])
		}
		samples[m[1]] = append(samples[m[1]], benchLine{m[1], ns, b, a})
	}
	if len(order) == 0 {
		os.Stderr.Write(out)
		return nil, fmt.Errorf("in-process benchmarks printed no results")
	}
	var lines []benchLine
	for _, name := range order {
		s := samples[name]
		lines = append(lines, benchLine{
			name:   name,
			ns:     median(collect(s, func(b benchLine) float64 { return b.ns })),
			bytes:  median(collect(s, func(b benchLine) float64 { return b.bytes })),
			allocs: median(collect(s, func(b benchLine) float64 { return b.allocs })),
		})
	}
	return lines, nil
}

func collect(s []benchLine, f func(benchLine) float64) []float64 {
	v := make([]float64, len(s))
	for i, b := range s {
		v[i] = f(b)
	}
	return v
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	v = slices.Clone(v)
	slices.Sort(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

func joinArgs(args []string) string {
	var b bytes.Buffer
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		if a == "" || bytes.ContainsAny([]byte(a), " ^$*") {
			a = strconv.Quote(a)
			a = "'" + a[1:len(a)-1] + "'"
		}
		b.WriteString(a)
	}
	return b.String()
}

// genLine is one size of the generation-scaling benchmark: milliseconds
// and megabytes allocated per generation.
type genLine struct {
	tools                      string
	load, generate, own, reuse float64
	genLoad, emit              float64 // Generate's own load, and the rest of Generate
	loadMB, generateMB         float64
}

var genRE = regexp.MustCompile(`^BenchmarkGenerate/tools=(\d+)(?:-\d+)?\s+\d+\s+(.*)$`)

func genArgs(cfg config) []string {
	bench := "^BenchmarkGenerate$"
	if cfg.quick {
		bench += "/^tools=(50|100|200)$" // 1,000 tools only in the full run
	}
	return []string{"test", "-run", "^$", "-bench", bench, "-benchtime", strconv.Itoa(cfg.genIters) + "x", "."}
}

// runGen runs the generation-scaling benchmark.
func runGen(cfg config) ([]genLine, error) {
	out, err := runGo(cfg, genArgs(cfg), "generation benchmark")
	if err != nil {
		return nil, err
	}
	lines := parseGen(out)
	if len(lines) == 0 {
		os.Stderr.Write(out)
		return nil, fmt.Errorf("generation benchmark printed no results")
	}
	return lines, nil
}

// parseGen reads the lines of the generation benchmark from go test's
// output.
func parseGen(out []byte) []genLine {
	var lines []genLine
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		m := genRE.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		g := genLine{tools: m[1]}
		f := strings.Fields(m[2])
		for i := 0; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			switch f[i+1] {
			case "load-ms/op":
				g.load = v
			case "generate-ms/op":
				g.generate = v
			case "own-ms/op":
				g.own = v
			case "genload-ms/op":
				g.genLoad = v
			case "emit-ms/op":
				g.emit = v
			case "reuse-ms/op":
				g.reuse = v
			case "load-MB/op":
				g.loadMB = v
			case "generate-MB/op":
				g.generateMB = v
			}
		}
		lines = append(lines, g)
	}
	return lines
}
