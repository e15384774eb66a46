package runtime

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"slices"
	"strconv"
	"unsafe"
)

// Content is one block of a tool result or a prompt message:
// [TextContent], [ImageContent], [AudioContent], [ResourceLink] or
// [EmbeddedResource], or a pointer to one.
//
// A client whose protocol revision predates a kind of block never receives
// it raw: audio (2025-03-26+) becomes a text block saying that audio of
// that type was left out, and a resource link (2025-06-18+) becomes a text
// block naming the resource and its URI, which the client can still read.
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
	Size        int64 // in bytes; sent when > 0
	Annotations *Annotations
}

// EmbeddedResource carries the contents of a resource: Text, or Blob when
// Blob is not nil.
type EmbeddedResource struct {
	URI         string
	MIMEType    string
	Text        string
	Blob        []byte
	Annotations *Annotations
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
	if c.Size > 0 {
		dst = append(dst, `,"size":`...)
		dst = strconv.AppendInt(dst, c.Size, 10)
	}
	dst = c.Annotations.appendJSON(dst, latestRevision)
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
	dst = append(dst, '}')
	dst = c.Annotations.appendJSON(dst, latestRevision)
	return append(dst, '}')
}

// appendContent appends block c as the client's revision knows it (see
// [Content]).
func appendContent(dst []byte, c Content, rev revision) []byte {
	switch b := c.(type) {
	case nil:
		c = TextContent{}
	case AudioContent:
		if !rev.has(featureAudio) {
			c = audioLeftOut(b.MIMEType, len(b.Data))
		}
	case *AudioContent:
		if !rev.has(featureAudio) {
			c = audioLeftOut(b.MIMEType, len(b.Data))
		}
	case ResourceLink:
		if !rev.has(featureResourceLink) {
			c = linkAsText(&b)
		}
	case *ResourceLink:
		if !rev.has(featureResourceLink) {
			c = linkAsText(b)
		}
	case EmbeddedResource:
		if b.Annotations != nil && !rev.has(featureToolTitle) {
			b.Annotations = b.Annotations.before20250618()
			c = b
		}
	case *EmbeddedResource:
		if b.Annotations != nil && !rev.has(featureToolTitle) {
			e := *b
			e.Annotations = b.Annotations.before20250618()
			c = e
		}
	}
	return c.appendJSON(dst)
}

func audioLeftOut(mime string, n int) TextContent {
	return TextContent{Text: "[audio (" + mime + ", " + strconv.Itoa(n) + " bytes) left out: this client's protocol revision has no audio content]"}
}

func linkAsText(l *ResourceLink) TextContent {
	t := "Resource " + l.Name + ": " + l.URI
	if l.Description != "" {
		t += " (" + l.Description + ")"
	}
	return TextContent{Text: t}
}

// Annotations tell a client how to use or show an object. A zero field is
// not sent.
type Annotations struct {
	// Audience lists who the object is for: "user", "assistant" or both.
	Audience []string
	// Priority, from 0 (optional) to 1 (required), says how important the
	// object is.
	Priority *float64
	// LastModified is an ISO 8601 time, such as "2025-01-12T15:00:58Z"
	// (sent to clients of revision 2025-06-18 and later).
	LastModified string
}

// before20250618 returns a without what revisions before 2025-06-18 lack.
func (a *Annotations) before20250618() *Annotations {
	if a.LastModified == "" {
		return a
	}
	c := *a
	c.LastModified = ""
	return &c
}

func (a *Annotations) appendJSON(dst []byte, rev revision) []byte {
	if a == nil || len(a.Audience) == 0 && a.Priority == nil && (a.LastModified == "" || !rev.has(featureToolTitle)) {
		return dst
	}
	dst = append(dst, `,"annotations":{`...)
	n := len(dst)
	if len(a.Audience) > 0 {
		dst = append(dst, `"audience":`...)
		dst = appendStrings(dst, a.Audience)
	}
	if a.Priority != nil {
		if len(dst) > n {
			dst = append(dst, ',')
		}
		dst = append(dst, `"priority":`...)
		dst = strconv.AppendFloat(dst, *a.Priority, 'g', -1, 64)
	}
	if a.LastModified != "" && rev.has(featureToolTitle) {
		if len(dst) > n {
			dst = append(dst, ',')
		}
		dst = append(dst, `"lastModified":`...)
		dst = appendString(dst, a.LastModified)
	}
	return append(dst, '}')
}

// NewText returns a text block.
func NewText(text string) Content { return TextContent{Text: text} }

// NewImage returns an image block; data is the raw image, such as PNG bytes.
func NewImage(data []byte, mimeType string) Content {
	return ImageContent{Data: data, MIMEType: mimeType}
}

// NewAudio returns an audio block; data is the raw audio, such as WAV bytes.
func NewAudio(data []byte, mimeType string) Content {
	return AudioContent{Data: data, MIMEType: mimeType}
}

// NewEmbeddedText returns a block embedding a text resource.
func NewEmbeddedText(uri, mimeType, text string) Content {
	return EmbeddedResource{URI: uri, MIMEType: mimeType, Text: text}
}

// NewEmbeddedBlob returns a block embedding a binary resource; data is
// sent base64-encoded.
func NewEmbeddedBlob(uri, mimeType string, data []byte) Content {
	if data == nil {
		data = []byte{}
	}
	return EmbeddedResource{URI: uri, MIMEType: mimeType, Blob: data}
}

// NewResourceLink returns a block pointing to the resource at uri.
func NewResourceLink(uri, name string) Content { return ResourceLink{URI: uri, Name: name} }

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

	encoded []byte // StructuredContent as a generated encoder wrote it: see EncodedResult
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
// structured content. The result keeps raw, and the text block shares its
// bytes: raw must not change afterwards.
func StructuredResult(raw []byte) *CallToolResult {
	r := TextResult(unsafe.String(unsafe.SliceData(raw), len(raw)))
	r.StructuredContent = raw
	return r
}

// ContentResult returns a result holding the given blocks.
func ContentResult(content []Content) *CallToolResult {
	return &CallToolResult{Content: content}
}

// appendJSON appends the result as a JSON object for the given revision.
func (r *CallToolResult) appendJSON(dst []byte, rev revision) []byte {
	dst = slices.Grow(dst, r.sizeHint())
	dst = append(dst, `{"content":[`...)
	for i, c := range r.Content {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendContent(dst, c, rev)
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

// sizeHint returns about how many bytes appendJSON writes, so that a large
// result is written into a buffer allocated once rather than grown step by
// step: the text blocks and the structured content; where a text block is
// the structured content's JSON (see StructuredResult), with the
// backslashes its quotes and backslashes take.
func (r *CallToolResult) sizeHint() int {
	n := 64 + len(r.StructuredContent)
	for _, c := range r.Content {
		var text string
		switch t := c.(type) {
		case *TextContent:
			text = t.Text
		case TextContent:
			text = t.Text
		default:
			n += 64
			continue
		}
		n += 32 + len(text)
		if len(text) > 0 && len(text) == len(r.StructuredContent) && unsafe.StringData(text) == unsafe.SliceData(r.StructuredContent) {
			n += bytes.Count(r.StructuredContent, quoteByte) + bytes.Count(r.StructuredContent, backslashByte)
		}
	}
	return n
}

var quoteByte, backslashByte = []byte{'"'}, []byte{'\\'}
