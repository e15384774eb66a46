package runtime

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"
)

// newWatchedConn returns a stream session's connection with its handoff
// timer, as serve sets it up, without a reader: the test is the reader.
// Writing to the returned pipe feeds the reader that takes over.
func newWatchedConn(t *testing.T) (*streamConn, *io.PipeWriter, *bufio.Reader) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := newStreamConn(inR, outW, 1<<20)
	ctx, cancel := context.WithCancel(context.Background())
	c.s = newSession(ctx, NewServer("test", "0"), c)
	c.s.inline = c
	c.readDone = make(chan error, 1)
	c.handoff = time.AfterFunc(time.Hour, c.watch)
	c.handoff.Stop()
	t.Cleanup(func() {
		c.handoff.Stop()
		cancel()
		inW.Close()
		outR.Close()
	})
	return c, inW, bufio.NewReader(outR)
}

// TestHandoffTimerSetOncePerRun runs many quick calls on the reader and
// checks that the handoff timer was set about once per handoffDelay of the
// run, not once per call. A machine busy enough to stall a call for
// handoffDelay hands it off; the reader that takes over waits for input
// the test never sends, and the timer is set anew for the next call.
func TestHandoffTimerSetOncePerRun(t *testing.T) {
	const calls = 2000
	c, _, _ := newWatchedConn(t)
	handoffs := 0
	start := time.Now()
	for range calls {
		if !c.endCall(c.beginCall()) {
			handoffs++
		}
	}
	elapsed := time.Since(start)
	if most := 2 + int(elapsed/handoffDelay) + handoffs; int(c.arms.Load()) > most {
		t.Errorf("%d quick calls in %v set the handoff timer %d times, want at most %d", calls, elapsed, c.arms.Load(), most)
	}
}

// TestSlowCallHandsOff checks that a call on the reader that outlasts
// handoffDelay hands reading over to another goroutine, which answers
// what the client sends next, and that it does so no earlier than
// handoffDelay after the call began, even when the timer was set for
// earlier calls of the run.
func TestSlowCallHandsOff(t *testing.T) {
	c, in, out := newWatchedConn(t)
	// As if the timer had been set for a call that ended just now: it
	// fires early in the slow call, which must not be handed off then.
	c.handoff.Stop()
	c.armed.Store(true)
	c.handoff.Reset(handoffDelay / 4)
	began := c.beginCall()
	deadline := time.Now().Add(testHandoffWait)
	for c.running.Load() == began && time.Now().Before(deadline) {
		time.Sleep(handoffDelay / 4)
	}
	if c.endCall(began) {
		t.Fatalf("a call that ran for %v was not handed off", testHandoffWait)
	}
	for c.slowUntil.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(handoffDelay / 4) // the new reader starts
	}
	takenOver := time.Duration(c.slowUntil.Load()) - slowMemory
	if ran := takenOver - time.Duration(began-1); ran < handoffDelay {
		t.Errorf("the call was handed off after %v, want at least %v", ran, handoffDelay)
	}
	// The new reader reads.
	if _, err := io.WriteString(in, `{"jsonrpc":"2.0","id":7,"method":"ping"}`+"\n"); err != nil {
		t.Fatal(err)
	}
	line, err := out.ReadBytes('\n')
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(line, []byte(`"id":7`)) {
		t.Errorf("after the handoff the server wrote %s, want an answer to id 7", line)
	}
}

// TestStalledCallKeepsReading checks that a call found long at the
// timer's first look, as when the whole process stalled, keeps reading
// when it ends before the second look, and that one still running at the
// second look is handed off.
func TestStalledCallKeepsReading(t *testing.T) {
	for _, endsFirst := range []bool{true, false} {
		c, _, _ := newWatchedConn(t)
		// The test makes both looks itself: a timer that looked again on
		// its own secondLook after the first would race the checks below
		// on a busy machine.
		c.handoff = time.AfterFunc(time.Hour, func() {})
		c.handoff.Stop()
		c.start = c.start.Add(-time.Second)
		// A call that began handoffDelay ago, as the timer finds it after
		// a stall.
		began := int64(time.Since(c.start)-handoffDelay) + 1
		c.running.Store(began)
		c.armed.Store(true)
		looked := make(chan struct{})
		go func() { c.watch(); close(looked) }() // the first look
		select {
		case <-looked:
		case <-time.After(testHandoffWait):
			t.Fatal("the first look at a long call handed reading over")
		}
		if got := c.running.Load(); got != began {
			t.Fatalf("after the first look at a long call, running is %d, want the call's %d", got, began)
		}
		if endsFirst {
			if !c.endCall(began) {
				t.Error("a call that ended before the second look was handed off")
			}
			continue
		}
		go c.watch() // the second look; the reader it starts waits for input
		deadline := time.Now().Add(testHandoffWait)
		for c.running.Load() == began && time.Now().Before(deadline) {
			time.Sleep(handoffDelay / 4)
		}
		if c.endCall(began) {
			t.Error("a call still running at the second look was not handed off")
		}
	}
}

// testHandoffWait bounds the wait for a handoff on a busy machine.
const testHandoffWait = 10 * time.Second

// TestHeldAnswersWrittenEveryMaxHeld checks that while a long run of
// requests is buffered the reader writes the answers it holds every
// maxHeld messages, so that the client gets the first answers of the run
// while the rest are being handled.
func TestHeldAnswersWrittenEveryMaxHeld(t *testing.T) {
	c, in, out := newWatchedConn(t)
	const n = 2*maxHeld + 1
	var run strings.Builder
	for i := range n {
		fmt.Fprintf(&run, `{"jsonrpc":"2.0","id":%d,"method":"ping"}`+"\n", i)
	}
	go io.WriteString(in, run.String())
	answers := make(chan string, n)
	go func() {
		for {
			line, err := out.ReadString('\n')
			if err != nil {
				return
			}
			answers <- line
		}
	}()
	for i := range n {
		if _, err := c.readLine(&c.scratch); err != nil {
			t.Fatal(err)
		}
		c.pace()
		if i == maxHeld {
			// The answers to the first maxHeld messages were written
			// before this one's, while the rest of the run is buffered.
			if !c.busy {
				t.Fatalf("message %d of a run of %d read in one write: nothing more buffered", i, n)
			}
			for k := range maxHeld {
				select {
				case <-answers:
				case <-time.After(testHandoffWait):
					t.Fatalf("%d of the first %d answers written while the run went on", k, maxHeld)
				}
			}
		}
		if err := c.writeMessage([]byte(`{"jsonrpc":"2.0","id":` + strconv.Itoa(i) + `,"result":{}}`)); err != nil {
			t.Fatal(err)
		}
	}
	c.release()
	for k := maxHeld; k < n; k++ {
		select {
		case <-answers:
		case <-time.After(testHandoffWait):
			t.Fatalf("%d of %d answers written", k, n)
		}
	}
}
