package main

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseClients(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []int
	}{
		{"1,16,64", []int{1, 16, 64}},
		{" 8 ", []int{8}},
		{"0", nil},
		{"1,x", nil},
		{"2000", nil},
	} {
		got, err := parseClients(tc.in)
		if tc.want == nil {
			if err == nil {
				t.Errorf("parseClients(%q) = %v, want an error", tc.in, got)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("parseClients(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestRenderHTTP(t *testing.T) {
	rate := map[string]float64{
		"mcpgen stateful": 20000, "mcpgen stateless": 21000, "floor": 22000,
		"Go SDK stateful": 2000, "Go SDK stateless": 5000,
		"mcp-go stateful": 10000, "mcp-go stateless": 15000,
	}
	var ts []*httpTarget
	for _, s := range httpServers {
		for _, stateless := range []bool{false, true} {
			if s == "floor" && !stateless {
				continue
			}
			tg := &httpTarget{server: s, stateless: stateless, rates: map[int][]float64{}, lat: map[int][]time.Duration{}}
			tg.rates[16] = []float64{rate[tg.label()]}
			tg.lat[16] = []time.Duration{time.Millisecond}
			ts = append(ts, tg)
		}
	}
	var b bytes.Buffer
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	renderHTTP(p, config{httpClients: []int{16}, httpDur: time.Second, httpRounds: 1}, machine{httpLoad: -1}, ts)
	out := b.String()
	for _, want := range []string{
		"| mcpgen stateful | 20000 | 1000 | 1000 |",
		"| mcpgen stateless ÷ mcpgen stateful | 1.05× | 1.00× |",
		"| ≥ 0.8× the HTTP floor | mcpgen stateful ÷ floor | 0.91× | yes |",
		"| ≥ 1.5× mcp-go | mcpgen stateless ÷ mcp-go stateless | 1.40× | no |",
		"| ≥ 5× Go SDK | mcpgen stateful ÷ Go SDK stateful | 10.00× | yes |",
		"| ≥ 5× Go SDK | mcpgen stateless ÷ Go SDK stateless | 4.20× | no |",
		"| stateless within 10% of stateful (0.9× to 1.1×) | mcpgen stateless ÷ mcpgen stateful | 1.05× | yes |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}
