// Package templates holds the starter files that mcpgen init writes: a
// small MCP server whose tools come from annotated functions.
package templates

import (
	"bytes"
	"embed"
	"fmt"
	"go/format"
	"io/fs"
	"path"
	"sort"
	"strings"
	"text/template"
)

//go:embed server/*.tmpl
var serverFiles embed.FS

// Server describes the server to scaffold.
type Server struct {
	Name string // the server's name, as it introduces itself to clients
}

// ServerFiles renders the starter server: file name → gofmt-clean content,
// in name order.
func ServerFiles(s Server) ([]string, map[string][]byte, error) {
	names, err := fs.Glob(serverFiles, "server/*.tmpl")
	if err != nil {
		return nil, nil, err
	}
	sort.Strings(names)
	out := map[string][]byte{}
	var files []string
	for _, name := range names {
		t, err := template.ParseFS(serverFiles, name)
		if err != nil {
			return nil, nil, err
		}
		var b bytes.Buffer
		if err := t.Execute(&b, s); err != nil {
			return nil, nil, err
		}
		file := strings.TrimSuffix(path.Base(name), ".tmpl")
		src, err := format.Source(b.Bytes())
		if err != nil {
			return nil, nil, fmt.Errorf("template %s does not render to valid Go: %w", name, err)
		}
		files = append(files, file)
		out[file] = src
	}
	return files, out, nil
}
