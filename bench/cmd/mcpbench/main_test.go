package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestReadmeWithReport(t *testing.T) {
	path := filepath.Join(t.TempDir(), "README.md")
	orig := "# x\n\n" + beginMarker + "\nold\n" + endMarker + "\ntail\n"
	if err := os.WriteFile(path, []byte(orig), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := readmeWithReport(path, "new\n")
	if err != nil {
		t.Fatal(err)
	}
	want := "# x\n\n" + beginMarker + "\nnew\n" + endMarker + "\ntail\n"
	if string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if err := os.WriteFile(path, []byte("no markers"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readmeWithReport(path, "new\n"); err == nil {
		t.Error("no error for a README without markers")
	}
}

func TestBenchRE(t *testing.T) {
	m := benchRE.FindStringSubmatch("BenchmarkCall/gosdk/pipe-2         	   10971	    106181 ns/op	  235199 B/op	     153 allocs/op")
	if m == nil || m[1] != "gosdk/pipe" || m[2] != "106181" || m[3] != "235199" || m[4] != "153" {
		t.Errorf("got %q", m)
	}
	g := parseGen([]byte("BenchmarkGenerate/tools=200-2   	       3	 812345678 ns/op	       77.51 generate-MB/op	       601.2 generate-ms/op	       35.34 load-MB/op	       410.9 load-ms/op	       190.3 own-ms/op	       330.1 genload-ms/op	       271.1 emit-ms/op	       420.5 reuse-ms/op\nPASS\n"))
	want := []genLine{{tools: "200", load: 410.9, generate: 601.2, own: 190.3, genLoad: 330.1, emit: 271.1, reuse: 420.5, loadMB: 35.34, generateMB: 77.51}}
	if !slices.Equal(g, want) {
		t.Errorf("got %+v, want %+v", g, want)
	}
}

func TestStats(t *testing.T) {
	if got := median([]float64{3, 1, 2}); got != 2 {
		t.Errorf("median = %v", got)
	}
	if got := median([]float64{4, 1, 2, 3}); got != 2.5 {
		t.Errorf("median = %v", got)
	}
	v := make([]float64, 100)
	for i := range v {
		v[i] = float64(100 - i)
	}
	if p50, p99 := percentile(v, 50), percentile(v, 99); p50 != 50 || p99 != 99 {
		t.Errorf("p50 = %v, p99 = %v", p50, p99)
	}
}

func TestRatio(t *testing.T) {
	for x, want := range map[float64]string{1.6: "1.60×", 0.45: "0.45×", 0.0022: "0.0022×", 0.05: "0.05×", 0: "0.00×"} {
		if got := ratio(x); got != want {
			t.Errorf("ratio(%v) = %q, want %q", x, got, want)
		}
	}
}
