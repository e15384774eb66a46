//go:build !unix

package main

import (
	"os/exec"
	"syscall"
)

// setProcessGroup does nothing where there are no process groups.
func setProcessGroup(c *exec.Cmd) {}

// signalGroup kills the command: without process groups, any process
// it started lives on.
func signalGroup(c *exec.Cmd, sig syscall.Signal) {
	_ = c.Process.Kill()
}
