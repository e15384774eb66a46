//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts the command in a process group of its own, so
// that everything it starts (go run's binary, a shell's children) is
// stopped with it.
func setProcessGroup(c *exec.Cmd) {
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// signalGroup sends sig to the command's process group.
func signalGroup(c *exec.Cmd, sig syscall.Signal) {
	_ = syscall.Kill(-c.Process.Pid, sig)
}
