//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package runtime_test

// writeFD1 does nothing: on this system ServeStdio diverts only os.Stdout.
func writeFD1([]byte) {}

// divertsFD1 reports whether ServeStdio diverts file descriptor 1 itself.
const divertsFD1 = false
