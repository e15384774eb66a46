package runtime

import (
	"context"
	"os"
)

// ServeStdio serves one session over standard input and output, the way MCP
// clients launch local servers. It ends at the end of standard input or
// when ctx is cancelled, at most the grace period later (see [Server.Serve]
// and [WithShutdownGrace]), whether or not the client still writes or
// reads. It returns nil unless a read or a write failed: cancel ctx on
// SIGINT and SIGTERM with signal.NotifyContext, and a shutdown asked for
// exits with status 0.
//
// A read of standard input blocked in the operating system cannot be
// interrupted when standard input is a pipe or a terminal; ServeStdio does
// not wait for it. The goroutine that reads ends with the process, and
// whatever it reads after ServeStdio returned is discarded.
//
// Only protocol messages reach standard output. For the duration of the
// call, anything else the process writes to standard output — a forgotten
// fmt.Println, a library's progress line — is sent to standard error
// instead, where it cannot corrupt the message stream.
//
// Started with a terminal as standard input, by hand rather than by a
// client, it logs how to talk to it.
func (s *Server) ServeStdio(ctx context.Context) error {
	out, restore, err := divertStdout()
	if err != nil {
		return err
	}
	defer restore()
	s.hintTerminal(os.Stdin)
	return s.Serve(ctx, os.Stdin, out)
}
