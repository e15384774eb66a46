package main

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHTTPPhasesAgainstMcpgen runs the idle-sessions phase and the crowd
// phase against the mcpgen server, at a small size.
func TestHTTPPhasesAgainstMcpgen(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a server")
	}
	bin := filepath.Join(t.TempDir(), "mcpgen")
	if out, err := exec.Command("go", "build", "-o", bin, "../../servers/mcpgen/http").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	const sessions = 300
	r, err := measureIdle("mcpgen", bin, sessions, 50*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if r.sessions != sessions || r.base <= 0 || r.rss <= 0 || r.hwm < r.rss || r.open <= 0 {
		t.Errorf("idle result %+v", r)
	}

	tg := &httpTarget{server: "mcpgen", rates: map[int][]float64{}, lat: map[int][]time.Duration{}}
	if err := tg.start(bin); err != nil {
		t.Fatal(err)
	}
	defer tg.stop()
	cfg := config{crowd: 8, httpDur: 100 * time.Millisecond, httpRounds: 2}
	if err := runCrowd(cfg, []*httpTarget{tg}); err != nil {
		t.Fatal(err)
	}
	if len(tg.crowdRates) != 2 || tg.crowdRate() <= 0 || len(tg.crowdLat) == 0 || len(tg.lat) != 0 {
		t.Errorf("crowd: rates %v, %d latencies, other latencies %v", tg.crowdRates, len(tg.crowdLat), tg.lat)
	}
}

func TestRenderIdle(t *testing.T) {
	rs := []*idleResult{
		{server: "mcpgen", sessions: 1000, base: 10 << 20, rss: 14 << 20, hwm: 15 << 20, open: time.Second},
		{server: "gosdk", sessions: 1000, base: 15 << 20, rss: 31 << 20, hwm: 40 << 20, open: 4 * time.Second},
		{server: "mcpgo", sessions: 1000, base: 15 << 20, rss: 23 << 20, hwm: 30 << 20, open: 2 * time.Second},
	}
	var b strings.Builder
	renderIdle(func(f string, a ...any) { fmt.Fprintf(&b, f, a...) }, config{}, machine{idleLoad: 0.25}, rs)
	out := b.String()
	for _, want := range []string{
		"#### 1000 idle sessions over Streamable HTTP",
		"Other processes used 25.0% of the CPU during this phase.",
		"| mcpgen stateful | 10.0 | 14.0 | 15.0 | 4.1 | 1000 |",
		"| Go SDK stateful | 15.0 | 31.0 | 40.0 | 16.4 | 250 |",
		"| mcpgen ÷ Go SDK | 0.45× | 0.38× | 0.25× | 4.00× |",
		"| mcpgen ÷ mcp-go | 0.61× | 0.50× | 0.50× | 2.00× |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

func TestRenderCrowd(t *testing.T) {
	var ts []*httpTarget
	for _, c := range []struct {
		server    string
		stateless bool
		rate      float64
		lat       time.Duration
	}{
		{"mcpgen", false, 6000, 40 * time.Millisecond},
		{"mcpgen", true, 7000, 30 * time.Millisecond},
		{"floor", true, 6600, 40 * time.Millisecond},
		{"gosdk", false, 2000, 120 * time.Millisecond},
		{"mcpgo", false, 3000, 80 * time.Millisecond},
	} {
		ts = append(ts, &httpTarget{server: c.server, stateless: c.stateless,
			crowdRates: []float64{c.rate}, crowdLat: []time.Duration{c.lat}})
	}
	var b strings.Builder
	renderCrowd(func(f string, a ...any) { fmt.Fprintf(&b, f, a...) }, config{crowd: 256, httpDur: time.Second, httpRounds: 1}, machine{httpLoad: 0.5}, ts)
	out := b.String()
	for _, want := range []string{
		"#### 256 concurrent clients over Streamable HTTP",
		"| mcpgen stateful | 6000 | 40.0 | 40.0 |",
		"Other processes used 50.0% of the CPU during the HTTP measurements, these included.",
		"| mcpgen stateful ÷ floor | 0.91× | 1.00× | 1.00× |",
		"| mcpgen stateful ÷ Go SDK stateful | 3.00× | 0.33× | 0.33× |",
		"| mcpgen stateful ÷ mcp-go stateful | 2.00× | 0.50× | 0.50× |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "mcpgen stateless") {
		t.Errorf("the crowd table shows a stateless target:\n%s", out)
	}
}

func TestFileLimitCheck(t *testing.T) {
	for _, tc := range []struct {
		cur     uint64
		clients int
		ok      bool
	}{
		{20000, 256, true},
		{320, 256, true},
		{319, 256, false},
		{1024, 4096, false},
	} {
		err := fileLimitCheck(tc.cur, tc.clients)
		if (err == nil) != tc.ok {
			t.Errorf("fileLimitCheck(%d, %d) = %v, want ok %v", tc.cur, tc.clients, err, tc.ok)
		}
	}
}
