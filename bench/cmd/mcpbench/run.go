package main

import (
	"fmt"
	"log"
	"time"

	"github.com/mcpgen/mcpgen/bench/internal/wire"
)

// result gathers everything measured for one server over all rounds.
type result struct {
	name     string
	path     string // the stdio server
	httpPath string // the HTTP server; "" for a server measured over stdio only
	size     int64  // the stdio server's size in bytes

	starts    []time.Duration // process start to initialize answer
	seqRates  []float64       // sequential calls per second, one per round
	lat       []time.Duration // sequential latencies, all rounds
	pipeRates []float64       // pipelined calls per second, one per round
	rss       int64           // highest VmHWM of the measured sessions

	schema string   // declared input schema, summarized
	bad    []string // answer to each of badCases
	notes  []string // behaviour worth a mention (exit at end of input)
}

func (r *result) note(s string) {
	for _, n := range r.notes {
		if n == s {
			return
		}
	}
	r.notes = append(r.notes, s)
}

// run measures every server, round-robin: each round visits every server
// once, starting from a different one each round.
func run(cfg config, results map[string]*result) error {
	// One untimed start each, so that no server pays for a cold page cache.
	for _, name := range cfg.servers {
		p, _, err := startProc(name, results[name].path)
		if err != nil {
			return err
		}
		p.close()
	}
	for round := range cfg.rounds {
		for i := range cfg.servers {
			name := cfg.servers[(i+round)%len(cfg.servers)]
			if err := runRound(cfg, results[name], round); err != nil {
				return fmt.Errorf("round %d: %w", round+1, err)
			}
		}
	}
	return nil
}

func runRound(cfg config, r *result, round int) error {
	for range cfg.starts {
		p, d, err := startProc(r.name, r.path)
		if err != nil {
			return err
		}
		r.starts = append(r.starts, d)
		closeProc(r, p)
	}

	p, _, err := startProc(r.name, r.path)
	if err != nil {
		return err
	}
	// Every phase gets a watchdog well past its planned length.
	stop := p.watchdog(2*time.Minute + 4*cfg.duration)
	defer stop()

	for range cfg.warmup {
		if _, err := p.call(); err != nil {
			p.kill()
			return err
		}
	}
	if _, _, err := p.pipelined(cfg.duration/20, cfg.inflight); err != nil {
		p.kill()
		return err
	}

	n, el, lat, err := p.sequential(cfg.duration, r.lat)
	if err != nil {
		p.kill()
		return err
	}
	r.lat = lat
	seq := float64(n) / el.Seconds()
	r.seqRates = append(r.seqRates, seq)

	n, el, err = p.pipelined(cfg.duration, cfg.inflight)
	if err != nil {
		p.kill()
		return err
	}
	pipe := float64(n) / el.Seconds()
	r.pipeRates = append(r.pipeRates, pipe)

	schema, err := p.schemaSummary()
	if err != nil {
		p.kill()
		return err
	}
	if round == 0 {
		r.schema = schema
	}
	for i, c := range wire.BadCases {
		got, err := p.bad(c)
		if err != nil {
			p.kill()
			return err
		}
		if round == 0 {
			r.bad = append(r.bad, got)
		} else if r.bad[i] != got {
			r.note(fmt.Sprintf("answers %s differently across rounds", c.Label))
		}
	}
	// The server must still answer valid calls after the invalid ones.
	if _, err := p.call(); err != nil {
		p.kill()
		return err
	}

	rss, err := p.peakRSS()
	if err != nil {
		p.kill()
		return fmt.Errorf("%s: %v", r.name, err)
	}
	r.rss = max(r.rss, rss)
	if p.notes > 0 {
		r.note(fmt.Sprintf("sent %d notifications unasked", p.notes))
	}
	closeProc(r, p)
	log.Printf("round %d/%d %-6s start %.2fms  seq %.0f/s  pipe %.0f/s  rss %.1fMiB",
		round+1, cfg.rounds, r.name, ms(r.starts[len(r.starts)-1]), seq, pipe, mib(rss))
	return nil
}

func closeProc(r *result, p *proc) {
	exited, clean := p.close()
	switch {
	case !exited:
		r.note("does not exit when its input is closed")
	case !clean:
		r.note("exits with an error status when its input is closed")
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
func us(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
func mib(b int64) float64        { return float64(b) / (1 << 20) }
