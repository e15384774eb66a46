package main

import (
	"fmt"
	"log"
	"syscall"
)

// fileLimitCheck says whether a process may open files enough for clients
// connections and some to spare; Go raises the soft RLIMIT_NOFILE to the
// hard one at start, so cur is what the driver and each server may use.
func fileLimitCheck(cur uint64, clients int) error {
	if need := uint64(clients) + 64; cur < need {
		return fmt.Errorf("%d concurrent clients need %d open files, but the limit (RLIMIT_NOFILE) is %d: raise it (ulimit -n) or lower -crowd", clients, need, cur)
	}
	return nil
}

// crowdTargets are the targets measured with cfg.crowd clients: every
// server with sessions, and the floor.
func crowdTargets(ts []*httpTarget) []*httpTarget {
	var cs []*httpTarget
	for _, t := range ts {
		if !t.stateless || t.server == "floor" {
			cs = append(cs, t)
		}
	}
	return cs
}

// runCrowd measures the crowd targets with cfg.crowd concurrent clients,
// each with a connection and a session of its own, for cfg.httpRounds
// rounds, starting from a different target each round.
func runCrowd(cfg config, ts []*httpTarget) error {
	if cfg.crowd <= 0 {
		return nil
	}
	var lim syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim) == nil {
		if err := fileLimitCheck(lim.Cur, cfg.crowd); err != nil {
			return err
		}
	}
	cs := crowdTargets(ts)
	for round := range cfg.httpRounds {
		for i := range cs {
			t := cs[(i+round)%len(cs)]
			rate, err := t.measureInto(cfg.crowd, cfg.httpDur, &t.crowdLat)
			if err != nil {
				return fmt.Errorf("HTTP round %d, %d clients: %w", round+1, cfg.crowd, err)
			}
			t.crowdRates = append(t.crowdRates, rate)
			log.Printf("http round %d/%d %d clients %-20s %.0f calls/s", round+1, cfg.httpRounds, cfg.crowd, t.label(), rate)
		}
	}
	return nil
}

func (t *httpTarget) crowdRate() float64 { return median(t.crowdRates) }
func (t *httpTarget) crowdP50() float64  { return percentile(durations(t.crowdLat), 50) }
func (t *httpTarget) crowdP99() float64  { return percentile(durations(t.crowdLat), 99) }

// renderCrowd writes the table of the crowd phase and mcpgen's ratios to
// each other target.
func renderCrowd(p func(string, ...any), cfg config, m machine, ts []*httpTarget) {
	var cs []*httpTarget
	for _, t := range crowdTargets(ts) {
		if len(t.crowdRates) > 0 {
			cs = append(cs, t)
		}
	}
	if len(cs) == 0 {
		return
	}
	p("#### %d concurrent clients over Streamable HTTP\n\n", cfg.crowd)
	p("The same server processes as above; %d clients at once, each with its own connection and session (the floor keeps none), call `search_files` in a loop for %s, after %d untimed calls each; %d rounds, servers interleaved. Calls per second: median of rounds; latency: over all calls of all rounds.",
		cfg.crowd, cfg.httpDur, httpWarmup, cfg.httpRounds)
	if m.httpLoad >= 0 {
		p(" Other processes used %.1f%% of the CPU during the HTTP measurements, these included.", 100*m.httpLoad)
	}
	p("\n\n")
	p("| server | calls/s | p50 (ms) | p99 (ms) |\n|---|---:|---:|---:|\n")
	var g *httpTarget
	for _, t := range cs {
		p("| %s | %.0f | %.1f | %.1f |\n", t.label(), t.crowdRate(), t.crowdP50()/1e6, t.crowdP99()/1e6)
		if t.server == "mcpgen" {
			g = t
		}
	}
	p("\n")
	if g == nil || len(cs) < 2 {
		return
	}
	p("| ratio | calls/s | p50 | p99 |\n|---|---:|---:|---:|\n")
	for _, t := range cs {
		if t == g {
			continue
		}
		p("| %s ÷ %s | %s | %s | %s |\n", g.label(), t.label(), ratioOrDash(g.crowdRate(), t.crowdRate()),
			ratioOrDash(g.crowdP50(), t.crowdP50()), ratioOrDash(g.crowdP99(), t.crowdP99()))
	}
	p("\n")
}
