package bench

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// goList runs go list with args in the bench module and returns its output
// fields.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list"}, args...)...).Output()
	if err != nil {
		t.Fatalf("go list %s: %v", strings.Join(args, " "), err)
	}
	return strings.Fields(string(out))
}

// serverCommands are the programs the driver builds: servers/NAME/stdio and
// servers/NAME/http.
func serverCommands(t *testing.T) []string {
	t.Helper()
	cmds := goList(t, "-f", "{{if eq .Name \"main\"}}{{.ImportPath}}{{end}}", "./servers/...")
	if len(cmds) < 9 {
		t.Fatalf("found %d server programs, want a stdio and an HTTP one per server: %q", len(cmds), cmds)
	}
	return cmds
}

// TestServersLinkNoTestCode keeps test-only packages out of the benchmark
// servers: every package a binary links is initialised when it starts, and
// the driver times starts. (The servers' HTTP helper, httpserve, is apart
// from the HTTP client, httpwire, for this reason.)
func TestServersLinkNoTestCode(t *testing.T) {
	testOnly := []string{"testing", "net/http/httptest", "github.com/mcpgen/mcpgen/bench/internal/httpwire"}
	for _, pkg := range serverCommands(t) {
		deps := goList(t, "-deps", pkg)
		for _, p := range testOnly {
			if slices.Contains(deps, p) {
				t.Errorf("%s links %s", pkg, p)
			}
		}
	}
}

// TestStdioServersLinkNoHTTP: the stdio programs of the servers whose own
// code serves stdio without an HTTP stack (mcpgen's, the floor and the
// limit) link no net/http, whose initialisation would count in their start
// time. The SDKs' servers link it whatever they serve.
func TestStdioServersLinkNoHTTP(t *testing.T) {
	const prefix = "github.com/mcpgen/mcpgen/bench/servers/"
	for _, name := range []string{"mcpgen", "floor", "limit"} {
		deps := goList(t, "-deps", "./servers/"+name+"/stdio")
		if !slices.Contains(deps, prefix+name) {
			t.Fatalf("servers/%s/stdio does not link %s%s: %q", name, prefix, name, deps)
		}
		for _, p := range []string{"net/http", "net", "crypto/tls", "github.com/mcpgen/mcpgen/runtime/mcphttp"} {
			if slices.Contains(deps, p) {
				t.Errorf("servers/%s/stdio links %s", name, p)
			}
		}
	}
}
