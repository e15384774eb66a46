package runtime_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strings"
	"testing"
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

// exportedAPI lists the exported top-level names of the package in dir,
// methods as "method T.M", and the exported declarations that mention
// package mcpimpl.
func exportedAPI(t *testing.T, dir string) (names, leaks []string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	mentionsImpl := func(n ast.Node) bool {
		found := false
		ast.Inspect(n, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == "mcpimpl" {
					found = true
				}
			}
			return !found
		})
		return found
	}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, dir+"/"+name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				entry := "func " + d.Name.Name
				if d.Recv != nil {
					recv := recvName(d.Recv.List[0].Type)
					if !ast.IsExported(recv) {
						continue
					}
					entry = "method " + recv + "." + d.Name.Name
				}
				names = append(names, entry)
				if mentionsImpl(d.Type) {
					leaks = append(leaks, entry)
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						entry := "type " + s.Name.Name
						names = append(names, entry)
						if st, ok := s.Type.(*ast.StructType); ok {
							for _, fl := range st.Fields.List {
								exported := len(fl.Names) == 0 // embedded
								for _, n := range fl.Names {
									exported = exported || n.IsExported()
								}
								if exported && mentionsImpl(fl.Type) {
									leaks = append(leaks, entry+" (a field)")
								}
							}
						} else if mentionsImpl(s.Type) {
							leaks = append(leaks, entry)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if !n.IsExported() {
								continue
							}
							entry := d.Tok.String() + " " + n.Name
							names = append(names, entry)
							if (s.Type != nil && mentionsImpl(s.Type)) || slices.ContainsFunc(s.Values, func(v ast.Expr) bool { return mentionsImpl(v) }) {
								leaks = append(leaks, entry)
							}
						}
					}
				}
			}
		}
	}
	slices.Sort(names)
	return names, leaks
}

// recvName returns the name of a method's receiver type.
func recvName(x ast.Expr) string {
	for {
		switch r := x.(type) {
		case *ast.StarExpr:
			x = r.X
		case *ast.IndexExpr:
			x = r.X
		case *ast.IndexListExpr:
			x = r.X
		case *ast.Ident:
			return r.Name
		default:
			return ""
		}
	}
}

// TestExportedAPI holds the package's exported names to the reviewed list
// runtimeAPI, so that plumbing for generated code does not creep into the
// package users read, and checks that no exported declaration shows a type
// of package mcpimpl.
func TestExportedAPI(t *testing.T) {
	got, leaks := exportedAPI(t, ".")
	var want []string
	for _, line := range strings.Split(runtimeAPI, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			want = append(want, line)
		}
	}
	slices.Sort(want)
	for _, n := range got {
		if _, found := slices.BinarySearch(want, n); !found {
			t.Errorf("%s is exported but not in the reviewed list runtimeAPI: if generated code alone uses it, move it to package mcpimpl; otherwise add it to the list", n)
		}
	}
	for _, n := range want {
		if _, found := slices.BinarySearch(got, n); !found {
			t.Errorf("%s is in runtimeAPI but no longer exported: remove it from the list", n)
		}
	}
	for _, l := range leaks {
		t.Errorf("%s shows a type of package mcpimpl to users; keep the plumbing unexported", l)
	}
}
