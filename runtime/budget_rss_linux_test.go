package runtime_test

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
)

const (
	rssBudget   = 16 << 20 // the server's WithMemoryBudget
	rssArgSize  = 4 << 20  // bytes of text in each call's arguments
	rssCalls    = 100
	rssBudgetMi = rssBudget >> 20
)

// procStatus reads a field of /proc/<pid>/status in bytes (VmHWM, VmRSS).
func procStatus(pid int, field string) (int64, error) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no %s in /proc/%d/status", field, pid)
}

// TestMemoryBudgetRSS: 100 calls of 4 MiB whose answers the client never
// reads keep the server's peak resident memory (VmHWM) under its budget
// plus a constant, where without a budget it would grow by 800 MiB.
//
// What the server holds at most: the budget (answers not written), the
// message read last and its read buffer (up to twice the message, as it
// grows by doubling). The garbage of each call (its request, the decoded
// argument, the answer's growth) waits for the collector, which under
// GOGC=100 lets the heap reach twice what was live after the last
// collection; a GOMEMLIMIT near the budget makes it collect sooner.
func TestMemoryBudgetRSS(t *testing.T) {
	// The server is built without the race detector, whose shadow memory
	// would be most of what is measured.
	bin := filepath.Join(t.TempDir(), "rssserver")
	build := exec.Command("go", "build", "-o", bin, "./testdata/rssserver")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./testdata/rssserver: %v\n%s", err, out)
	}
	const mi = 1 << 20
	held := rssBudget + 2*rssArgSize // see above
	for _, tc := range []struct {
		name   string
		env    []string
		growth int64 // allowed over the resident memory after initialize
	}{
		// Measured: 37 to 57 MiB.
		{"GOGC=100", []string{"GOGC=100", "GOMEMLIMIT=off"}, int64(2*held + 24*mi)},
		// Measured: 37 to 40 MiB.
		{"GOMEMLIMIT=48MiB", []string{"GOGC=100", "GOMEMLIMIT=48MiB"}, int64(held + 32*mi)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			peak, baseline := rssPeak(t, bin, tc.env)
			if peak > baseline+tc.growth {
				t.Errorf("peak resident memory %d MiB, over %d MiB at start + %d MiB (the budget %d MiB, the last message and its buffer, garbage)",
					peak/mi, baseline/mi, tc.growth/mi, rssBudgetMi)
			}
		})
	}
}

// rssPeak runs the server bin with env, sends it rssCalls calls without reading
// the answers until it reads no more, and returns its peak resident
// memory and its resident memory after initialize.
func rssPeak(t *testing.T, bin string, env []string) (peak, baseline int64) {
	cmd := exec.Command(bin, "-budget", strconv.Itoa(rssBudget))
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	out := bufio.NewReader(outPipe)
	io.WriteString(in, requestLine(0, "initialize", map[string]any{"protocolVersion": "2025-11-25"})+"\n")
	if line, err := out.ReadString('\n'); err != nil || !strings.Contains(line, "protocolVersion") {
		t.Fatalf("initialize: %q, %v", line, err)
	}
	pid := cmd.Process.Pid
	if baseline, err = procStatus(pid, "VmHWM"); err != nil {
		t.Fatal(err)
	}
	text := strings.Repeat("x", rssArgSize)
	var sent atomic.Int32
	go func() {
		for i := range rssCalls {
			line := `{"jsonrpc":"2.0","id":` + strconv.Itoa(i+1) + `,"method":"tools/call","params":{"name":"echo","arguments":{"text":"` + text + `"}}}` + "\n"
			if _, err := io.WriteString(in, line); err != nil {
				return
			}
			sent.Add(1)
		}
	}()
	// Wait until the client can send no more (the server stopped
	// reading), or sent everything.
	last, still := int32(-1), 0
	for deadline := time.Now().Add(rttest.Timeout); sent.Load() < rssCalls && still < 30 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		if n := sent.Load(); n == last {
			still++
		} else {
			last, still = n, 0
		}
	}
	if peak, err = procStatus(pid, "VmHWM"); err != nil {
		t.Fatal(err)
	}
	const mi = 1 << 20
	t.Logf("%d of %d calls of %d MiB sent; resident memory %d MiB after initialize, peak %d MiB (budget %d MiB)",
		sent.Load(), rssCalls, rssArgSize/mi, baseline/mi, peak/mi, rssBudgetMi)
	if sent.Load() == rssCalls {
		t.Errorf("the server read all %d calls with their answers unread: it did not stop at its budget", rssCalls)
	}
	return peak, baseline
}
