package manifest

import (
	"strings"
	"testing"
)

func TestComparePrims(t *testing.T) {
	idx := Resource{URI: "notes://index", Name: "index", MIMEType: "application/json"}
	note := Template{URITemplate: "notes://{id}", Name: "note", MIMEType: "text/markdown"}
	arg := func(name string, required bool) PromptArgument { return PromptArgument{Name: name, Required: required} }
	sum := Prompt{Name: "summarize", Arguments: []PromptArgument{arg("id", true), arg("style", false)}}
	withArgs := func(p Prompt, args ...PromptArgument) Prompt { p.Arguments = args; return p }
	tests := []struct {
		name     string
		old, new Manifest
		want     []string
	}{
		{"identical", Manifest{Resources: []Resource{idx}, ResourceTemplates: []Template{note}, Prompts: []Prompt{sum}}, Manifest{Resources: []Resource{idx}, ResourceTemplates: []Template{note}, Prompts: []Prompt{sum}}, nil},
		{
			"removed",
			Manifest{Resources: []Resource{idx}, ResourceTemplates: []Template{note}, Prompts: []Prompt{sum}},
			Manifest{},
			[]string{"breaking: resource notes://index: resource removed", "breaking: resource template notes://{id}: resource template removed", "breaking: prompt summarize: prompt removed"},
		},
		{
			"added",
			Manifest{},
			Manifest{Resources: []Resource{idx}, ResourceTemplates: []Template{note}, Prompts: []Prompt{sum}},
			[]string{"compatible: resource notes://index: resource added", "compatible: resource template notes://{id}: resource template added", "compatible: prompt summarize: prompt added"},
		},
		{
			"resource URI changed is a removal and an addition",
			Manifest{Resources: []Resource{idx}},
			Manifest{Resources: []Resource{{URI: "notes://all", Name: "index", MIMEType: "application/json"}}},
			[]string{"breaking: resource notes://index: resource removed", "compatible: resource notes://all: resource added"},
		},
		{
			"MIME type changed, name and description changed",
			Manifest{Resources: []Resource{idx}, ResourceTemplates: []Template{{URITemplate: "notes://{id}", Name: "note"}}},
			Manifest{Resources: []Resource{{URI: "notes://index", Name: "all", Description: "All.", MIMEType: "text/plain"}}, ResourceTemplates: []Template{note}},
			[]string{
				`breaking: resource notes://index: mimeType changed from "application/json" to "text/plain"`,
				`compatible: resource notes://index: name changed from "index" to "all"`,
				"compatible: resource notes://index: description changed",
				`compatible: resource template notes://{id}: mimeType changed from "" to "text/markdown"`,
			},
		},
		{
			"prompt argument newly required, one no longer required",
			Manifest{Prompts: []Prompt{sum}},
			Manifest{Prompts: []Prompt{withArgs(sum, arg("id", false), arg("style", true))}},
			[]string{"compatible: prompt summarize: arguments.id: argument no longer required", "breaking: prompt summarize: arguments.style: argument newly required"},
		},
		{
			"prompt arguments removed and added",
			Manifest{Prompts: []Prompt{sum}},
			Manifest{Prompts: []Prompt{withArgs(sum, arg("id", true), arg("lang", false), arg("tone", true))}},
			[]string{"breaking: prompt summarize: arguments.style: argument removed", "compatible: prompt summarize: arguments.lang: optional argument added", "breaking: prompt summarize: arguments.tone: argument added, required"},
		},
		{
			"prompt title and description changed",
			Manifest{Prompts: []Prompt{sum}},
			Manifest{Prompts: []Prompt{{Name: "summarize", Title: "Sum", Description: "Sums.", Arguments: sum.Arguments}}},
			[]string{`compatible: prompt summarize: title changed from "" to "Sum"`, "compatible: prompt summarize: description changed"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			changes, err := Compare(&tt.old, &tt.new)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range changes {
				got = append(got, c.String())
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("changes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}
