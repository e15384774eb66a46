package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"

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

// serve answers requests read from r on w until r reaches EOF, on one
// goroutine, flushing only when no further input is buffered so that
// pipelined answers share system calls.
func serve(ctx context.Context, r io.Reader, w io.Writer) error {
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
// ok is false for a notification.
func route(line []byte) (a canned, id []byte, ok bool) {
	id = scanID(line)
	if id == nil {
		return canned{}, nil, false
	}
	method := scanMethod(line)
	switch string(method) {
	case "tools/call":
		if !bytes.Contains(line, toolName) {
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
