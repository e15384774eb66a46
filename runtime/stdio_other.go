//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package runtime

import "os"

// divertStdout keeps standard output for the protocol and points os.Stdout
// at standard error, so that stray prints through os.Stdout go there.
func divertStdout() (*os.File, func(), error) {
	out := os.Stdout
	os.Stdout = os.Stderr
	return out, func() { os.Stdout = out }, nil
}
