package mcpimpl

// Long strings are scanned eight bytes at a time: a 64-bit word tells at
// once whether any of its bytes needs attention, so runs of plain text, by
// far the common case, cost a fraction of a byte-by-byte loop.

const (
	lowBits  = 0x0101010101010101 // one in every byte
	highBits = 0x8080808080808080 // the top bit of every byte
)

// plainRun returns the offset of the first byte of s at or after i that is
// not plain (see strPlainByte: printable ASCII other than '"' and '\\'),
// or len(s). Between escapes and non-ASCII letters runs are short, and a
// word test costs more than it saves, so callers scan the first bytes of a
// run themselves and call plainRun when it goes on.
func plainRun[T string | []byte](s T, i int) int {
	for ; i+8 <= len(s); i += 8 {
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if !plainWord(x) {
			break
		}
	}
	for i < len(s) && strPlainByte[s[i]] {
		i++
	}
	return i
}

// plainWord reports whether all eight bytes of x are plain. A byte of 0x80
// or more sets its top bit in x; once none does, subtracting 0x20 from
// every byte borrows, and so sets a top bit, only if some byte is below
// 0x20, and subtracting 1 from x XOR '"' (or '\\') in every byte only if
// some byte is '"' (or '\\').
func plainWord(x uint64) bool {
	return (x|(x-lowBits*0x20)|((x^lowBits*'"')-lowBits)|((x^lowBits*'\\')-lowBits))&highBits == 0
}
