// Package limit is the benchmark's physical limit: a stdio server that does
// no JSON work at all. It finds a request's id and method by a byte scan and
// writes a canned answer of the same shape as the other servers' answers.
// Nothing that parses, validates and encodes can beat it: what it costs is
// the pipe, the system calls and the Go scheduler. Command stdio serves it.
package limit

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strconv"

	"github.com/mcpgen/mcpgen/bench/internal/largetool"
	"github.com/mcpgen/mcpgen/bench/internal/searchtool"
	"github.com/mcpgen/mcpgen/bench/internal/wire"
)

// A canned answer is written as prefix + id + suffix.
type canned struct{ prefix, suffix []byte }

func answer(result string) canned {
	return canned{[]byte(`{"jsonrpc":"2.0","id":`), []byte(`,"result":` + result + "}\n")}
}

func textResult(text []byte, isError bool) string {
	r := `{"content":[{"type":"text","text":` + string(text) + `}]`
	if isError {
		r += `,"isError":true`
	}
	return r + "}"
}

var (
	initAnswer = answer(`{"protocolVersion":"` + wire.ProtocolVersion + `","capabilities":{"tools":{}},"serverInfo":{"name":"limit","version":"1.0.0"}}`)
	listAnswer = answer(`{"tools":[{"name":"` + searchtool.Name + `","description":"` + searchtool.Description + `",` +
		`"inputSchema":{"type":"object","properties":{` +
		`"pattern":{"type":"string"},` +
		`"limit":{"type":"integer","minimum":1,"maximum":100,"default":10},` +
		`"recursive":{"type":"boolean"}},` +
		`"required":["pattern"],"additionalProperties":false}}]}`)
	emptyAnswer   = answer(`{}`)
	invalidAnswer = answer(textResult([]byte(`"invalid arguments"`), true))
	unknownTool   = canned{[]byte(`{"jsonrpc":"2.0","id":`), []byte(`,"error":{"code":-32602,"message":"unknown tool"}}` + "\n")}
	toolName      = []byte(`"name":"` + searchtool.Name + `"`)
)

// callAnswers holds the canned answer of each benchmark call, found by the
// bytes of its arguments.
var callArgs, callAnswers = func() ([][]byte, []canned) {
	var args [][]byte
	var answers []canned
	for _, c := range wire.Calls {
		args = append(args, []byte(`"arguments":`+c.Args))
		answers = append(answers, answer(textResult(c.WantJSON, false)))
	}
	return args, answers
}()

var (
	keyID     = []byte(`"id":`)
	keyMethod = []byte(`"method":"`)
)

// Serve answers requests read from r on w until r reaches EOF, on one
// goroutine, flushing only when no further input is buffered so that
// pipelined answers share system calls.
func Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	br := bufio.NewReaderSize(r, 64<<10)
	bw := bufio.NewWriterSize(w, 64<<10)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long := append([]byte(nil), line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if len(line) > 0 {
			if a, id, ok := route(line); ok {
				bw.Write(a.prefix)
				bw.Write(id)
				bw.Write(a.suffix)
			} else if id != nil {
				writeLarge(bw, line, id)
			}
		}
		if err != nil {
			bw.Flush()
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		if br.Buffered() == 0 {
			if err := bw.Flush(); err != nil {
				return err
			}
		}
	}
}

// route picks the canned answer of a request line and returns its raw id;
// ok is false for a notification (id nil) and for a call of a large-message
// tool (id set), whose answer writeLarge writes.
func route(line []byte) (a canned, id []byte, ok bool) {
	id = scanID(line)
	if id == nil {
		return canned{}, nil, false
	}
	method := scanMethod(line)
	switch string(method) {
	case "tools/call":
		if !bytes.Contains(line, toolName) {
			for _, name := range largeNames {
				if bytes.Contains(line, name) {
					return canned{}, id, false
				}
			}
			return unknownTool, id, true
		}
		for i, args := range callArgs {
			if bytes.Contains(line, args) {
				return callAnswers[i], id, true
			}
		}
		return invalidAnswer, id, true
	case "initialize":
		return initAnswer, id, true
	case "tools/list":
		return listAnswer, id, true
	}
	return emptyAnswer, id, true
}

// scanID returns the bytes of the first "id" member's integer value.
func scanID(line []byte) []byte {
	i := bytes.Index(line, keyID)
	if i < 0 {
		return nil
	}
	rest := line[i+len(keyID):]
	j := 0
	for j < len(rest) && (rest[j] >= '0' && rest[j] <= '9' || rest[j] == '-') {
		j++
	}
	if j == 0 {
		return nil
	}
	return rest[:j]
}

// scanMethod returns the first "method" member's string value.
func scanMethod(line []byte) []byte {
	i := bytes.Index(line, keyMethod)
	if i < 0 {
		return nil
	}
	rest := line[i+len(keyMethod):]
	if j := bytes.IndexByte(rest, '"'); j >= 0 {
		return rest[:j]
	}
	return nil
}

var (
	largeNames = [][]byte{
		[]byte(`"name":"` + largetool.MeasureName + `"`),
		[]byte(`"name":"` + largetool.MakeName + `"`),
		[]byte(`"name":"` + largetool.ItemsName + `"`),
	}
	keyText    = []byte(`"text":"`)
	keySize    = []byte(`"size":`)
	keyCount   = []byte(`"count":`)
	textPrefix = []byte(`,"result":{"content":[{"type":"text","text":"`)
	textSuffix = []byte("\"}]}}\n")
	xs         []byte             // make_text's answers are prefixes of it
	itemsCache = map[int][]byte{} // list_items' results by count
)

// writeLarge answers a call of a large-message tool, found by byte scans:
// measure_text by the distance to the closing quote of its text (the
// benchmark's texts hold no escapes), make_text from a buffer of 'x', and
// list_items from a result built once per count.
func writeLarge(bw *bufio.Writer, line, id []byte) {
	bw.WriteString(`{"jsonrpc":"2.0","id":`)
	bw.Write(id)
	switch {
	case bytes.Contains(line, largeNames[0]):
		n := 0
		if i := bytes.Index(line, keyText); i >= 0 {
			n = bytes.IndexByte(line[i+len(keyText):], '"')
		}
		bw.Write(textPrefix)
		bw.WriteString(strconv.Itoa(n))
		bw.WriteString(" bytes")
		bw.Write(textSuffix)
	case bytes.Contains(line, largeNames[1]):
		n := scanInt(line, keySize)
		if n > len(xs) {
			xs = bytes.Repeat([]byte{'x'}, n)
		}
		bw.Write(textPrefix)
		bw.Write(xs[:n])
		bw.Write(textSuffix)
	default:
		n := scanInt(line, keyCount)
		res, ok := itemsCache[n]
		if !ok {
			items := largetool.List(n)
			structured, _ := json.Marshal(items)
			text, _ := json.Marshal(string(structured))
			res = []byte(`,"result":{"content":[{"type":"text","text":` + string(text) + `}],"structuredContent":` + string(structured) + "}}\n")
			itemsCache[n] = res
		}
		bw.Write(res)
	}
}

// scanInt returns the non-negative integer after key, or 0.
func scanInt(line, key []byte) int {
	i := bytes.Index(line, key)
	if i < 0 {
		return 0
	}
	n := 0
	for _, c := range line[i+len(key):] {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}
