package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"mcpgen": func() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) },
	})
}

// inherited are the variables passed from the test's environment to the
// scripts, so that the go command they run finds the real module and build
// caches, proxy and toolchain settings and downloads or rebuilds nothing
// it already has.
var inherited = []string{
	"HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME",
	"GOENV", "GOPATH", "GOCACHE", "GOMODCACHE", "GOTMPDIR",
	"GOPROXY", "GONOPROXY", "GOSUMDB", "GONOSUMDB", "GOPRIVATE", "GOINSECURE", "GOVCS",
	"GOTOOLCHAIN", "CGO_ENABLED",
}

// oldTime is the modification time backdate gives files.
var oldTime = time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)

// TestScripts runs testdata/script/*.txtar. Each script starts in $WORK,
// the root of module example.com/m, which requires this repository
// ($MCPGEN_ROOT) through a replace directive and starts from its go.sum.
//
// Besides the standard commands, scripts have:
//
//	status code command [args...]
//	    run command like exec and fail unless it exits with code;
//	    stdout and stderr can be inspected afterwards.
//	backdate file...
//	    set the files' modification time to 2001-01-01.
//	[!] backdated file...
//	    check that the files still have that modification time, i.e.
//	    nothing has written them since backdate.
//	freeport VAR
//	    set VAR to a free TCP port on 127.0.0.1.
//	mcppost URL JSON
//	    post a JSON-RPC message to URL, waiting up to 30s for a listener,
//	    and print the response's status and body.
//	waitfile file regexp
//	    wait up to 60s until the file's content matches regexp (multi-line).
func TestScripts(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	goSum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup: func(env *testscript.Env) error {
			for _, k := range inherited {
				if v, ok := os.LookupEnv(k); ok {
					env.Setenv(k, v)
				}
			}
			if _, ok := os.LookupEnv("GORACE"); !ok {
				// Under -race, mcpgen is a race-enabled binary that would
				// otherwise wait a second before every exit.
				env.Setenv("GORACE", "atexit_sleep_ms=10")
			}
			env.Setenv("GOFLAGS", "-mod=mod")
			env.Setenv("GOWORK", "off")
			env.Setenv("MCPGEN_ROOT", root)
			mod := fmt.Sprintf("module example.com/m\n\ngo 1.26\n\nrequire github.com/mcpgen/mcpgen v0.0.0\n\nreplace github.com/mcpgen/mcpgen => %s\n", root)
			if err := os.WriteFile(filepath.Join(env.WorkDir, "go.mod"), []byte(mod), 0o666); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(env.WorkDir, "go.sum"), goSum, 0o666)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"status":    cmdStatus,
			"backdate":  cmdBackdate,
			"backdated": cmdBackdated,
			"freeport":  cmdFreePort,
			"mcppost":   cmdMCPPost,
			"waitfile":  cmdWaitFile,
		},
	})
}

func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: status code command [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("status: bad exit code %q", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("%s: %v", args[1], err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}

func cmdBackdate(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: backdate file...")
	}
	for _, f := range args {
		ts.Check(os.Chtimes(ts.MkAbs(f), oldTime, oldTime))
	}
}

func cmdBackdated(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) == 0 {
		ts.Fatalf("usage: backdated file...")
	}
	for _, f := range args {
		fi, err := os.Stat(ts.MkAbs(f))
		ts.Check(err)
		switch old := fi.ModTime().Equal(oldTime); {
		case old && neg:
			ts.Fatalf("%s has not been written since backdate", f)
		case !old && !neg:
			ts.Fatalf("%s has been written since backdate (modified %v)", f, fi.ModTime())
		}
	}
}
