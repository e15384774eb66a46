package generator_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// checkOutputs validates the structuredContent of every tools/call answer
// of a session against the output schema the tool publishes, as clients
// that read structured content do.
func checkOutputs(t *testing.T, s *server, session []byte) {
	t.Helper()
	var list struct {
		Result struct {
			Tools []struct {
				Name         string
				OutputSchema json.RawMessage
			}
		}
	}
	if err := json.Unmarshal([]byte(s.call(`{"jsonrpc":"2.0","id":"outputs","method":"tools/list"}`)), &list); err != nil {
		t.Fatal(err)
	}
	schemas := map[string]*jsonschema.Schema{}
	for _, tool := range list.Result.Tools {
		if tool.OutputSchema == nil {
			continue
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		c.AssertFormat()
		c.AssertContent()
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(tool.OutputSchema))
		if err != nil {
			t.Fatal(err)
		}
		if err := c.AddResource("output.json", doc); err != nil {
			t.Fatal(err)
		}
		sch, err := c.Compile("output.json")
		if err != nil {
			t.Fatalf("%s: the output schema does not compile as JSON Schema 2020-12: %v", tool.Name, err)
		}
		schemas[tool.Name] = sch
	}
	tool := ""
	for _, line := range strings.Split(string(session), "\n") {
		switch {
		case strings.HasPrefix(line, "-> "):
			var req struct{ Params struct{ Name string } }
			json.Unmarshal([]byte(line[3:]), &req)
			tool = req.Params.Name
		case strings.HasPrefix(line, "<- "):
			var resp struct {
				Result struct{ StructuredContent json.RawMessage }
			}
			if json.Unmarshal([]byte(line[3:]), &resp) != nil || resp.Result.StructuredContent == nil {
				continue
			}
			sch := schemas[tool]
			if sch == nil {
				t.Errorf("%s sent structured content without an output schema", tool)
				continue
			}
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(resp.Result.StructuredContent))
			if err != nil {
				t.Fatal(err)
			}
			if err := sch.Validate(inst); err != nil {
				t.Errorf("%s sent %s, which its output schema rejects: %v", tool, resp.Result.StructuredContent, err)
			}
		}
	}
}
