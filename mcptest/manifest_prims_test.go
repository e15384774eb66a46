package mcptest

import (
	"context"
	"testing"

	mcpruntime "github.com/mcpgen/mcpgen/runtime"
)

// Manifest follows the pages of every list method and leaves out the kinds
// the server has none of; <, > and & stay as the server sends them.
func TestManifestPrimitives(t *testing.T) {
	read := func(ctx context.Context, req *mcpruntime.ResourceRequest) ([]mcpruntime.ResourceContents, error) {
		return nil, nil
	}
	get := func(ctx context.Context, req *mcpruntime.PromptRequest) (*mcpruntime.GetPromptResult, error) {
		return nil, nil
	}
	tests := []struct {
		name string
		add  func(s *mcpruntime.Server)
		want string
	}{
		{"no primitives", func(s *mcpruntime.Server) {}, `{"tools":[]}`},
		{
			"resources and templates",
			func(s *mcpruntime.Server) {
				s.AddResource(mcpruntime.Resource{URI: "a://1", Name: "one", MIMEType: "text/plain", Handler: read})
				s.AddResource(mcpruntime.Resource{URI: "a://2", Name: "two", Description: "<b> & c", Handler: read})
				s.AddResourceTemplate(mcpruntime.ResourceTemplate{URITemplate: "a://{x}", Name: "x", Handler: read})
			},
			`{"tools":[],"resources":[{"uri":"a://1","name":"one","mimeType":"text/plain"},{"uri":"a://2","name":"two","description":"<b> & c"}],"resourceTemplates":[{"uriTemplate":"a://{x}","name":"x"}]}`,
		},
		{
			"prompts",
			func(s *mcpruntime.Server) {
				s.AddPrompt(mcpruntime.Prompt{Name: "p", Arguments: []mcpruntime.PromptArgument{{Name: "a", Required: true}}, Handler: get})
				s.AddPrompt(mcpruntime.Prompt{Name: "q", Handler: get})
			},
			`{"tools":[],"prompts":[{"name":"p","arguments":[{"name":"a","required":true}]},{"name":"q"}]}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// A page size of 1 makes Manifest follow cursors.
			s := mcpruntime.NewServer("test", "1.0", mcpruntime.WithPageSize(1))
			tt.add(s)
			got := Start(t, s).Manifest(t)
			if string(compact(got)) != tt.want {
				t.Errorf("manifest:\n%s\nwant %s", got, tt.want)
			}
		})
	}
}
