package runtime

import (
	"testing"
	"unsafe"
)

// TestCall26Size checks that the single allocation of a 2026-07-28
// request that runs as a call stays within a size class of 384 bytes
// (on 64-bit systems): a call of an older revision allocates its
// context alone, 176 bytes, and each byte the allocation grows by costs
// every call of that revision.
func TestCall26Size(t *testing.T) {
	if n := unsafe.Sizeof(call26{}); n > 384 {
		t.Errorf("a call26 is %d bytes, more than the 384 of its size class", n)
	}
}
