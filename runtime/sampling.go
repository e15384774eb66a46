package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

const methodCreateMessage = "sampling/createMessage"

// CreateMessageParams is a request to the client to sample its LLM
// (sampling/createMessage). Messages and MaxTokens are required.
type CreateMessageParams struct {
	// Messages is the conversation to continue.
	Messages []SamplingMessage `json:"messages"`
	// ModelPreferences advises the client on the choice of a model.
	ModelPreferences *ModelPreferences `json:"modelPreferences,omitempty"`
	// SystemPrompt is an optional system prompt; the client may change or
	// drop it.
	SystemPrompt string `json:"systemPrompt,omitempty"`
	// IncludeContext asks for context from MCP servers: "none" (the
	// default), "thisServer" or "allServers".
	IncludeContext string `json:"includeContext,omitempty"`
	// Temperature, if not nil, is the sampling temperature.
	Temperature *float64 `json:"temperature,omitempty"`
	// MaxTokens bounds the tokens to sample.
	MaxTokens int `json:"maxTokens"`
	// StopSequences end sampling.
	StopSequences []string `json:"stopSequences,omitempty"`
	// Metadata, if not nil, is a raw JSON object passed to the LLM
	// provider.
	Metadata json.RawMessage `json:"metadata,omitempty"`
	// Tools the model may call (revision 2025-11-25+, and only for a client
	// that declared sampling.tools).
	Tools []SamplingTool `json:"tools,omitempty"`
	// ToolChoice controls the use of Tools.
	ToolChoice *ToolChoice `json:"toolChoice,omitempty"`
}

// SamplingMessage is one message of a sampled conversation.
type SamplingMessage struct {
	// Role is "user" or "assistant".
	Role string
	// Content is a [TextContent], [ImageContent] or [AudioContent].
	Content Content
}

// MarshalJSON encodes the message as MCP's SamplingMessage.
func (m SamplingMessage) MarshalJSON() ([]byte, error) {
	switch m.Content.(type) {
	case TextContent, *TextContent, ImageContent, *ImageContent, AudioContent, *AudioContent:
	default:
		return nil, fmt.Errorf("a sampling message holds text, image or audio content, not %T", m.Content)
	}
	b := []byte(`{"role":`)
	b = appendString(b, m.Role)
	b = append(b, `,"content":`...)
	b = m.Content.appendJSON(b)
	return append(b, '}'), nil
}

// ModelPreferences are the server's advice on the choice of a model; the
// client may ignore them. Priorities range from 0 to 1.
type ModelPreferences struct {
	// Hints name models or families, best first ("claude-3-5-sonnet",
	// "sonnet").
	Hints                []ModelHint `json:"hints,omitempty"`
	CostPriority         *float64    `json:"costPriority,omitempty"`
	SpeedPriority        *float64    `json:"speedPriority,omitempty"`
	IntelligencePriority *float64    `json:"intelligencePriority,omitempty"`
}

// ModelHint names a model or a family of models.
type ModelHint struct {
	Name string `json:"name,omitempty"`
}

// SamplingTool is a tool offered to the model in a sampling request.
type SamplingTool struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// InputSchema is the JSON Schema of the tool's arguments, an object.
	InputSchema json.RawMessage `json:"inputSchema"`
}

// ToolChoice controls tool use in sampling: Mode "auto" (the default),
// "required" or "none".
type ToolChoice struct {
	Mode string `json:"mode,omitempty"`
}

// CreateMessageResult is the client's answer to sampling/createMessage.
type CreateMessageResult struct {
	// Role of the sampled message, normally "assistant".
	Role string `json:"role"`
	// Content is the raw JSON of the sampled content: one content block, or
	// (with tools) an array of them. See [CreateMessageResult.Text].
	Content json.RawMessage `json:"content"`
	// Model names the model that sampled.
	Model string `json:"model"`
	// StopReason says why sampling stopped: "endTurn", "stopSequence",
	// "maxTokens", "toolUse" or a provider's own reason.
	StopReason string `json:"stopReason,omitempty"`
}

// Text returns the text of the result's text blocks, joined by newlines.
func (r *CreateMessageResult) Text() string {
	type block struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	var blocks []block
	var one block
	if json.Unmarshal(r.Content, &one) == nil {
		blocks = []block{one}
	} else if json.Unmarshal(r.Content, &blocks) != nil {
		return ""
	}
	var texts []string
	for _, b := range blocks {
		if b.Type == "text" {
			texts = append(texts, b.Text)
		}
	}
	return strings.Join(texts, "\n")
}

// Sample asks the client of ctx, a handler's context, to sample its LLM
// (sampling/createMessage) and returns the answer. It fails at once, with
// an error matching [ErrCapability], when the client did not declare the
// sampling capability (or sampling.tools, when p has tools). A client that
// declines answers with an error, returned as an [*Error]. Within a
// request, over Streamable HTTP, the request goes on the request's event
// stream.
func Sample(ctx context.Context, p *CreateMessageParams) (*CreateMessageResult, error) {
	t, err := talkerOf(ctx, "Sample")
	if err != nil {
		return nil, err
	}
	caps := t.caps().Sampling
	switch {
	case caps == nil:
		return nil, &capabilityError{"Sample", "the client did not declare the sampling capability", "sampling"}
	case (len(p.Tools) > 0 || p.ToolChoice != nil) && t.s.rev < rev20251125:
		return nil, &capabilityError{"Sample", "tools in sampling need protocol revision 2025-11-25 or later; the client speaks " + t.s.rev.String(), ""}
	case (len(p.Tools) > 0 || p.ToolChoice != nil) && !caps.Tools:
		return nil, &capabilityError{"Sample", "the client did not declare the sampling.tools capability", "sampling.tools"}
	case len(p.Messages) == 0:
		return nil, fmt.Errorf("runtime: Sample: no messages to sample from")
	case p.MaxTokens < 1:
		return nil, fmt.Errorf("runtime: Sample: MaxTokens must be at least 1")
	}
	params, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("runtime: Sample: %w", err)
	}
	raw, err := t.request(ctx, methodCreateMessage, params)
	if err != nil {
		return nil, err
	}
	res := new(CreateMessageResult)
	if err := json.Unmarshal(raw, res); err != nil || res.Content == nil {
		return nil, fmt.Errorf("runtime: Sample: the client's answer is not a sampled message: %.200s", raw)
	}
	return res, nil
}
