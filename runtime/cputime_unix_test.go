//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package runtime_test

import (
	"syscall"
	"testing"
	"time"
)

// reportCPU, deferred with its result called after a benchmark's loop,
// reports the process's CPU time (user and system) per operation as
// cpu-ns/op: on a shared machine it moves less than the elapsed time,
// which counts the waits for a processor.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() {
		if n := b.N; n > 0 {
			b.ReportMetric(float64(cpuTime()-start)/float64(n), "cpu-ns/op")
		}
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
