//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package runtime_test

import "syscall"

// writeFD1 writes b to file descriptor 1 directly, bypassing os.Stdout.
func writeFD1(b []byte) { syscall.Write(1, b) }

// divertsFD1 reports whether ServeStdio diverts file descriptor 1 itself.
const divertsFD1 = true
