package main

import (
	"bufio"
	"errors"
	"fmt"
	"log"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/bench/internal/httpwire"
)

// httpTarget is one server process serving Streamable HTTP on a loopback
// port, with sessions or without.
type httpTarget struct {
	server    string // one of allServers
	stateless bool
	cmd       *exec.Cmd
	url       string
	stderr    *tailBuffer

	rates map[int][]float64       // calls per second, one per round, by clients
	lat   map[int][]time.Duration // latencies of every call, all rounds, by clients

	crowdRates []float64       // calls per second at cfg.crowd clients, one per round
	crowdLat   []time.Duration // latencies of every call of those rounds
}

// label names the target in the report.
func (t *httpTarget) label() string {
	switch {
	case t.server == "floor":
		return displayName[t.server]
	case t.stateless:
		return displayName[t.server] + " stateless"
	}
	return displayName[t.server] + " stateful"
}

// httpServers are the servers measured over HTTP, in report order; limit
// has no HTTP side. The floor keeps no sessions and is measured once.
var httpServers = []string{"mcpgen", "floor", "gosdk", "mcpgo"}

// httpTargets lists what is measured over HTTP for the chosen servers.
func httpTargets(cfg config, results map[string]*result) []*httpTarget {
	var ts []*httpTarget
	for _, s := range httpServers {
		if results[s] == nil {
			continue
		}
		for _, stateless := range []bool{false, true} {
			if s == "floor" && !stateless {
				continue
			}
			ts = append(ts, &httpTarget{server: s, stateless: stateless,
				rates: map[int][]float64{}, lat: map[int][]time.Duration{}})
		}
	}
	return ts
}

// start runs the server with -http on a free loopback port and reads the
// endpoint's URL from its first line of output.
func (t *httpTarget) start(path string) error {
	args := []string{"-http", "127.0.0.1:0"}
	if t.stateless && t.server != "floor" {
		args = append(args, "-stateless")
	}
	t.cmd = exec.Command(path, args...)
	t.stderr = &tailBuffer{}
	t.cmd.Stderr = t.stderr
	out, err := t.cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := t.cmd.Start(); err != nil {
		return fmt.Errorf("%s: %v", t.label(), err)
	}
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(out).ReadString('\n')
		line <- strings.TrimSpace(s)
	}()
	select {
	case t.url = <-line:
	case <-time.After(startTimeout):
	}
	if !strings.HasPrefix(t.url, "http://127.0.0.1:") {
		t.stop()
		return fmt.Errorf("%s -http: no endpoint URL on its first line of output (got %q); stderr: %s", t.label(), t.url, t.stderr)
	}
	return nil
}

func (t *httpTarget) stop() {
	if t.cmd != nil && t.cmd.Process != nil {
		t.cmd.Process.Kill()
		t.cmd.Wait()
	}
}

// httpWarmup is the number of untimed calls each client makes after
// initialize, before the timed phase.
const httpWarmup = 20

// httpMaxCalls bounds the calls of one measurement, whatever its length.
const httpMaxCalls = 2_000_000

// measure runs clients concurrent clients against t for d: each initializes
// its own session (untimed), makes httpWarmup calls (untimed), then calls
// in a loop until d has passed; every answer is checked. It returns the
// calls per second over the timed phase and appends every call's latency
// to t.lat[clients].
func (t *httpTarget) measure(clients int, d time.Duration) (float64, error) {
	lat := t.lat[clients]
	rate, err := t.measureInto(clients, d, &lat)
	t.lat[clients] = lat
	return rate, err
}

// measureInto is measure appending the latencies to *lats.
func (t *httpTarget) measureInto(clients int, d time.Duration, lats *[]time.Duration) (float64, error) {
	cs := make([]*httpwire.Client, clients)
	defer func() {
		for _, c := range cs {
			if c != nil {
				c.Close()
			}
		}
	}()
	for i := range cs {
		cs[i] = httpwire.NewClient(t.url)
		if err := cs[i].Initialize(); err != nil {
			return 0, t.fail(err)
		}
		if !t.stateless && t.server != "floor" && cs[i].Session() == "" {
			return 0, t.fail(httpwire.ErrNoSession)
		}
		for range httpWarmup {
			if err := cs[i].Call(); err != nil {
				return 0, t.fail(err)
			}
		}
	}

	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		total int
		first error
	)
	perClient := max(1, httpMaxCalls/clients)
	start := time.Now()
	deadline := start.Add(d)
	for _, c := range cs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lat := make([]time.Duration, 0, 1024)
			var err error
			for range perClient {
				t0 := time.Now()
				if t0.After(deadline) {
					break
				}
				if err = c.Call(); err != nil {
					break
				}
				lat = append(lat, time.Since(t0))
			}
			mu.Lock()
			defer mu.Unlock()
			total += len(lat)
			*lats = append(*lats, lat...)
			if err != nil && first == nil {
				first = err
			}
		}()
	}
	wg.Wait()
	el := time.Since(start)
	if first != nil {
		return 0, t.fail(first)
	}
	if total == 0 {
		return 0, t.fail(errors.New("no call completed"))
	}
	return float64(total) / el.Seconds(), nil
}

func (t *httpTarget) fail(err error) error {
	if tail := t.stderr.String(); tail != "" {
		return fmt.Errorf("%s over HTTP: %v; stderr: %s", t.label(), err, tail)
	}
	return fmt.Errorf("%s over HTTP: %v", t.label(), err)
}

// runHTTP measures every target at every number of clients for
// cfg.httpRounds rounds. Each round visits every number of clients and, for
// each, every target once, starting from a different one each round, so
// that machine drift hits them alike. Every server process is started once
// and serves all its rounds; each measurement opens fresh sessions.
func runHTTP(cfg config, results map[string]*result) ([]*httpTarget, error) {
	ts := httpTargets(cfg, results)
	defer func() {
		for _, t := range ts {
			t.stop()
		}
	}()
	for _, t := range ts {
		if err := t.start(results[t.server].httpPath); err != nil {
			return nil, err
		}
		// One untimed pass, so that no server pays for a cold start.
		if _, err := t.measure(1, cfg.httpDur/10); err != nil {
			return nil, err
		}
		clear(t.lat)
	}
	for round := range cfg.httpRounds {
		for _, n := range cfg.httpClients {
			for i := range ts {
				t := ts[(i+round)%len(ts)]
				rate, err := t.measure(n, cfg.httpDur)
				if err != nil {
					return nil, fmt.Errorf("HTTP round %d, %d clients: %w", round+1, n, err)
				}
				t.rates[n] = append(t.rates[n], rate)
				log.Printf("http round %d/%d %2d clients %-20s %.0f calls/s", round+1, cfg.httpRounds, n, t.label(), rate)
			}
		}
	}
	if err := runCrowd(cfg, ts); err != nil {
		return nil, err
	}
	return ts, nil
}

// parseClients reads the -http-clients list.
func parseClients(s string) ([]int, error) {
	var ns []int
	for f := range strings.SplitSeq(s, ",") {
		var n int
		if _, err := fmt.Sscanf(strings.TrimSpace(f), "%d", &n); err != nil || n < 1 || n > 1024 {
			return nil, fmt.Errorf("-http-clients: %q is not a number of clients in 1..1024", f)
		}
		ns = append(ns, n)
	}
	return ns, nil
}
