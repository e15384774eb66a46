package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"
	"golang.org/x/tools/go/packages"
)

// watchUsage is the first line of watch's usage.
const watchUsage = "usage: mcpgen watch [-output file] [-tags list] [-debounce duration] [packages] [-- command [args...]]"

// runWatch is mcpgen watch: it generates, starts the command, and on every
// saved change of a package's Go files generates again and restarts the
// command, until interrupted.
func runWatch(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return watch(ctx, args, stdout, stderr)
}

// watch is runWatch until ctx ends.
func watch(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcpgen watch", flag.ContinueOnError)
	fs.SetOutput(stderr)
	output := fs.String("output", "", "name of the generated file in each package (default mcp_gen.go)")
	tags := fs.String("tags", "", "comma-separated build tags to load packages with")
	debounce := fs.Duration("debounce", 200*time.Millisecond, "how long the files must be quiet before a change is acted on")
	fs.Usage = func() {
		fmt.Fprintln(stderr, watchUsage)
		fmt.Fprintf(stderr, "\nGenerates, runs command, and on every saved change of the packages' Go files\ngenerates again and restarts command (its whole process group). Problems are\nprinted and the last good command keeps running. Ctrl-C stops both.\n\n")
		fs.PrintDefaults()
	}
	var command []string
	if i := slices.Index(args, "--"); i >= 0 {
		args, command = args[:i], args[i+1:]
	}
	if status, ok := parseFlags(fs, args); !ok {
		return status
	}
	var genArgs []string
	if *output != "" {
		genArgs = append(genArgs, "-output", *output)
	}
	if *tags != "" {
		genArgs = append(genArgs, "-tags", *tags)
	}
	genArgs = append(genArgs, fs.Args()...)
	outName := *output
	if outName == "" {
		outName = "mcp_gen.go"
	}

	w, err := fsnotify.NewWatcher()
	if err != nil {
		fmt.Fprintln(stderr, "mcpgen watch:", err)
		return 1
	}
	defer w.Close()
	wd, _ := os.Getwd()
	watched := map[string]bool{}
	// rewatch watches the directories of the packages, as they are now.
	rewatch := func() {
		for _, dir := range packageDirs(wd, *tags, fs.Args()) {
			if !watched[dir] {
				if err := w.Add(dir); err != nil {
					fmt.Fprintln(stderr, "mcpgen watch:", err)
					continue
				}
				watched[dir] = true
			}
		}
	}

	var child *exec.Cmd
	exited := make(chan error, 1)
	cycle := func() {
		status := run(genArgs, stdout, stderr)
		// Packages may have appeared (./...); watch them from now on.
		rewatch()
		if status != 0 {
			if child != nil {
				fmt.Fprintln(stderr, "mcpgen watch: not restarting: fix the problems above")
			}
			return
		}
		if len(command) == 0 {
			return
		}
		if child != nil {
			stopChild(child, exited)
		}
		child = exec.Command(command[0], command[1:]...)
		// The command runs in a process group of its own, in the
		// background of a terminal, where reading the terminal would stop
		// it: its stdin is empty. (A server for HTTP is what watch is for.)
		child.Stdout, child.Stderr = stdout, stderr
		setProcessGroup(child)
		if err := child.Start(); err != nil {
			fmt.Fprintln(stderr, "mcpgen watch:", err)
			child = nil
			return
		}
		fmt.Fprintf(stderr, "mcpgen watch: started %s (pid %d)\n", strings.Join(command, " "), child.Process.Pid)
		go func(c *exec.Cmd) { exited <- c.Wait() }(child)
	}
	cycle()

	var timer *time.Timer
	var fire <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			if child != nil {
				stopChild(child, exited)
			}
			return 0
		case err := <-exited:
			fmt.Fprintln(stderr, exitMessage(command[0], err))
			child = nil
		case ev, ok := <-w.Events:
			if !ok {
				return 1
			}
			if !relevant(ev, outName) {
				continue
			}
			if timer == nil {
				timer = time.NewTimer(*debounce)
			} else {
				timer.Reset(*debounce)
			}
			fire = timer.C
		case err, ok := <-w.Errors:
			if !ok {
				return 1
			}
			fmt.Fprintln(stderr, "mcpgen watch:", err)
		case <-fire:
			fire = nil
			cycle()
		}
	}
}

// relevant reports whether a file event can change what is generated: a
// write, creation, removal or rename of a non-test Go file other than the
// generated one.
func relevant(ev fsnotify.Event, output string) bool {
	name := filepath.Base(ev.Name)
	if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || name == output || strings.HasPrefix(name, ".") {
		return false
	}
	return ev.Has(fsnotify.Write) || ev.Has(fsnotify.Create) || ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename)
}

// packageDirs returns the directories of the packages that patterns match.
func packageDirs(wd, tags string, patterns []string) []string {
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedFiles, Dir: wd}
	if tags != "" {
		cfg.BuildFlags = []string{"-tags=" + tags}
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil
	}
	var dirs []string
	for _, p := range pkgs {
		for _, f := range append(p.GoFiles, p.IgnoredFiles...) {
			if d := filepath.Dir(f); !slices.Contains(dirs, d) {
				dirs = append(dirs, d)
			}
		}
	}
	return dirs
}

// stopChild ends the command's process group: SIGTERM, then SIGKILL if
// it has not exited within 5 seconds. It waits for the command to exit.
func stopChild(c *exec.Cmd, exited chan error) {
	signalGroup(c, syscall.SIGTERM)
	select {
	case <-exited:
		return
	case <-time.After(5 * time.Second):
	}
	signalGroup(c, syscall.SIGKILL)
	<-exited
}
