package runtime

import (
	"context"
	"os"
)

// ServeStdio serves one session over standard input and output, the way MCP
// clients launch local servers. It returns when standard input ends, after
// every request in flight has been answered, or when ctx is cancelled.
//
// Only protocol messages reach standard output. For the duration of the
// call, anything else the process writes to standard output — a forgotten
// fmt.Println, a library's progress line — is sent to standard error
// instead, where it cannot corrupt the message stream.
func (s *Server) ServeStdio(ctx context.Context) error {
	out, restore, err := divertStdout()
	if err != nil {
		return err
	}
	defer restore()
	return s.Serve(ctx, os.Stdin, out)
}
