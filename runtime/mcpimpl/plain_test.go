package mcpimpl

import (
	"strings"
	"testing"
)

// TestPlainWord holds the word test to the byte table for every byte value
// at every position of a word of otherwise plain bytes.
func TestPlainWord(t *testing.T) {
	for pos := range 8 {
		for c := range 256 {
			w := []byte("abcdefgh")
			w[pos] = byte(c)
			var x uint64
			for k := 7; k >= 0; k-- {
				x = x<<8 | uint64(w[k])
			}
			if got, want := plainWord(x), strPlainByte[c]; got != want {
				t.Errorf("plainWord(%q) = %v, want %v", w, got, want)
			}
		}
	}
}

// TestPlainRun checks that the run ends at the first byte that is not
// plain, wherever it falls relative to the eight-byte words, for strings
// and byte slices alike.
func TestPlainRun(t *testing.T) {
	specials := []byte{'"', '\\', 0, 0x1f, 0x80, 0xff, '\n'}
	for n := range 40 {
		plain := strings.Repeat("x", n)
		for from := 0; from <= n; from += 3 {
			if got := plainRun(plain, from); got != n {
				t.Errorf("plainRun(%d plain bytes, %d) = %d, want %d", n, from, got, n)
			}
		}
		for at := range n {
			for _, c := range specials {
				b := []byte(plain)
				b[at] = c
				for from := 0; from <= at; from += 5 {
					if got := plainRun(string(b), from); got != at {
						t.Errorf("plainRun(%q, %d) = %d, want %d", b, from, got, at)
					}
					if got := plainRun(b, from); got != at {
						t.Errorf("plainRun([]byte(%q), %d) = %d, want %d", b, from, got, at)
					}
				}
			}
		}
	}
}
