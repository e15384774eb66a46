package main

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// cpuSample is what the machine and this process tree had used of the CPU
// at one moment, for telling how much other processes took during a run.
type cpuSample struct {
	at      time.Time
	busy    time.Duration // all CPUs, from /proc/stat
	ours    time.Duration // this process and its waited-for children
	hasBusy bool
}

// clockTick is USER_HZ, the unit of /proc/stat on Linux.
const clockTick = 10 * time.Millisecond

func sampleCPU() cpuSample {
	s := cpuSample{at: time.Now()}
	if b, err := os.ReadFile("/proc/stat"); err == nil {
		line, _, _ := strings.Cut(string(b), "\n")
		f := strings.Fields(line)
		if len(f) >= 9 && f[0] == "cpu" {
			// user nice system idle iowait irq softirq steal
			for _, i := range []int{1, 2, 3, 6, 7, 8} {
				n, _ := strconv.ParseInt(f[i], 10, 64)
				s.busy += time.Duration(n) * clockTick
			}
			s.hasBusy = true
		}
	}
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if syscall.Getrusage(who, &ru) == nil {
			s.ours += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		}
	}
	return s
}

// otherLoad returns the share of the machine's CPU capacity (0..1) that
// processes other than this run used between a and b.
func otherLoad(a, b cpuSample, cores int) (float64, bool) {
	wall := b.at.Sub(a.at)
	if !a.hasBusy || !b.hasBusy || wall <= 0 || cores < 1 {
		return 0, false
	}
	other := (b.busy - a.busy) - (b.ours - a.ours)
	return max(0, float64(other)/float64(wall*time.Duration(cores))), true
}
