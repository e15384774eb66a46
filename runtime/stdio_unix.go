//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package runtime

import (
	"os"
	"syscall"
)

// divertStdout gives the protocol a private copy of file descriptor 1 and
// points descriptor 1 (and os.Stdout) at standard error, so that stray
// writes, even from C code or child processes, go to standard error.
func divertStdout() (*os.File, func(), error) {
	syscall.ForkLock.Lock()
	defer syscall.ForkLock.Unlock()
	fd, err := syscall.Dup(1)
	if err != nil {
		return nil, nil, err
	}
	syscall.CloseOnExec(fd)
	if err := dup2(2, 1); err != nil {
		syscall.Close(fd)
		return nil, nil, err
	}
	out := os.NewFile(uintptr(fd), "mcp-stdout")
	stdout := os.Stdout
	os.Stdout = os.Stderr
	restore := func() {
		dup2(fd, 1)
		os.Stdout = stdout
		out.Close()
	}
	return out, restore, nil
}
