package runtime_test

import (
	"context"
	"fmt"
	"io"
	"runtime"

	"testing"
	"time"

	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
)

// longLine reads as a ping request whose params pad it to size bytes, a
// newline, then the rest; it never holds the line in memory.
type longLine struct {
	head, tail string
	pad        int // 'x' bytes still to read
	rest       string
}

func newLongLine(size int, rest string) *longLine {
	head := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"pad":"`
	const tail = "\"}}}\n"
	return &longLine{head: head, tail: tail, pad: size - len(head) - len(tail) + 1, rest: rest}
}

func (l *longLine) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		switch {
		case l.head != "":
			k := copy(p[n:], l.head)
			l.head = l.head[k:]
			n += k
		case l.pad > 0:
			k := min(l.pad, len(p)-n)
			for i := range k {
				p[n+i] = 'x'
			}
			l.pad -= k
			n += k
		case l.tail != "":
			k := copy(p[n:], l.tail)
			l.tail = l.tail[k:]
			n += k
		case l.rest != "":
			k := copy(p[n:], l.rest)
			l.rest = l.rest[k:]
			n += k
		default:
			if n == 0 {
				return 0, io.EOF
			}
			return n, nil
		}
	}
	return n, nil
}

// totalAlloc returns the bytes allocated by the process so far.
func totalAlloc() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}

// TestOversizeMessageMemory sends a 100 MiB line: the session refuses it
// having allocated no more than about the message size limit, however long
// the line, and serves the next message.
func TestOversizeMessageMemory(t *testing.T) {
	const line = 100 << 20
	for _, max := range []int{1 << 20, 32 << 20} {
		t.Run(fmt.Sprintf("limit %d MiB", max>>20), func(t *testing.T) {
			srv := rttest.NewServer(rt.WithMaxMessageSize(max))
			var out rttest.SyncBuffer
			in := newLongLine(line, `{"jsonrpc":"2.0","id":2,"method":"ping"}`+"\n")
			done := make(chan error, 1)
			before := totalAlloc()
			go func() { done <- srv.Serve(context.Background(), in, &out) }()
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("Serve = %v", err)
				}
			case <-time.After(rttest.Timeout):
				t.Fatal("Serve did not return")
			}
			allocated := totalAlloc() - before
			t.Logf("allocated %.1f MiB to refuse a line of %d MiB", float64(allocated)/(1<<20), line>>20)
			// Reading a message of the limit's size grows a buffer by
			// doubling: less than twice the limit in all.
			if limit := uint64(2*max + 1<<20); allocated > limit {
				t.Errorf("allocated %d bytes to refuse a line of %d bytes, over %d", allocated, line, limit)
			}
			want := fmt.Sprintf(`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: message larger than %d bytes"}}`+"\n"+`{"jsonrpc":"2.0","id":2,"result":{}}`+"\n", max)
			if got := out.String(); got != want {
				t.Errorf("output:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
