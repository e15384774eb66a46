package bench

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/mcpgen/mcpgen/generator"
)

// loadMode is the go/packages mode the generator loads with; the bare load
// timed here must do the same work.
const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedSyntax |
	packages.NeedTypes | packages.NeedTypesInfo | packages.NeedImports

// BenchmarkGenerate times generation for a package of 50, 100, 200 and
// 1,000 annotated tools: load-ms is a bare go/packages load of the package,
// generate-ms is generator.Generate on it (load included), own-ms the
// difference, i.e. the generator's own work; genload-ms is the load as
// Generate does it (the previous output read for its imports only, see
// generatorLoad), and emit-ms what Generate spends after it: generate-ms
// less genload-ms, the emitting and checking of the file; load-MB and generate-MB are
// the bytes each allocated; each the median over the iterations. The file
// is emitted every time (Config.Fresh): what is timed is generation, not
// the reuse of an unchanged file, which reuse-ms times: Generate with an
// up-to-date file on disk, load included, configured as the mcpgen command
// configures it (warnings reported). reuse-cmd-ms is the same run as users
// get it from go generate, less the go command's own start: the mcpgen
// command, built once, run in the package's directory, process start
// included.
func BenchmarkGenerate(b *testing.B) {
	// The generated file imports the runtime, which the synthetic module's
	// go.sum does not cover yet.
	b.Setenv("GOFLAGS", "-mod=mod")
	mcpgen := filepath.Join(b.TempDir(), "mcpgen")
	build := exec.Command("go", "build", "-o", mcpgen, "./cmd/mcpgen")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("building mcpgen: %v\n%s", err, out)
	}
	for _, n := range []int{50, 100, 200, 1000} {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			dir := scaleModule(b, n)
			cfg := generator.Config{Dir: dir, Fresh: true}
			// Once untimed: warms the build cache and checks that the output
			// compiles.
			files, err := generator.Generate(cfg)
			if err != nil {
				b.Fatal(err)
			}
			if len(files) != 1 || files[0].Content == nil {
				b.Fatalf("want one generated file, got %d", len(files))
			}
			if n == 50 {
				buildGenerated(b, dir, files[0])
			}
			// A file on disk that generation would produce again, for the
			// reuse timing.
			write(b, files[0].Path, string(files[0].Content))
			reuse := generator.Config{Dir: dir, Warn: func(generator.Diagnostic) {}}
			if _, err := generator.Generate(reuse); err != nil {
				b.Fatal(err)
			}
			command := func() {
				before, err := os.Stat(files[0].Path)
				if err != nil {
					b.Fatal(err)
				}
				cmd := exec.Command(mcpgen)
				cmd.Dir = dir
				if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
					b.Fatalf("mcpgen: %v\n%s", err, out)
				}
				if after, err := os.Stat(files[0].Path); err != nil || !after.ModTime().Equal(before.ModTime()) {
					b.Fatalf("mcpgen wrote the up-to-date file %s (%v)", files[0].Path, err)
				}
			}
			command() // the command's own record
			var loads, gens, owns, genLoads, emits, reuses, cmds, loadMB, genMB []float64
			var m0, m1, m2 runtime.MemStats
			for b.Loop() {
				runtime.ReadMemStats(&m0)
				t0 := time.Now()
				pkgs, err := packages.Load(&packages.Config{Mode: loadMode, Dir: dir}, ".")
				if err != nil {
					b.Fatal(err)
				}
				if packages.PrintErrors(pkgs) > 0 {
					b.Fatal("package does not load")
				}
				load := time.Since(t0)
				tg := time.Now()
				generatorLoad(b, dir)
				genLoad := time.Since(tg)
				runtime.ReadMemStats(&m1) // outside the timings: it stops the world
				t1 := time.Now()
				if _, err := generator.Generate(cfg); err != nil {
					b.Fatal(err)
				}
				gen := time.Since(t1)
				runtime.ReadMemStats(&m2)
				t2 := time.Now()
				if _, err := generator.Generate(reuse); err != nil {
					b.Fatal(err)
				}
				reused := time.Since(t2)
				t3 := time.Now()
				command()
				cmds = append(cmds, ms(time.Since(t3)))
				loads = append(loads, ms(load))
				gens = append(gens, ms(gen))
				owns = append(owns, ms(gen-load))
				genLoads = append(genLoads, ms(genLoad))
				emits = append(emits, ms(gen-genLoad))
				reuses = append(reuses, ms(reused))
				loadMB = append(loadMB, mb(m1.TotalAlloc-m0.TotalAlloc))
				genMB = append(genMB, mb(m2.TotalAlloc-m1.TotalAlloc))
			}
			b.ReportMetric(median(loads), "load-ms/op")
			b.ReportMetric(median(gens), "generate-ms/op")
			b.ReportMetric(median(owns), "own-ms/op")
			b.ReportMetric(median(genLoads), "genload-ms/op")
			b.ReportMetric(median(emits), "emit-ms/op")
			b.ReportMetric(median(reuses), "reuse-ms/op")
			b.ReportMetric(median(cmds), "reuse-cmd-ms/op")
			b.ReportMetric(median(loadMB), "load-MB/op")
			b.ReportMetric(median(genMB), "generate-MB/op")
		})
	}
}

// generatorLoad loads the package in dir as generator.Generate loads it:
// in its mode, and with the parser it gives go/packages, which reads of
// the file mcpgen generated before only the imports (it is about to be
// replaced) and resolves no identifiers to ast.Objects.
func generatorLoad(b *testing.B, dir string) {
	b.Helper()
	parse := func(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
		if filepath.Base(filename) != generator.DefaultOutput || !bytes.HasPrefix(src, []byte("// Code generated by mcpgen. DO NOT EDIT.")) {
			return parser.ParseFile(fset, filename, src, parser.AllErrors|parser.ParseComments|parser.SkipObjectResolution)
		}
		f, err := parser.ParseFile(fset, filename, src, parser.ImportsOnly|parser.ParseComments|parser.SkipObjectResolution)
		if err == nil {
			for _, imp := range f.Imports {
				imp.Name = ast.NewIdent("_")
			}
		}
		return f, err
	}
	if _, err := packages.Load(&packages.Config{Mode: loadMode | packages.NeedExportFile | packages.NeedModule, Dir: dir, ParseFile: parse}, "."); err != nil {
		b.Fatal(err)
	}
}

// scaleModule writes a module holding one package with n annotated tools
// and returns its directory. The module requires mcpgen, replaced by this
// repository.
func scaleModule(b *testing.B, n int) string {
	b.Helper()
	repo, err := filepath.Abs("..")
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	gomod := "module example.com/scale\n\ngo 1.26\n\n" +
		"require github.com/mcpgen/mcpgen v0.0.0-00010101000000-000000000000\n\n" +
		"replace github.com/mcpgen/mcpgen => " + repo + "\n"
	write(b, filepath.Join(dir, "go.mod"), gomod)
	if sum, err := os.ReadFile(filepath.Join(repo, "go.sum")); err == nil {
		write(b, filepath.Join(dir, "go.sum"), string(sum))
	}
	write(b, filepath.Join(dir, "tools.go"), scaleSource(n))
	return dir
}

// scaleSource is a package of n tools. Each has its own argument struct with
// constraints; every other tool returns a struct (structured output), the
// rest a string.
func scaleSource(n int) string {
	var s strings.Builder
	s.WriteString("// Package scale is a synthetic package for timing generation.\npackage scale\n\n")
	s.WriteString("import \"context\"\n\n")
	for i := range n {
		fmt.Fprintf(&s, `// Args%[1]d are the arguments of tool %[1]d.
type Args%[1]d struct {
	// Pattern is a glob.
	Pattern string `+"`json:\"pattern\"`"+`
	// Limit caps the number of results.
	Limit int `+"`json:\"limit,omitempty\" jsonschema:\"minimum=1,maximum=100,default=10\"`"+`
	// Recursive descends into subdirectories.
	Recursive bool `+"`json:\"recursive,omitempty\"`"+`
	// Tags filter the results.
	Tags []string `+"`json:\"tags,omitempty\"`"+`
}

`, i)
		if i%2 == 0 {
			fmt.Fprintf(&s, `// Tool%[1]d finds files, variant %[1]d.
//
//mcp:tool readonly
func Tool%[1]d(ctx context.Context, in Args%[1]d) (string, error) {
	return in.Pattern, nil
}

`, i)
		} else {
			fmt.Fprintf(&s, `// Result%[1]d is the answer of tool %[1]d.
type Result%[1]d struct {
	Files []string `+"`json:\"files\"`"+`
	Total int      `+"`json:\"total\"`"+`
}

// Tool%[1]d lists files, variant %[1]d.
//
//mcp:tool readonly
func Tool%[1]d(ctx context.Context, in Args%[1]d) (Result%[1]d, error) {
	return Result%[1]d{Files: []string{in.Pattern}, Total: 1}, nil
}

`, i)
		}
	}
	return s.String()
}

// buildGenerated writes the generated file and builds the package.
func buildGenerated(b *testing.B, dir string, f generator.File) {
	b.Helper()
	write(b, f.Path, string(f.Content))
	defer os.Remove(f.Path)
	cmd := exec.Command("go", "build", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("generated package does not build: %v\n%s", err, out)
	}
}

func write(b *testing.B, path, text string) {
	b.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		b.Fatal(err)
	}
}

func mb(n uint64) float64 { return float64(n) / (1 << 20) }

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

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
