package runtime

import "os"

// terminalHint is logged when ServeStdio starts with a terminal as its
// input: someone ran the server by hand and, without it, would see nothing
// happen. MCP clients start servers with pipes, and never get it.
const terminalHint = "serving MCP on standard input and output: paste one JSON-RPC message per line; end of input (Ctrl-D) or Ctrl-C ends the session"

// hintTerminal logs terminalHint when in is a terminal.
func (s *Server) hintTerminal(in *os.File) {
	if isTerminal(in) {
		s.opts.logger.Info(terminalHint)
	}
}

// isTerminal tells whether f is a character device other than the null
// device: in practice, a terminal. (The standard library has no isatty;
// input redirected from /dev/null, a file or a pipe is no terminal.)
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(fi, null)
}
