package generator_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/generator"
	"github.com/mcpgen/mcpgen/internal/mcpschema"
	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden with the current output")

// A golden case is a txtar archive in testdata/golden: the files of one
// package, plus what generating it must give — mcp_gen.go, or a file
// "errors" listing every diagnostic. A success case whose package is main
// may add "session.txt": requests ("-> " lines) sent to the built server
// over stdio after initialize, each followed by the response it must get
// ("<- " lines), compared as JSON.
func TestGolden(t *testing.T) {
	paths, err := filepath.Glob("testdata/golden/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no golden cases: %v", err)
	}
	mod := generator.TestModule(t, "golden", nil)

	type gcase struct {
		name, path, dir string
		arc             *txtar.Archive
		session         []byte
	}
	var cases []*gcase
	for _, p := range paths {
		arc, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		c := &gcase{name: strings.TrimSuffix(filepath.Base(p), ".txtar"), path: p, arc: arc}
		c.dir = filepath.Join(mod, c.name)
		for _, f := range arc.Files {
			switch f.Name {
			case generator.DefaultOutput, "errors":
			case "session.txt":
				c.session = f.Data
			default:
				generator.WriteTestFile(t, filepath.Join(c.dir, f.Name), string(f.Data))
			}
		}
		cases = append(cases, c)
	}

	var servers []*gcase
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files, err := generator.Generate(generator.Config{Dir: c.dir})
			var got, want []byte
			name := generator.DefaultOutput
			if err != nil {
				var diags generator.Diagnostics
				if !errors.As(err, &diags) {
					t.Fatalf("Generate: %v", err)
				}
				got = []byte(diags.Relative(c.dir).Error() + "\n")
				name = "errors"
			} else {
				if len(files) != 1 {
					t.Fatalf("Generate returned %d files, want 1", len(files))
				}
				got = files[0].Content
				generator.WriteTestFile(t, files[0].Path, string(got))
			}
			want = archiveFile(c.arc, name)
			if err == nil && c.session != nil {
				servers = append(servers, c)
			}
			if *update {
				setArchiveFile(c.arc, name, got)
				return
			}
			if want == nil {
				t.Fatalf("got %s, but the case has no %q file:\n%s", name, name, got)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the golden file (run go test ./generator -run TestGolden -update to accept):\n%s", name, lineDiff(want, got))
			}
		})
	}
	if len(servers) > 0 {
		bin := filepath.Join(mod, "bin")
		cmd := exec.Command("go", "build", "-o", bin+string(filepath.Separator), "./...")
		cmd.Dir = mod
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("building the generated packages: %v\n%s", err, out)
		}
		vet := exec.Command("go", "vet", "./...")
		vet.Dir = mod
		if out, err := vet.CombinedOutput(); err != nil {
			t.Fatalf("go vet of the generated packages: %v\n%s", err, out)
		}
		for _, c := range servers {
			t.Run(c.name+"/session", func(t *testing.T) {
				srv := startServer(t, filepath.Join(bin, c.name))
				got := runSession(srv, c.session)
				if *update {
					setArchiveFile(c.arc, "session.txt", got)
					return
				}
				compareSession(t, c.session, got)
				checkOutputs(t, srv, got)
				checkAgreement(t, srv, c.session)
				checkValidInstances(t, srv)
			})
		}
	}
	if *update {
		for _, c := range cases {
			if err := os.WriteFile(c.path, txtar.Format(c.arc), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func archiveFile(a *txtar.Archive, name string) []byte {
	for _, f := range a.Files {
		if f.Name == name {
			return f.Data
		}
	}
	return nil
}

func setArchiveFile(a *txtar.Archive, name string, data []byte) {
	for i := range a.Files {
		switch a.Files[i].Name {
		case name:
			a.Files[i].Data = data
			return
		case generator.DefaultOutput, "errors":
			if name == generator.DefaultOutput || name == "errors" {
				a.Files[i] = txtar.File{Name: name, Data: data}
				return
			}
		}
	}
	a.Files = append(a.Files, txtar.File{Name: name, Data: data})
}

// server is a generated server process, initialized, with every message
// it writes validated against the MCP schema of the negotiated revision.
type server struct {
	t      *testing.T
	stdin  io.WriteCloser
	lines  chan string
	stderr *bytes.Buffer
	tr     *mcpschema.Tracker
}

// startServer starts bin and initializes it; the server is stopped, and
// must exit cleanly, when the test ends.
func startServer(t *testing.T, bin string) *server {
	t.Helper()
	mcpschema.RequireAll(t)
	cmd := exec.Command(bin)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &server{t: t, stdin: stdin, lines: make(chan string), stderr: new(bytes.Buffer), tr: mcpschema.NewTracker()}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("server exited with %v; stderr:\n%s", err, s.stderr.String())
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Errorf("server did not exit after stdin closed")
		}
	})
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	s.call(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"golden","version":"0"}}}`)
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return s
}

func (s *server) send(line string) {
	s.tr.Client([]byte(line))
	if _, err := io.WriteString(s.stdin, line+"\n"); err != nil {
		s.t.Fatal(err)
	}
}

// call sends a request and returns the answer, after checking it against
// the schema.
func (s *server) call(line string) string {
	s.send(line)
	select {
	case l, ok := <-s.lines:
		if !ok {
			s.t.Fatalf("server closed stdout; stderr:\n%s", s.stderr.String())
		}
		if err := s.tr.Server([]byte(l)); err != nil {
			s.t.Errorf("server message does not validate against the %s schema: %v\n%s", s.tr.Revision(), err, l)
		}
		return l
	case <-time.After(10 * time.Second):
		s.t.Fatalf("no response within 10s; stderr:\n%s", s.stderr.String())
	}
	return ""
}

// runSession sends each "-> " line of script to the server and returns the
// script with every "<- " line replaced by the response received.
func runSession(s *server, script []byte) []byte {
	var out bytes.Buffer
	for _, line := range strings.Split(strings.TrimRight(string(script), "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, "-> "):
			out.WriteString(line + "\n")
			out.WriteString("<- " + s.call(strings.TrimPrefix(line, "-> ")) + "\n")
		case strings.HasPrefix(line, "<-"):
		default:
			out.WriteString(line + "\n")
		}
	}
	return out.Bytes()
}

// compareSession compares responses as JSON values.
func compareSession(t *testing.T, want, got []byte) {
	t.Helper()
	wl := strings.Split(strings.TrimRight(string(want), "\n"), "\n")
	gl := strings.Split(strings.TrimRight(string(got), "\n"), "\n")
	if len(wl) != len(gl) {
		t.Fatalf("session has %d lines, want %d:\n%s", len(gl), len(wl), got)
	}
	for i := range wl {
		if !strings.HasPrefix(wl[i], "<- ") {
			continue
		}
		var w, g any
		if err := json.Unmarshal([]byte(strings.TrimPrefix(wl[i], "<- ")), &w); err != nil {
			t.Fatalf("golden line %d is not JSON: %v", i+1, err)
		}
		if err := json.Unmarshal([]byte(strings.TrimPrefix(gl[i], "<- ")), &g); err != nil {
			t.Fatalf("response %d is not JSON: %v\n%s", i+1, err, gl[i])
		}
		wb, _ := json.Marshal(w)
		gb, _ := json.Marshal(g)
		if !bytes.Equal(wb, gb) {
			t.Errorf("response to %s\n got: %s\nwant: %s", gl[i-1], gl[i], wl[i])
		}
	}
}

// lineDiff shows the first lines where want and got differ.
func lineDiff(want, got []byte) string {
	wl := strings.Split(string(want), "\n")
	gl := strings.Split(string(got), "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d:\nwant: %q\n got: %q", i+1, w, g)
		}
	}
	return "(no line differs)"
}
