package runtime

import (
	"testing"
	"unsafe"
)

// TestCall26Size checks that the single allocation of a 2026-07-28
// request that runs as a call stays within the size class its room was
// chosen to fill (call26Own): a field added to the call's context or to
// the request must take its room from call26Own, or the call costs more.
func TestCall26Size(t *testing.T) {
	if n := unsafe.Sizeof(call26{}); n > 704 {
		t.Errorf("a call26 is %d bytes, more than the 704 of its size class", n)
	}
}
