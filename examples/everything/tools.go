package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
)

//go:generate go tool mcpgen

// The smallest valid PNG (one red pixel) and WAV (silence): the image and
// audio the tools and prompts return.
const (
	pngBase64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
	wavBase64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA="
)

// mustDecode decodes one of the base64 constants above.
func mustDecode(s string) []byte {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

var (
	pngData = mustDecode(pngBase64)
	wavData = mustDecode(wavBase64)
)

// TestSimpleText returns one block of text.
//
//mcp:tool readonly
func TestSimpleText(ctx context.Context) (string, error) {
	return "This is a simple text response for testing.", nil
}

// TestImageContent returns a PNG image.
//
//mcp:tool readonly
func TestImageContent(ctx context.Context) ([]runtime.Content, error) {
	return []runtime.Content{runtime.NewImage(pngData, "image/png")}, nil
}

// TestAudioContent returns a WAV recording.
//
//mcp:tool readonly
func TestAudioContent(ctx context.Context) ([]runtime.Content, error) {
	return []runtime.Content{runtime.NewAudio(wavData, "audio/wav")}, nil
}

// TestEmbeddedResource returns a text resource embedded in the result.
//
//mcp:tool readonly
func TestEmbeddedResource(ctx context.Context) ([]runtime.Content, error) {
	return []runtime.Content{
		runtime.NewEmbeddedText("test://embedded-resource", "text/plain", "This is an embedded resource content."),
	}, nil
}

// TestMultipleContentTypes returns text, an image and an embedded resource
// in one result.
//
//mcp:tool readonly
func TestMultipleContentTypes(ctx context.Context) ([]runtime.Content, error) {
	return []runtime.Content{
		runtime.NewText("Multiple content types test:"),
		runtime.NewImage(pngData, "image/png"),
		runtime.NewEmbeddedText("test://mixed-content-resource", "application/json", `{"test":"data","value":123}`),
	}, nil
}

// TestToolWithLogging sends three log messages at level info while it runs,
// 50 ms apart.
//
//mcp:tool readonly
func TestToolWithLogging(ctx context.Context) (string, error) {
	for i, msg := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
		if i > 0 {
			if err := sleep(ctx, 50*time.Millisecond); err != nil {
				return "", err
			}
		}
		if err := runtime.Log(ctx, runtime.LevelInfo, msg); err != nil {
			return "", err
		}
	}
	return "Tool with logging executed successfully", nil
}

// TestToolWithProgress reports progress 0, 50 and 100 of 100 while it runs,
// 50 ms apart.
//
//mcp:tool readonly
func TestToolWithProgress(ctx context.Context) (string, error) {
	for i, p := range []float64{0, 50, 100} {
		if i > 0 {
			if err := sleep(ctx, 50*time.Millisecond); err != nil {
				return "", err
			}
		}
		if err := runtime.Progress(ctx, p, 100, fmt.Sprintf("Completed step %.0f of 100", p)); err != nil {
			return "", err
		}
	}
	return "Tool with progress executed successfully", nil
}

// TestErrorHandling always fails.
//
//mcp:tool readonly
func TestErrorHandling(ctx context.Context) (string, error) {
	return "", fmt.Errorf("This tool intentionally returns an error for testing")
}

// TestReconnection ends its request's event stream before it answers, so
// that the client resumes the stream, with Last-Event-ID, to get the result
// (polling, SEP-1699).
//
//mcp:tool readonly
func TestReconnection(ctx context.Context) (string, error) {
	if err := runtime.CloseStream(ctx, 10*time.Millisecond); err != nil {
		return "", err
	}
	if err := sleep(ctx, 100*time.Millisecond); err != nil {
		return "", err
	}
	return "Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.", nil
}

// SamplingArgs are the arguments of test_sampling.
type SamplingArgs struct {
	// Prompt is the prompt to send to the LLM.
	Prompt string `json:"prompt"`
}

// TestSampling asks the client's LLM to complete a prompt and returns its
// answer.
//
//mcp:tool readonly
func TestSampling(ctx context.Context, in SamplingArgs) (string, error) {
	res, err := runtime.Sample(ctx, &runtime.CreateMessageParams{
		Messages:  []runtime.SamplingMessage{{Role: "user", Content: runtime.TextContent{Text: in.Prompt}}},
		MaxTokens: 100,
	})
	if err != nil {
		return "", fmt.Errorf("sampling failed: %w", err)
	}
	return "LLM response: " + res.Text(), nil
}

// ElicitationArgs are the arguments of test_elicitation.
type ElicitationArgs struct {
	// Message is what the user is asked.
	Message string `json:"message"`
}

// userSchema is the form test_elicitation asks the user to fill in.
const userSchema = `{
	"type": "object",
	"properties": {
		"username": {"type": "string", "description": "User's response"},
		"email": {"type": "string", "description": "User's email address"}
	},
	"required": ["username", "email"]
}`

// TestElicitation asks the user for a user name and an email address.
//
//mcp:tool readonly
func TestElicitation(ctx context.Context, in ElicitationArgs) (string, error) {
	return elicit(ctx, in.Message, userSchema)
}

// defaultsSchema has a default for each primitive type (SEP-1034).
const defaultsSchema = `{
	"type": "object",
	"properties": {
		"name": {"type": "string", "description": "User name", "default": "John Doe"},
		"age": {"type": "integer", "description": "User age", "default": 30},
		"score": {"type": "number", "description": "User score", "default": 95.5},
		"status": {"type": "string", "description": "User status", "enum": ["active", "inactive", "pending"], "default": "active"},
		"verified": {"type": "boolean", "description": "Verification status", "default": true}
	}
}`

// TestElicitationSep1034Defaults asks for a form whose fields have default
// values.
//
//mcp:tool readonly name=test_elicitation_sep1034_defaults
func TestElicitationSep1034Defaults(ctx context.Context) (string, error) {
	return elicit(ctx, "Test defaults for primitives", defaultsSchema)
}

// enumsSchema has every shape of enum (SEP-1330): single and multiple
// choice, with and without titles, and the legacy enumNames.
const enumsSchema = `{
	"type": "object",
	"properties": {
		"untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
		"titledSingle": {"type": "string", "oneOf": [
			{"const": "value1", "title": "First Option"},
			{"const": "value2", "title": "Second Option"},
			{"const": "value3", "title": "Third Option"}
		]},
		"legacyEnum": {"type": "string", "enum": ["opt1", "opt2", "opt3"], "enumNames": ["Option One", "Option Two", "Option Three"]},
		"untitledMulti": {"type": "array", "minItems": 1, "maxItems": 3, "items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
		"titledMulti": {"type": "array", "minItems": 1, "maxItems": 3, "items": {"type": "string", "anyOf": [
			{"const": "value1", "title": "First Option"},
			{"const": "value2", "title": "Second Option"},
			{"const": "value3", "title": "Third Option"}
		]}}
	}
}`

// TestElicitationSep1330Enums asks for a form with every kind of enum.
//
//mcp:tool readonly name=test_elicitation_sep1330_enums
func TestElicitationSep1330Enums(ctx context.Context) (string, error) {
	return elicit(ctx, "Test enum schemas", enumsSchema)
}

// elicit asks the user to fill in a form and describes the answer.
func elicit(ctx context.Context, message, schema string) (string, error) {
	res, err := runtime.Elicit(ctx, &runtime.ElicitParams{Message: message, RequestedSchema: json.RawMessage(schema)})
	if err != nil {
		return "", fmt.Errorf("elicitation failed: %w", err)
	}
	content := string(res.Content)
	if content == "" {
		content = "{}"
	}
	return fmt.Sprintf("Elicitation result: action=%s, content=%s", res.Action, content), nil
}

// sleep waits for d or the end of ctx.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
