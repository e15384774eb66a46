package runtime_test

import (
	"testing"

	"github.com/mcpgen/mcpgen/internal/apicheck"
)

// runtimeAPI is the reviewed list of the package's exported names: what a
// user of the runtime reads in its documentation. Plumbing for generated
// code (decoders, encoders, checks) belongs in package mcpimpl instead; a
// name added here is a name every user sees.
var runtimeAPI = `
	const CachePrivate
	const CachePublic
	const CodeHeaderMismatch
	const CodeInternalError
	const CodeInvalidParams
	const CodeInvalidRequest
	const CodeMethodNotFound
	const CodeMissingClientCapability
	const CodeParseError
	const CodeResourceNotFound
	const CodeUnsupportedProtocolVersion
	const ElicitAccept
	const ElicitCancel
	const ElicitDecline
	const ElicitForm
	const ElicitURL
	const LevelAlert
	const LevelCritical
	const LevelDebug
	const LevelEmergency
	const LevelError
	const LevelInfo
	const LevelNotice
	const LevelWarning
	func AskForm
	func AssistantMessage
	func BlobContents
	func Bool
	func ClientCapabilities
	func ClientInfo
	func CloseStream
	func CompleteElicitation
	func ContentResult
	func ContextWithPrincipal
	func Elicit
	func EncodedResult
	func EnumCompletion
	func ErrorResult
	func Log
	func Logger
	func MissingCapability
	func NewAudio
	func NewEmbeddedBlob
	func NewEmbeddedText
	func NewError
	func NewImage
	func NewLogHandler
	func NewResourceLink
	func NewServer
	func NewText
	func ParseURITemplate
	func Ping
	func PrincipalFromContext
	func Progress
	func ProtocolVersion
	func Roots
	func Sample
	func SessionFromContext
	func Structured
	func StructuredResult
	func SupportedVersions
	func TextContents
	func TextResult
	func UserMessage
	func WithCacheHint
	func WithClientRequestTimeout
	func WithInstructions
	func WithLogger
	func WithMaxInFlight
	func WithMaxMessageSize
	func WithMemoryBudget
	func WithPageSize
	func WithRequestStateKey
	func WithResourceSubscriptions
	func WithShutdownGrace
	func WithTitle
	func WithToolTimeout
	method CreateMessageResult.Text
	method Error.Error
	method FormError.Error
	method LogLevel.Slog
	method LogLevel.String
	method Principal.HasScope
	method SamplingMessage.MarshalJSON
	method Server.AddPrompt
	method Server.AddResource
	method Server.AddResourceTemplate
	method Server.AddTool
	method Server.Answers
	method Server.Logger
	method Server.MaxMessageSize
	method Server.OpenSession
	method Server.RemovePrompt
	method Server.RemoveResource
	method Server.RemoveResourceTemplate
	method Server.RemoveTool
	method Server.ResourceUpdated
	method Server.Serve
	method Server.ServeStdio
	method Call.Run
	method Session.AssumeVersion
	method Session.CancelExchange
	method Session.ClientInfo
	method Session.End
	method Session.Handle
	method Session.Notify
	method Session.ProtocolVersion
	method URITemplate.Expand
	method URITemplate.IsLiteral
	method URITemplate.Match
	method URITemplate.String
	method URITemplate.Vars
	method URITemplateError.Error
	type Annotations
	type AudioContent
	type CacheHint
	type Call
	type CallToolResult
	type Capabilities
	type CompleteFunc
	type CompleteRequest
	type Content
	type CreateMessageParams
	type CreateMessageResult
	type ElicitParams
	type ElicitResult
	type ElicitationCapability
	type EmbeddedResource
	type Error
	type Exchange
	type Form
	type FormError
	type GetPromptResult
	type ImageContent
	type Implementation
	type LogLevel
	type ModelHint
	type ModelPreferences
	type Option
	type Principal
	type Prompt
	type PromptArgument
	type PromptHandler
	type PromptMessage
	type PromptRequest
	type Resource
	type ResourceContents
	type ResourceHandler
	type ResourceLink
	type ResourceRequest
	type ResourceTemplate
	type Root
	type RootsCapability
	type SamplingCapability
	type SamplingMessage
	type SamplingTool
	type Server
	type Session
	type TextContent
	type Tool
	type ToolAnnotations
	type ToolChoice
	type ToolHandler
	type ToolRequest
	type URITemplate
	type URITemplateError
	var ErrCapability
	var ErrInputRequired
	var ErrNoStream
	var ErrResourceNotFound
`

// TestExportedAPI holds the package's exported names to the reviewed list
// runtimeAPI, so that plumbing for generated code does not creep into the
// package users read, and checks that no exported declaration shows a type
// of package mcpimpl.
func TestExportedAPI(t *testing.T) {
	apicheck.Check(t, ".", runtimeAPI, "runtimeAPI",
		"if generated code alone uses it, move it to package mcpimpl; otherwise add it to the list", "mcpimpl")
}
