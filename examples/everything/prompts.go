package main

import (
	"fmt"
	"strings"

	"github.com/mcpgen/mcpgen/runtime"
)

// TestSimplePrompt is the prompt of prompts-get-simple: a string result is
// one user message.
//
//mcp:prompt title="Simple prompt" description="A prompt without arguments"
func TestSimplePrompt() (string, error) {
	return "This is a simple prompt for testing.", nil
}

// PromptArgs are the arguments of test_prompt_with_arguments; both are
// required, having no omitempty.
type PromptArgs struct {
	Arg1 string `json:"arg1"` // First test argument
	Arg2 string `json:"arg2"` // Second test argument
}

// TestPromptWithArguments is the prompt of prompts-get-with-args.
//
//mcp:prompt title="Prompt with arguments" description="A prompt with two required arguments"
func TestPromptWithArguments(in PromptArgs) (string, error) {
	return fmt.Sprintf("Prompt with arguments: arg1='%s', arg2='%s'", in.Arg1, in.Arg2), nil
}

// arg1Values are the values completion offers for arg1. arg1 is completed
// from them but not restricted to them, so it is a plain string completed
// by a function rather than an enum type, which would reject other values.
var arg1Values = []string{"paris", "park", "party", "test", "testValue1"}

// CompleteArg1 offers the arg1 values that start with prefix, ignoring
// case (completion-complete).
//
//mcp:complete prompt=test_prompt_with_arguments arg=arg1
func CompleteArg1(prefix string) ([]string, error) {
	var out []string
	for _, v := range arg1Values {
		if len(v) >= len(prefix) && strings.EqualFold(v[:len(prefix)], prefix) {
			out = append(out, v)
		}
	}
	return out, nil
}

// EmbeddedArgs are the arguments of test_prompt_with_embedded_resource.
type EmbeddedArgs struct {
	ResourceURI string `json:"resourceUri"` // URI of the resource to embed
}

// TestPromptWithEmbeddedResource is the prompt of
// prompts-get-embedded-resource.
//
//mcp:prompt title="Prompt with an embedded resource" description="A prompt that embeds the resource of a URI"
func TestPromptWithEmbeddedResource(in EmbeddedArgs) ([]runtime.PromptMessage, error) {
	return []runtime.PromptMessage{
		{Role: "user", Content: runtime.NewEmbeddedText(in.ResourceURI, "text/plain", "Embedded resource content for testing.")},
		runtime.UserMessage("Please process the embedded resource above."),
	}, nil
}

// TestPromptWithImage is the prompt of prompts-get-with-image.
//
//mcp:prompt title="Prompt with an image" description="A prompt that holds a PNG image"
func TestPromptWithImage() ([]runtime.PromptMessage, error) {
	return []runtime.PromptMessage{
		{Role: "user", Content: runtime.NewImage(pngData, "image/png")},
		runtime.UserMessage("Please analyze the image above."),
	}, nil
}
