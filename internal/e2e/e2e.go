// Package e2e holds what the examples' end-to-end tests share: a recording
// stdio proxy that an official client launches in place of the server, so
// that every message on the wire can be validated against the MCP schema,
// and a reader of the messages in an HTTP event stream.
package e2e

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
)

// The environment that turns a test binary into a recording proxy.
const (
	EnvProxyTarget = "MCPGEN_E2E_SERVER" // the server command the proxy runs
	EnvProxyLog    = "MCPGEN_E2E_LOG"    // where the proxy records the traffic
)

// RunProxyIfAsked is for a test's TestMain: when the environment names a
// server, the test binary relays stdio between its parent (a client) and
// that server, recording the traffic, and exits with the server's status.
func RunProxyIfAsked() {
	if target := os.Getenv(EnvProxyTarget); target != "" {
		os.Exit(Proxy(target, os.Getenv(EnvProxyLog)))
	}
}

// Proxy runs the server command target (fields separated by spaces),
// relaying stdio both ways and recording each line in logPath with its
// direction: "C " from the client, "S " from the server. It returns the
// exit status for the proxy process.
func Proxy(target, logPath string) int {
	logf, err := os.Create(logPath)
	if err != nil {
		return 1
	}
	defer logf.Close()
	var mu sync.Mutex
	record := func(dir string, line []byte) {
		mu.Lock()
		logf.Write([]byte(dir))
		logf.Write(line)
		mu.Unlock()
	}
	args := strings.Fields(target)
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stderr = os.Stderr
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		return 1
	}
	relay := func(dir string, r io.Reader, w io.Writer, done func()) {
		br := bufio.NewReaderSize(r, 1<<20)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				record(dir, line)
				w.Write(line)
			}
			if err != nil {
				done()
				return
			}
		}
	}
	finished := make(chan struct{})
	go relay("C ", os.Stdin, in, func() { in.Close() })
	go relay("S ", out, os.Stdout, func() { close(finished) })
	<-finished
	if err := cmd.Wait(); err != nil {
		return 1
	}
	return 0
}

// EventData returns the data of each message event of an event stream.
func EventData(stream []byte) [][]byte {
	var events [][]byte
	var data []byte
	name := ""
	sc := bufio.NewScanner(bytes.NewReader(stream))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if data != nil && (name == "" || name == "message") {
				events = append(events, data)
			}
			data, name = nil, ""
		case strings.HasPrefix(line, "event:"):
			name = strings.TrimSpace(strings.TrimPrefix(line, "event:"))
		case strings.HasPrefix(line, "data:"):
			if data != nil {
				data = append(data, '\n')
			}
			data = append(data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " ")...)
		}
	}
	return events
}
