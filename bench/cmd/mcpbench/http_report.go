package main

import "fmt"

// httpTargetClients is the number of concurrent clients the HTTP targets
// are stated at.
const httpTargetClients = 16

func (t *httpTarget) rate(n int) float64 { return median(t.rates[n]) }
func (t *httpTarget) p50(n int) float64  { return percentile(durations(t.lat[n]), 50) }
func (t *httpTarget) p99(n int) float64  { return percentile(durations(t.lat[n]), 99) }

// findHTTP returns the target of server in the given mode; the floor,
// which has no sessions, stands for both modes.
func findHTTP(ts []*httpTarget, server string, stateless bool) *httpTarget {
	for _, t := range ts {
		if t.server == server && (t.stateless == stateless || server == "floor") {
			return t
		}
	}
	return nil
}

// httpRatio is one row of the ratio table: a ÷ b.
type httpRatio struct {
	a, b *httpTarget
}

func (r httpRatio) label() string { return r.a.label() + " ÷ " + r.b.label() }

// httpRatios lists the comparisons of the report, those whose both sides
// were measured.
func httpRatios(ts []*httpTarget) []httpRatio {
	var rs []httpRatio
	add := func(a, b *httpTarget) {
		if a != nil && b != nil {
			rs = append(rs, httpRatio{a, b})
		}
	}
	for _, stateless := range []bool{false, true} {
		g := findHTTP(ts, "mcpgen", stateless)
		for _, peer := range []string{"floor", "mcpgo", "gosdk"} {
			add(g, findHTTP(ts, peer, stateless))
		}
	}
	for _, s := range []string{"mcpgen", "gosdk", "mcpgo"} {
		add(findHTTP(ts, s, true), findHTTP(ts, s, false))
	}
	return rs
}

// httpGoal is one HTTP target: a ratio of calls/s at httpTargetClients.
type httpGoal struct {
	label    string
	a, b     string // servers
	sameMode bool   // compare each mode with the same mode of b; else stateless ÷ stateful of a
	met      func(float64) bool
}

var httpGoals = []httpGoal{
	{"≥ 0.8× the HTTP floor", "mcpgen", "floor", true, func(x float64) bool { return x >= 0.8 }},
	{"≥ 1.5× mcp-go", "mcpgen", "mcpgo", true, func(x float64) bool { return x >= 1.5 }},
	{"≥ 5× Go SDK", "mcpgen", "gosdk", true, func(x float64) bool { return x >= 5 }},
	{"stateless within 10% of stateful (0.9× to 1.1×)", "mcpgen", "mcpgen", false, func(x float64) bool { return x >= 0.9 && x <= 1.1 }},
}

// renderHTTP writes the Streamable HTTP section of the report.
func renderHTTP(p func(string, ...any), cfg config, m machine, ts []*httpTarget) {
	if len(ts) == 0 {
		return
	}
	ns := cfg.httpClients
	p("#### Over Streamable HTTP, loopback\n\n")
	p("Each server process serves `/mcp` on 127.0.0.1; N concurrent clients, each with its own connection and (when stateful) its own session, call `search_files` in a loop for %s; %d rounds, servers interleaved. Calls per second: median of rounds; latency: over all calls of all rounds.",
		cfg.httpDur, cfg.httpRounds)
	if m.httpLoad >= 0 {
		p(" Other processes used %.1f%% of the CPU during these measurements.", 100*m.httpLoad)
	}
	p("\n\n")
	p("| server |")
	for _, n := range ns {
		p(" %s: calls/s | p50 (µs) | p99 (µs) |", clientsLabel(n))
	}
	p("\n|---|")
	for range ns {
		p("---:|---:|---:|")
	}
	p("\n")
	for _, t := range ts {
		p("| %s |", t.label())
		for _, n := range ns {
			p(" %.0f | %.0f | %.0f |", t.rate(n), t.p50(n)/1e3, t.p99(n)/1e3)
		}
		p("\n")
	}
	p("\n")

	if rs := httpRatios(ts); len(rs) > 0 {
		p("| ratio |")
		for _, n := range ns {
			p(" %s: calls/s | p99 |", clientsLabel(n))
		}
		p("\n|---|")
		for range ns {
			p("---:|---:|")
		}
		p("\n")
		for _, r := range rs {
			p("| %s |", r.label())
			for _, n := range ns {
				p(" %s | %s |", ratioOrDash(r.a.rate(n), r.b.rate(n)), ratioOrDash(r.a.p99(n), r.b.p99(n)))
			}
			p("\n")
		}
		p("\n")
	}

	have := false
	for _, n := range ns {
		have = have || n == httpTargetClients
	}
	if !have {
		p("HTTP targets not measured: they are stated at %d clients.\n\n", httpTargetClients)
		return
	}
	p("#### HTTP targets (calls/s at %d clients, ratios from this run)\n\n", httpTargetClients)
	p("| target | compared | measured | met |\n|---|---|---:|:---:|\n")
	for _, g := range httpGoals {
		for _, stateless := range []bool{false, true} {
			var a, b *httpTarget
			if g.sameMode {
				a, b = findHTTP(ts, g.a, stateless), findHTTP(ts, g.b, stateless)
			} else if stateless {
				a, b = findHTTP(ts, g.a, true), findHTTP(ts, g.b, false)
			} else {
				continue
			}
			if a == nil || b == nil || b.rate(httpTargetClients) == 0 {
				continue
			}
			x := a.rate(httpTargetClients) / b.rate(httpTargetClients)
			met := "no"
			if g.met(x) {
				met = "yes"
			}
			p("| %s | %s ÷ %s | %s | %s |\n", g.label, a.label(), b.label(), ratio(x), met)
		}
	}
	p("\n")
}

func clientsLabel(n int) string {
	if n == 1 {
		return "1 client"
	}
	return fmt.Sprintf("%d clients", n)
}

func ratioOrDash(a, b float64) string {
	if b == 0 {
		return "—"
	}
	return ratio(a / b)
}
