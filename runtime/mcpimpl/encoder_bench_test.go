package mcpimpl_test

import (
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/mcpimpl"
)

type benchEntry struct {
	Name     string    `json:"name"`
	Size     int64     `json:"size"`
	IsDir    bool      `json:"isDir"`
	Modified time.Time `json:"modified"`
}

type benchListing struct {
	Dir     string       `json:"dir"`
	Entries []benchEntry `json:"entries"`
}

func benchValue() benchListing {
	l := benchListing{Dir: "/srv/data"}
	for i := range 10 {
		l.Entries = append(l.Entries, benchEntry{Name: "file" + string(rune('a'+i)) + ".go", Size: int64(i) * 1000, Modified: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)})
	}
	return l
}

// What mcpgen generates for benchListing.
func encodeBenchListing(enc *mcpimpl.Encoder, v *benchListing) {
	enc.Open()
	enc.Key(`"dir":`)
	enc.String(v.Dir)
	enc.Key(`"entries":`)
	enc.OpenArray()
	for i := range v.Entries {
		enc.Elem()
		e := &v.Entries[i]
		enc.Open()
		enc.Key(`"name":`)
		enc.String(e.Name)
		enc.Key(`"size":`)
		enc.Int(e.Size)
		enc.Key(`"isDir":`)
		enc.Bool(e.IsDir)
		enc.Key(`"modified":`)
		enc.Time(e.Modified)
		enc.Close()
	}
	enc.CloseArray()
	enc.Close()
}

// BenchmarkStructuredResult compares the generated encoder's way of
// building a structured result with encoding/json's (runtime.Structured).
func BenchmarkStructuredResult(b *testing.B) {
	v := benchValue()
	b.Run("encoder", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			enc := new(mcpimpl.Encoder)
			encodeBenchListing(enc, &v)
			raw, err := enc.JSON()
			if err != nil {
				b.Fatal(err)
			}
			_ = runtime.StructuredResult(raw)
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := runtime.Structured(v, ""); err != nil {
				b.Fatal(err)
			}
		}
	})
}
