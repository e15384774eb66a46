package mcpschema_test

import (
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/mcpschema"
)

// URI templates are checked by RFC 6570: an expression in the host, as in
// notes://{id}, is valid; a malformed template is not.
func TestURITemplateFormat(t *testing.T) {
	for _, s := range mcpschema.RequireAll(t) {
		for _, c := range []struct {
			tmpl, errHas string
		}{
			{tmpl: "notes://{id}"},
			{tmpl: "file:///{+path}{?rev,limit}"},
			{tmpl: "db://{schema}.{table}/rows{?where*}"},
			{tmpl: "notes://{id", errHas: "uri-template"},
			{tmpl: "notes://{a-b}", errHas: "uri-template"},
		} {
			res := `{"resourceTemplates":[{"uriTemplate":"` + c.tmpl + `","name":"t"}]}`
			err := s.Validate("ListResourceTemplatesResult", []byte(res))
			switch {
			case c.errHas == "" && err != nil:
				t.Errorf("%s: %s: %v", s.Revision(), c.tmpl, err)
			case c.errHas != "" && (err == nil || !strings.Contains(err.Error(), c.errHas)):
				t.Errorf("%s: %s: err = %v, want one about %s", s.Revision(), c.tmpl, err, c.errHas)
			}
		}
	}
}
