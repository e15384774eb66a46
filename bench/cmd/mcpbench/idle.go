package main

import (
	"fmt"
	"log"
	"time"

	"github.com/mcpgen/mcpgen/bench/internal/httpwire"
)

// idleResult is what one server process holds with many idle sessions.
type idleResult struct {
	server   string
	sessions int
	base     int64         // VmRSS before the sessions were opened
	rss      int64         // VmRSS with every session open
	hwm      int64         // VmHWM then: the peak, opening included
	open     time.Duration // to open them all
}

// perSession is the growth of the resident set per session, in bytes.
func (r *idleResult) perSession() float64 {
	return float64(r.rss-r.base) / float64(r.sessions)
}

// idleServers are the servers that keep sessions, in report order.
var idleServers = []string{"mcpgen", "gosdk", "mcpgo"}

// idleConns is the number of keep-alive connections the sessions are
// opened over: a session is state on the server, not a connection.
const idleConns = 16

// idleSettle is how long a server is left alone before its resident set
// is read, so that what opening the sessions started has settled.
const idleSettle = 2 * time.Second

// idleChecks is the number of sessions, spread over all, that make a call
// after the measurement, to show that the server still holds them.
const idleChecks = 20

// runIdle measures, for each server that keeps sessions, the resident set
// of a fresh process holding n idle sessions.
func runIdle(cfg config, results map[string]*result) ([]*idleResult, error) {
	var rs []*idleResult
	for _, s := range idleServers {
		if results[s] == nil {
			continue
		}
		r, err := measureIdle(s, results[s].httpPath, cfg.idleSessions, idleSettle)
		if err != nil {
			return nil, err
		}
		rs = append(rs, r)
	}
	return rs, nil
}

// measureIdle starts the server with sessions over HTTP, warms it up with
// idleConns sessions that make a few calls and end, leaves it alone for
// settle and reads its resident set; then it opens n sessions (initialize
// and notifications/initialized, nothing more) over idleConns keep-alive
// connections, leaves it alone for settle again and reads the resident set
// and its peak. Afterwards a call in idleChecks of the sessions, spread
// over all, must succeed.
func measureIdle(server, path string, n int, settle time.Duration) (*idleResult, error) {
	t := &httpTarget{server: server}
	if err := t.start(path); err != nil {
		return nil, err
	}
	defer t.stop()
	pid := t.cmd.Process.Pid
	pool := httpwire.NewPool(idleConns)
	defer pool.CloseIdleConnections()

	warm, err := httpwire.OpenSessions(t.url, pool, idleConns, idleConns)
	if err == nil {
		for range httpWarmup {
			if err = httpwire.CheckSessions(warm, 1); err != nil {
				break
			}
		}
	}
	if cerr := httpwire.CloseSessions(warm, idleConns); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, t.fail(fmt.Errorf("warming up: %v", err))
	}
	time.Sleep(settle)
	r := &idleResult{server: server, sessions: n}
	if r.base, err = procStatus(pid, "VmRSS:"); err != nil {
		return nil, err
	}

	t0 := time.Now()
	cs, err := httpwire.OpenSessions(t.url, pool, n, idleConns)
	r.open = time.Since(t0)
	if err != nil {
		return nil, t.fail(fmt.Errorf("opening %d sessions: %v", n, err))
	}
	time.Sleep(settle)
	if r.rss, err = procStatus(pid, "VmRSS:"); err != nil {
		return nil, err
	}
	if r.hwm, err = procStatus(pid, "VmHWM:"); err != nil {
		return nil, err
	}
	if err := httpwire.CheckSessions(cs, max(1, n/idleChecks)); err != nil {
		return nil, t.fail(fmt.Errorf("after %d idle sessions were opened: %v", n, err))
	}
	log.Printf("idle %-8s %d sessions in %.1fs: RSS %.1f → %.1f MiB, %.1f KiB per session",
		server, n, r.open.Seconds(), mib(r.base), mib(r.rss), r.perSession()/1024)
	return r, nil
}

// renderIdle writes the table of idle sessions.
func renderIdle(p func(string, ...any), cfg config, m machine, rs []*idleResult) {
	if len(rs) == 0 {
		return
	}
	n := rs[0].sessions
	p("#### %d idle sessions over Streamable HTTP\n\n", n)
	p("A fresh process of each server that keeps sessions serves `/mcp` on 127.0.0.1; after %d warm-up sessions of %d calls each, ended with `DELETE`, and %s alone, its resident set is read (before); then %d sessions are opened, %d at a time over %d keep-alive connections: `initialize` and `notifications/initialized`, then nothing (no `GET` stream, no call). After %s alone the resident set is read again (with sessions), and its peak (VmHWM, which includes opening them); per session is (with sessions − before) ÷ %d. A call in %d of the sessions, spread over all, must then succeed.",
		idleConns, httpWarmup, idleSettle, n, idleConns, idleConns, idleSettle, n, idleChecks)
	if m.idleLoad >= 0 {
		p(" Other processes used %.1f%% of the CPU during this phase.", 100*m.idleLoad)
	}
	p("\n\n")
	p("| server | RSS before (MiB) | RSS with %d sessions (MiB) | peak RSS, VmHWM (MiB) | per session (KiB) | sessions opened per second |\n", n)
	p("|---|---:|---:|---:|---:|---:|\n")
	for _, r := range rs {
		p("| %s stateful | %.1f | %.1f | %.1f | %.1f | %.0f |\n", displayName[r.server],
			mib(r.base), mib(r.rss), mib(r.hwm), r.perSession()/1024, float64(r.sessions)/r.open.Seconds())
	}
	p("\n")
	var g *idleResult
	for _, r := range rs {
		if r.server == "mcpgen" {
			g = r
		}
	}
	if g == nil || len(rs) < 2 {
		return
	}
	p("| ratio | RSS with sessions | peak RSS | per session | sessions opened per second |\n|---|---:|---:|---:|---:|\n")
	for _, r := range rs {
		if r == g {
			continue
		}
		p("| mcpgen ÷ %s | %s | %s | %s | %s |\n", displayName[r.server],
			ratioOrDash(float64(g.rss), float64(r.rss)), ratioOrDash(float64(g.hwm), float64(r.hwm)),
			ratioOrDash(g.perSession(), r.perSession()),
			ratioOrDash(float64(g.sessions)/g.open.Seconds(), float64(r.sessions)/r.open.Seconds()))
	}
	p("\n")
}
