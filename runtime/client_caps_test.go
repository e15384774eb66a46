package runtime

import (
	"encoding/json"
	"reflect"
	"testing"
)

// capsByReflection is what parseClientCapabilities computed with
// encoding/json before it read the capabilities with the runtime's decoder:
// the reference its results must equal.
func capsByReflection(raw []byte) Capabilities {
	caps := Capabilities{Raw: raw}
	var c struct {
		Sampling *struct {
			Context json.RawMessage `json:"context"`
			Tools   json.RawMessage `json:"tools"`
		} `json:"sampling"`
		Elicitation *struct {
			Form json.RawMessage `json:"form"`
			URL  json.RawMessage `json:"url"`
		} `json:"elicitation"`
		Roots *struct {
			ListChanged bool `json:"listChanged"`
		} `json:"roots"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &c) != nil {
		return caps
	}
	declared := func(m json.RawMessage) bool { return len(m) > 0 && string(m) != "null" }
	if c.Sampling != nil {
		caps.Sampling = &SamplingCapability{Context: declared(c.Sampling.Context), Tools: declared(c.Sampling.Tools)}
	}
	if e := c.Elicitation; e != nil {
		form, url := declared(e.Form), declared(e.URL)
		caps.Elicitation = &ElicitationCapability{Form: form || !url, URL: url}
	}
	if c.Roots != nil {
		caps.Roots = &RootsCapability{ListChanged: c.Roots.ListChanged}
	}
	return caps
}

var capsCases = []struct {
	name string
	raw  string
	want Capabilities // Raw is filled in by the test
}{
	{"absent", ``, Capabilities{}},
	{"empty", `{}`, Capabilities{}},
	{"null", `null`, Capabilities{}},
	{"all", `{"sampling":{"context":{},"tools":{}},"elicitation":{"form":{},"url":{}},"roots":{"listChanged":true}}`,
		Capabilities{Sampling: &SamplingCapability{Context: true, Tools: true}, Elicitation: &ElicitationCapability{Form: true, URL: true}, Roots: &RootsCapability{ListChanged: true}}},
	{"bare members", `{"sampling":{},"elicitation":{},"roots":{}}`,
		Capabilities{Sampling: &SamplingCapability{}, Elicitation: &ElicitationCapability{Form: true}, Roots: &RootsCapability{}}},
	{"url mode only", `{"elicitation":{"url":{}}}`, Capabilities{Elicitation: &ElicitationCapability{URL: true}}},
	{"null members", `{"sampling":{"context":null,"tools":null},"elicitation":{"form":null,"url":{}},"roots":{"listChanged":null}}`,
		Capabilities{Sampling: &SamplingCapability{}, Elicitation: &ElicitationCapability{URL: true}, Roots: &RootsCapability{}}},
	{"null capabilities", `{"sampling":null,"elicitation":null,"roots":null}`, Capabilities{}},
	{"any value declares", `{"sampling":{"context":1,"tools":"yes"},"elicitation":{"form":[],"url":false}}`,
		Capabilities{Sampling: &SamplingCapability{Context: true, Tools: true}, Elicitation: &ElicitationCapability{Form: true, URL: true}}},
	{"other members ignored", `{"experimental":{"x":[1,{"y":null}]},"roots":{"listChanged":false,"other":"z"},"sampling":{"extra":{}}}`,
		Capabilities{Sampling: &SamplingCapability{}, Roots: &RootsCapability{}}},
	{"names without regard to case", `{"Sampling":{"CONTEXT":{}},"ROOTS":{"listchanged":true},"eliCitation":{"URL":{}}}`,
		Capabilities{Sampling: &SamplingCapability{Context: true}, Elicitation: &ElicitationCapability{URL: true}, Roots: &RootsCapability{ListChanged: true}}},
	{"escaped names", `{"s\u0061mpling":{"t\u006fols":{}}}`, Capabilities{Sampling: &SamplingCapability{Tools: true}}},
	{"repeated member merges", `{"roots":{"listChanged":true},"roots":{},"sampling":{"context":{}},"sampling":{"tools":{}}}`,
		Capabilities{Sampling: &SamplingCapability{Context: true, Tools: true}, Roots: &RootsCapability{ListChanged: true}}},
	{"repeated member after null starts afresh", `{"roots":{"listChanged":true},"roots":null,"roots":{},"sampling":{"context":{}},"sampling":null}`,
		Capabilities{Roots: &RootsCapability{}}},
	{"repeated value, last wins", `{"sampling":{"context":{},"context":null},"roots":{"listChanged":true,"listChanged":false}}`,
		Capabilities{Sampling: &SamplingCapability{}, Roots: &RootsCapability{}}},
	{"wrong type drops all", `{"sampling":{"context":{}},"roots":{"listChanged":"yes"}}`, Capabilities{}},
	{"capability not an object", `{"roots":{"listChanged":true},"sampling":true}`, Capabilities{}},
	{"capabilities not an object", `[{"sampling":{}}]`, Capabilities{}},
	{"syntax error", `{"sampling":{},`, Capabilities{}},
	{"trailing data", `{"sampling":{}} {}`, Capabilities{}},
}

func TestParseClientCapabilities(t *testing.T) {
	for _, tc := range capsCases {
		t.Run(tc.name, func(t *testing.T) {
			raw := []byte(tc.raw)
			if tc.raw == "" {
				raw = nil
			}
			want := tc.want
			want.Raw = raw
			got := parseClientCapabilities(raw)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("parseClientCapabilities(%s)\n got %s\nwant %s", tc.raw, describeCaps(got), describeCaps(want))
			}
			if ref := capsByReflection(raw); !reflect.DeepEqual(got, ref) {
				t.Errorf("parseClientCapabilities(%s) = %s, encoding/json reads %s", tc.raw, describeCaps(got), describeCaps(ref))
			}
		})
	}
}

// FuzzParseClientCapabilities checks that the decoder reads every input as
// encoding/json does.
func FuzzParseClientCapabilities(f *testing.F) {
	for _, tc := range capsCases {
		f.Add([]byte(tc.raw))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if len(raw) == 0 {
			raw = nil
		}
		got, want := parseClientCapabilities(raw), capsByReflection(raw)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("parseClientCapabilities(%q) = %s, encoding/json reads %s", raw, describeCaps(got), describeCaps(want))
		}
	})
}

func describeCaps(c Capabilities) string {
	b, _ := json.Marshal(struct {
		Sampling    *SamplingCapability
		Elicitation *ElicitationCapability
		Roots       *RootsCapability
	}{c.Sampling, c.Elicitation, c.Roots})
	return string(b)
}
