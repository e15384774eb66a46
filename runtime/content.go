package runtime

import (
	"encoding/base64"
	"encoding/json"
)

// Content is one block of a tool result: [TextContent], [ImageContent],
// [AudioContent], [ResourceLink] or [EmbeddedResource].
type Content interface {
	// appendJSON appends the block as a JSON object.
	appendJSON(dst []byte) []byte
}

// TextContent is a block of text.
type TextContent struct {
	Text string
}

// ImageContent is an image; Data holds the raw bytes, sent base64-encoded.
type ImageContent struct {
	Data     []byte
	MIMEType string
}

// AudioContent is audio; Data holds the raw bytes, sent base64-encoded.
// Clients of revision 2024-11-05 do not know this block.
type AudioContent struct {
	Data     []byte
	MIMEType string
}

// ResourceLink points to a resource the client may read.
type ResourceLink struct {
	URI         string
	Name        string
	Title       string
	Description string
	MIMEType    string
}

// EmbeddedResource carries the contents of a resource: Text, or Blob when
// Blob is not nil.
type EmbeddedResource struct {
	URI      string
	MIMEType string
	Text     string
	Blob     []byte
}

func (c TextContent) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"type":"text","text":`...)
	dst = appendString(dst, c.Text)
	return append(dst, '}')
}

func appendBinary(dst []byte, typ string, data []byte, mime string) []byte {
	dst = append(dst, `{"type":"`...)
	dst = append(dst, typ...)
	dst = append(dst, `","data":"`...)
	dst = base64.StdEncoding.AppendEncode(dst, data)
	dst = append(dst, `","mimeType":`...)
	dst = appendString(dst, mime)
	return append(dst, '}')
}

func (c ImageContent) appendJSON(dst []byte) []byte {
	return appendBinary(dst, "image", c.Data, c.MIMEType)
}

func (c AudioContent) appendJSON(dst []byte) []byte {
	return appendBinary(dst, "audio", c.Data, c.MIMEType)
}

func appendOptional(dst []byte, key, value string) []byte {
	if value == "" {
		return dst
	}
	dst = append(dst, ',', '"')
	dst = append(dst, key...)
	dst = append(dst, '"', ':')
	return appendString(dst, value)
}

func (c ResourceLink) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"type":"resource_link","uri":`...)
	dst = appendString(dst, c.URI)
	dst = append(dst, `,"name":`...)
	dst = appendString(dst, c.Name)
	dst = appendOptional(dst, "title", c.Title)
	dst = appendOptional(dst, "description", c.Description)
	dst = appendOptional(dst, "mimeType", c.MIMEType)
	return append(dst, '}')
}

func (c EmbeddedResource) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"type":"resource","resource":{"uri":`...)
	dst = appendString(dst, c.URI)
	dst = appendOptional(dst, "mimeType", c.MIMEType)
	if c.Blob != nil {
		dst = append(dst, `,"blob":"`...)
		dst = base64.StdEncoding.AppendEncode(dst, c.Blob)
		dst = append(dst, '"')
	} else {
		dst = append(dst, `,"text":`...)
		dst = appendString(dst, c.Text)
	}
	return append(dst, "}}"...)
}

// CallToolResult is the result of tools/call.
type CallToolResult struct {
	Content []Content
	// StructuredContent, if not nil, is the raw JSON object matching the
	// tool's output schema. It is sent to clients of revision 2025-06-18
	// and later; older clients get Content only.
	StructuredContent json.RawMessage
	// IsError marks a tool execution error: the model reads Content and may
	// correct its call.
	IsError bool
}

// textResult holds a one-block result in a single allocation.
type textResult struct {
	res     CallToolResult
	content [1]Content
	text    TextContent
}

// TextResult returns a result holding one text block.
func TextResult(text string) *CallToolResult {
	r := &textResult{text: TextContent{Text: text}}
	r.content[0] = &r.text
	r.res.Content = r.content[:]
	return &r.res
}

// ErrorResult returns an isError result holding one text block.
func ErrorResult(text string) *CallToolResult {
	r := TextResult(text)
	r.IsError = true
	return r
}

// StructuredResult returns a result whose structuredContent is the JSON
// object raw, also sent as a text block for clients that do not read
// structured content.
func StructuredResult(raw []byte) *CallToolResult {
	r := TextResult(string(raw))
	r.StructuredContent = raw
	return r
}

// ContentResult returns a result holding the given blocks.
func ContentResult(content []Content) *CallToolResult {
	return &CallToolResult{Content: content}
}

// appendJSON appends the result as a JSON object for the given revision.
func (r *CallToolResult) appendJSON(dst []byte, rev revision) []byte {
	dst = append(dst, `{"content":[`...)
	for i, c := range r.Content {
		if i > 0 {
			dst = append(dst, ',')
		}
		if c == nil {
			c = TextContent{}
		}
		dst = c.appendJSON(dst)
	}
	dst = append(dst, ']')
	if r.StructuredContent != nil && rev.has(featureStructuredContent) {
		dst = append(dst, `,"structuredContent":`...)
		dst = append(dst, r.StructuredContent...)
	}
	if r.IsError {
		dst = append(dst, `,"isError":true`...)
	}
	return append(dst, '}')
}
