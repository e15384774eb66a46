package runtime

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestSlotsWait checks that slots are taken up to the limit, that a
// waiter waits until one is given back, and that it then gets it.
func TestSlotsWait(t *testing.T) {
	s := &slots{limit: 3}
	for i := range 3 {
		if !s.take() {
			t.Fatalf("slot %d of 3 not taken", i+1)
		}
	}
	if s.take() {
		t.Fatal("a fourth slot of 3 taken")
	}
	got := make(chan struct{})
	go func() { s.wait(); close(got) }()
	select {
	case <-got:
		t.Fatal("a waiter got a slot while none was free")
	case <-time.After(20 * time.Millisecond):
	}
	s.give()
	select {
	case <-got:
	case <-time.After(10 * time.Second):
		t.Fatal("a waiter did not get the slot given back")
	}
	if n := s.used.Load(); n != 3 {
		t.Errorf("%d slots in use, want 3", n)
	}
}

// TestSlotsBound checks, with many takers giving slots back at once, that
// no more than the limit are ever in use and that no waiter is left
// waiting.
func TestSlotsBound(t *testing.T) {
	const limit, takers, rounds = 4, 16, 2000
	s := &slots{limit: limit}
	var inUse, most atomic.Int64
	var wg sync.WaitGroup
	for range takers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range rounds {
				if !s.take() {
					s.wait()
				}
				n := inUse.Add(1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				inUse.Add(-1)
				s.give()
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("takers still waiting: a slot given back did not wake them")
	}
	if m := most.Load(); m > limit {
		t.Errorf("%d slots in use at once, limit %d", m, limit)
	}
	if n := s.used.Load(); n != 0 {
		t.Errorf("%d slots in use at the end, want 0", n)
	}
}
