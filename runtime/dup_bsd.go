//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package runtime

import "syscall"

func dup2(from, to int) error { return syscall.Dup2(from, to) }
