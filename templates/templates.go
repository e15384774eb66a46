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
	// Replace, when not empty, is the local checkout of mcpgen that the
	// module's go.mod uses in place of a published version.
	Replace string
	// Dir is the server's folder from the root of its module, with
	// slashes; "" when the server is at the root. The CI job of the
	// starter README, which runs at the root, names the server by it.
	Dir string
}

// ServerFiles renders the starter server: file name → content, in name
// order. Go files are gofmt-clean; a template named gitignore.tmpl
// becomes .gitignore.
func ServerFiles(s Server) ([]string, map[string][]byte, error) {
	names, err := fs.Glob(serverFiles, "server/*.tmpl")
	if err != nil {
		return nil, nil, err
	}
	sort.Strings(names)
	out := map[string][]byte{}
	var files []string
	for _, name := range names {
		t, err := template.New(path.Base(name)).Option("missingkey=error").ParseFS(serverFiles, name)
		if err != nil {
			return nil, nil, err
		}
		var b bytes.Buffer
		if err := t.Execute(&b, s); err != nil {
			return nil, nil, err
		}
		file := strings.TrimSuffix(path.Base(name), ".tmpl")
		if file == "gitignore" {
			file = ".gitignore"
		}
		src := b.Bytes()
		if strings.HasSuffix(file, ".go") {
			if src, err = format.Source(src); err != nil {
				return nil, nil, fmt.Errorf("template %s does not render to valid Go: %w", name, err)
			}
		}
		files = append(files, file)
		out[file] = src
	}
	return files, out, nil
}
