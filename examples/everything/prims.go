package main

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

// watchedURI is the resource that changes every few seconds, for clients
// that subscribe to it.
const watchedURI = "test://watched-resource"

// addResources registers the resources and the resource template.
func addResources(s *runtime.Server) {
	s.AddResource(runtime.Resource{
		URI:         "test://static-text",
		Name:        "static-text",
		Description: "A static text resource",
		MIMEType:    "text/plain",
		Handler: func(ctx context.Context, req *runtime.ResourceRequest) ([]runtime.ResourceContents, error) {
			return []runtime.ResourceContents{runtime.TextContents("text/plain", "This is the content of the static text resource.")}, nil
		},
	})
	s.AddResource(runtime.Resource{
		URI:         "test://static-binary",
		Name:        "static-binary",
		Description: "A static binary resource: a PNG image",
		MIMEType:    "image/png",
		Handler: func(ctx context.Context, req *runtime.ResourceRequest) ([]runtime.ResourceContents, error) {
			return []runtime.ResourceContents{runtime.BlobContents("image/png", pngData)}, nil
		},
	})
	s.AddResource(runtime.Resource{
		URI:         watchedURI,
		Name:        "watched-resource",
		Description: "A resource that changes every 3 seconds; subscribe to hear of it",
		MIMEType:    "text/plain",
		Handler: func(ctx context.Context, req *runtime.ResourceRequest) ([]runtime.ResourceContents, error) {
			return []runtime.ResourceContents{runtime.TextContents("text/plain", "Watched resource content at "+time.Now().UTC().Format(time.RFC3339))}, nil
		},
	})
	s.AddResourceTemplate(runtime.ResourceTemplate{
		URITemplate: "test://template/{id}/data",
		Name:        "template",
		Description: "A resource template: the data of one id",
		MIMEType:    "application/json",
		Handler: func(ctx context.Context, req *runtime.ResourceRequest) ([]runtime.ResourceContents, error) {
			id := req.Vars["id"]
			return []runtime.ResourceContents{runtime.TextContents("application/json",
				fmt.Sprintf(`{"id":%q,"templateTest":true,"data":"Data for ID: %s"}`, id, id))}, nil
		},
	})
}

// watch tells the subscribers of the watched resource that it changed,
// every period until ctx ends.
func watch(ctx context.Context, s *runtime.Server, period time.Duration) {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			s.ResourceUpdated(watchedURI)
		}
	}
}

// addPrompts registers the prompts.
func addPrompts(s *runtime.Server) {
	s.AddPrompt(runtime.Prompt{
		Name:        "test_simple_prompt",
		Title:       "Simple prompt",
		Description: "A prompt without arguments",
		Handler: func(ctx context.Context, req *runtime.PromptRequest) (*runtime.GetPromptResult, error) {
			return &runtime.GetPromptResult{Messages: []runtime.PromptMessage{
				runtime.UserMessage("This is a simple prompt for testing."),
			}}, nil
		},
	})
	s.AddPrompt(runtime.Prompt{
		Name:        "test_prompt_with_arguments",
		Title:       "Prompt with arguments",
		Description: "A prompt with two required arguments",
		Arguments: []runtime.PromptArgument{
			{Name: "arg1", Description: "First test argument", Required: true,
				Complete: runtime.EnumCompletion("paris", "park", "party", "test", "testValue1")},
			{Name: "arg2", Description: "Second test argument", Required: true},
		},
		Handler: func(ctx context.Context, req *runtime.PromptRequest) (*runtime.GetPromptResult, error) {
			return &runtime.GetPromptResult{Messages: []runtime.PromptMessage{
				runtime.UserMessage(fmt.Sprintf("Prompt with arguments: arg1='%s', arg2='%s'", req.Arguments["arg1"], req.Arguments["arg2"])),
			}}, nil
		},
	})
	s.AddPrompt(runtime.Prompt{
		Name:        "test_prompt_with_embedded_resource",
		Title:       "Prompt with an embedded resource",
		Description: "A prompt that embeds the resource of a URI",
		Arguments:   []runtime.PromptArgument{{Name: "resourceUri", Description: "URI of the resource to embed", Required: true}},
		Handler: func(ctx context.Context, req *runtime.PromptRequest) (*runtime.GetPromptResult, error) {
			return &runtime.GetPromptResult{Messages: []runtime.PromptMessage{
				{Role: "user", Content: runtime.NewEmbeddedText(req.Arguments["resourceUri"], "text/plain", "Embedded resource content for testing.")},
				runtime.UserMessage("Please process the embedded resource above."),
			}}, nil
		},
	})
	s.AddPrompt(runtime.Prompt{
		Name:        "test_prompt_with_image",
		Title:       "Prompt with an image",
		Description: "A prompt that holds a PNG image",
		Handler: func(ctx context.Context, req *runtime.PromptRequest) (*runtime.GetPromptResult, error) {
			return &runtime.GetPromptResult{Messages: []runtime.PromptMessage{
				{Role: "user", Content: runtime.NewImage(pngData, "image/png")},
				runtime.UserMessage("Please analyze the image above."),
			}}, nil
		},
	})
}
