//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package runtime_test

import "testing"

// reportCPU reports nothing: this system has no getrusage.
func reportCPU(*testing.B) func() { return func() {} }
