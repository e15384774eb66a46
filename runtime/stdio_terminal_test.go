package runtime

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestHintTerminal(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	file := filepath.Join(t.TempDir(), "in")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	open := func(name string) *os.File {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	tests := []struct {
		name string
		in   *os.File
		want bool
	}{
		{"pipe, as clients start servers", pr, false},
		{"null device", open(os.DevNull), false},
		{"regular file", open(file), false},
	}
	// A character device other than the null device stands for a
	// terminal, which a test cannot count on having.
	if _, err := os.Stat("/dev/zero"); err == nil {
		tests = append(tests, struct {
			name string
			in   *os.File
			want bool
		}{"character device", open("/dev/zero"), true})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var log bytes.Buffer
			s := NewServer("t", "0", WithLogger(slog.New(slog.NewTextHandler(&log, nil))))
			s.hintTerminal(tt.in)
			if got := strings.Contains(log.String(), terminalHint); got != tt.want {
				t.Errorf("hint logged = %v, want %v; log: %q", got, tt.want, log.String())
			}
		})
	}
}
