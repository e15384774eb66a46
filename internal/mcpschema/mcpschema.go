// Package mcpschema validates the messages an MCP server writes against the
// official JSON Schema of each MCP protocol revision. It is test support.
//
// The schemas are read from the folder shared/mcp-schema/<revision>/schema.json
// that sits beside the repository root, or from the folder named by the
// environment variable MCPGEN_SCHEMA_DIR. When neither is found, [Load]
// returns an error wrapping [ErrNoSchemas]; [Require] turns that into a
// skipped test, or a failed one when the environment variable CI is "true".
package mcpschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// ErrNoSchemas is wrapped by the errors of [Load] and [Dir] when the schema
// folder or a revision's schema.json cannot be found.
var ErrNoSchemas = errors.New("mcpschema: MCP JSON Schemas not found")

// EnvDir names the environment variable that overrides the schema folder.
const EnvDir = "MCPGEN_SCHEMA_DIR"

// Revisions are the protocol revisions this package validates, oldest first.
var Revisions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}

// Latest is the newest revision in [Revisions].
const Latest = "2025-11-25"

// Stateless is the revision without initialize, 2026-07-28: every request
// carries its version and client capabilities in _meta. [Load] knows it;
// it is not in [Revisions], the revisions initialize negotiates.
const Stateless = "2026-07-28"

// resultDefs names the definition of the result of each client request.
var resultDefs = map[string]string{
	"initialize":               "InitializeResult",
	"ping":                     "EmptyResult",
	"tools/list":               "ListToolsResult",
	"tools/call":               "CallToolResult",
	"resources/list":           "ListResourcesResult",
	"resources/templates/list": "ListResourceTemplatesResult",
	"resources/read":           "ReadResourceResult",
	"resources/subscribe":      "EmptyResult",
	"resources/unsubscribe":    "EmptyResult",
	"prompts/list":             "ListPromptsResult",
	"prompts/get":              "GetPromptResult",
	"logging/setLevel":         "EmptyResult",
	"completion/complete":      "CompleteResult",
	"server/discover":          "DiscoverResult",
	"subscriptions/listen":     "SubscriptionsListenResult",
}

// Dir returns the schema folder: $MCPGEN_SCHEMA_DIR when set, else the
// folder shared/mcp-schema beside the root of the repository holding the
// working directory (found by walking up to a go.mod).
func Dir() (string, error) {
	if d := os.Getenv(EnvDir); d != "" {
		if !isDir(d) {
			return "", fmt.Errorf("%w: %s=%q is not a directory", ErrNoSchemas, EnvDir, d)
		}
		return d, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrNoSchemas, err)
	}
	for dir := wd; ; {
		if isFile(filepath.Join(dir, "go.mod")) {
			cand := filepath.Join(filepath.Dir(dir), "shared", "mcp-schema")
			if isDir(cand) {
				return cand, nil
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return "", fmt.Errorf("%w: no shared/mcp-schema beside a module root above %s (set %s)", ErrNoSchemas, wd, EnvDir)
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// Schemas are the compiled definitions of one protocol revision. They are
// safe for concurrent use.
type Schemas struct {
	rev     string
	url     string
	defsKey string         // "definitions" or "$defs"
	defs    map[string]any // the raw definitions

	resultEnv, errorEnv, batchEnv string // envelope definitions; batchEnv "" without batches

	notifications map[string]string // server notification method -> definition
	requests      map[string]string // server request method -> definition

	mu       sync.Mutex
	compiler *jsonschema.Compiler
	compiled map[string]*jsonschema.Schema
}

type cacheKey struct{ dir, rev string }

var (
	cacheMu sync.Mutex
	cache   = map[cacheKey]*Schemas{}
)

// Load returns the schemas of revision rev, one of [Revisions].
func Load(rev string) (*Schemas, error) {
	if !slices.Contains(Revisions, rev) && rev != Stateless {
		return nil, fmt.Errorf("mcpschema: unknown protocol revision %q (known: %s, %s)", rev, strings.Join(Revisions, ", "), Stateless)
	}
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	key := cacheKey{dir, rev}
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if s := cache[key]; s != nil {
		return s, nil
	}
	path := filepath.Join(dir, rev, "schema.json")
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoSchemas, err)
	}
	s, err := newSchemas(rev, path, data)
	if err != nil {
		return nil, err
	}
	cache[key] = s
	return s, nil
}

func newSchemas(rev, path string, data []byte) (*Schemas, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("mcpschema: %s: %v", path, err)
	}
	root, ok := doc.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("mcpschema: %s: not a JSON object", path)
	}
	s := &Schemas{rev: rev, url: "https://mcpgen.invalid/mcp-schema/" + rev + "/schema.json", compiled: map[string]*jsonschema.Schema{}}
	for _, k := range []string{"$defs", "definitions"} {
		if d, ok := root[k].(map[string]any); ok {
			s.defsKey, s.defs = k, d
			break
		}
	}
	if s.defs == nil {
		return nil, fmt.Errorf("mcpschema: %s: neither $defs nor definitions", path)
	}
	s.resultEnv = s.first("JSONRPCResultResponse", "JSONRPCResponse")
	s.errorEnv = s.first("JSONRPCErrorResponse", "JSONRPCError")
	s.batchEnv = s.first("JSONRPCBatchResponse")
	for _, d := range []string{s.resultEnv, s.errorEnv, "JSONRPCNotification", "JSONRPCRequest"} {
		if !s.Has(d) {
			return nil, fmt.Errorf("mcpschema: %s: no JSON-RPC envelope definitions", path)
		}
	}
	s.notifications = s.methods("ServerNotification")
	s.requests = s.methods("ServerRequest")
	s.compiler = jsonschema.NewCompiler()
	s.compiler.AssertFormat()
	s.compiler.RegisterFormat(uriTemplateFormat)
	if err := s.compiler.AddResource(s.url, doc); err != nil {
		return nil, fmt.Errorf("mcpschema: %s: %v", path, err)
	}
	return s, nil
}

// first returns the first of names that is defined, or "".
func (s *Schemas) first(names ...string) string {
	for _, n := range names {
		if s.Has(n) {
			return n
		}
	}
	return ""
}

// methods maps the method constants of the definitions listed by the union
// definition union (such as ServerNotification) to their definition names.
func (s *Schemas) methods(union string) map[string]string {
	out := map[string]string{}
	u, _ := s.defs[union].(map[string]any)
	alts, _ := u["anyOf"].([]any)
	prefix := "#/" + s.defsKey + "/"
	for _, a := range alts {
		ref, _ := a.(map[string]any)["$ref"].(string)
		name, ok := strings.CutPrefix(ref, prefix)
		if !ok {
			continue
		}
		def, _ := s.defs[name].(map[string]any)
		props, _ := def["properties"].(map[string]any)
		method, _ := props["method"].(map[string]any)
		if c, ok := method["const"].(string); ok {
			out[c] = name
		}
	}
	return out
}

// Revision returns the protocol revision of s.
func (s *Schemas) Revision() string { return s.rev }

// Has reports whether the revision defines def.
func (s *Schemas) Has(def string) bool {
	_, ok := s.defs[def]
	return ok
}

// HasBatches reports whether the revision has JSON-RPC batches.
func (s *Schemas) HasBatches() bool { return s.batchEnv != "" }

func (s *Schemas) schema(def string) (*jsonschema.Schema, error) {
	if !s.Has(def) {
		return nil, fmt.Errorf("mcpschema: revision %s defines no %s", s.rev, def)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if sch := s.compiled[def]; sch != nil {
		return sch, nil
	}
	sch, err := s.compiler.Compile(s.url + "#/" + s.defsKey + "/" + def)
	if err != nil {
		return nil, fmt.Errorf("mcpschema: compiling %s of revision %s: %v", def, s.rev, err)
	}
	s.compiled[def] = sch
	return sch, nil
}

// Validate validates the JSON document doc against the definition def.
func (s *Schemas) Validate(def string, doc []byte) error {
	v, err := parse(doc)
	if err != nil {
		return err
	}
	return s.validateValue(def, v, "")
}

func (s *Schemas) validateValue(def string, v any, where string) error {
	sch, err := s.schema(def)
	if err != nil {
		return err
	}
	if err := sch.Validate(v); err != nil {
		if where != "" {
			where += " "
		}
		return fmt.Errorf("revision %s: %snot a valid %s: %v", s.rev, where, def, err)
	}
	return nil
}

// parse decodes one JSON value, keeping numbers exact.
func parse(doc []byte) (any, error) {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return nil, fmt.Errorf("mcpschema: not a JSON value: %v: %.200q", err, doc)
	}
	return v, nil
}

// ValidateResponse validates msg, one response (a result or an error) to a
// request of the given method. A result is validated against the result
// definition of the method (InitializeResult for initialize, ListToolsResult
// for tools/list, CallToolResult for tools/call, EmptyResult for ping…, the
// generic Result for other methods) inside the revision's result envelope;
// an error against the revision's error envelope.
func (s *Schemas) ValidateResponse(method string, msg []byte) error {
	v, err := parse(msg)
	if err != nil {
		return err
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("revision %s: a response must be a JSON object: %.200s", s.rev, msg)
	}
	return s.validateResponse(method, obj)
}

func (s *Schemas) validateResponse(method string, obj map[string]any) error {
	_, hasResult := obj["result"]
	_, hasError := obj["error"]
	switch {
	case hasResult && hasError:
		return fmt.Errorf("revision %s: a response has both result and error", s.rev)
	case hasError:
		return s.validateError(obj)
	case !hasResult:
		return fmt.Errorf("revision %s: a response has neither result nor error", s.rev)
	}
	if err := s.validateValue(s.resultEnv, obj, "response"); err != nil {
		return err
	}
	def := resultDefs[method]
	if res, _ := obj["result"].(map[string]any); res != nil && res["resultType"] == "input_required" {
		def = "InputRequiredResult"
	}
	if def == "" || !s.Has(def) {
		def = "Result"
	}
	return s.validateValue(def, obj["result"], "result of "+method)
}

// validateError validates an error response. JSON-RPC 2.0 asks for a null
// id when the request's id could not be read (a parse error, an invalid
// request); the MCP schemas allow no null id, so such an error is validated
// without its id, or, where the revision requires an id, with a placeholder.
func (s *Schemas) validateError(obj map[string]any) error {
	return s.validateValue(s.errorEnv, s.withoutNullID(obj), "error response")
}

// withoutNullID returns obj, or, when obj is an error response with a null
// id, a copy without the id (with a placeholder id where the revision
// requires one).
func (s *Schemas) withoutNullID(obj map[string]any) map[string]any {
	id, ok := obj["id"]
	if _, isError := obj["error"]; !ok || id != nil || !isError {
		return obj
	}
	c := make(map[string]any, len(obj))
	for k, v := range obj {
		c[k] = v
	}
	delete(c, "id")
	if s.requires(s.errorEnv, "id") {
		c["id"] = json.Number("0")
	}
	return c
}

// requires reports whether the object definition def requires prop.
func (s *Schemas) requires(def, prop string) bool {
	d, _ := s.defs[def].(map[string]any)
	req, _ := d["required"].([]any)
	return slices.Contains(req, any(prop))
}

// ValidateServerMessage validates msg, one message a server wrote: a
// response, an error, a notification, a request, or (in revisions that have
// them) a batch of responses. Without knowing the request a response
// answers, a result is validated against the envelope and the generic
// Result only; use [Schemas.ValidateResponse] or a [Tracker] to check it
// against the method's result definition.
func (s *Schemas) ValidateServerMessage(msg []byte) error {
	v, err := parse(msg)
	if err != nil {
		return err
	}
	if arr, ok := v.([]any); ok {
		if err := s.checkBatch(arr); err != nil {
			return err
		}
		for i, e := range arr {
			if err := s.validateResponse("", e.(map[string]any)); err != nil {
				return fmt.Errorf("batch element %d: %w", i, err)
			}
		}
		return nil
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("revision %s: a message must be a JSON object or an array: %.200s", s.rev, msg)
	}
	if _, ok := obj["method"]; ok {
		return s.validateServerCall(obj)
	}
	return s.validateResponse("", obj)
}

// checkBatch validates a batch response as a whole.
func (s *Schemas) checkBatch(arr []any) error {
	if !s.HasBatches() {
		return fmt.Errorf("revision %s has no JSON-RPC batches, but the server sent an array", s.rev)
	}
	if len(arr) == 0 {
		return fmt.Errorf("revision %s: a batch response must not be empty", s.rev)
	}
	elems := make([]any, len(arr))
	for i, e := range arr {
		obj, ok := e.(map[string]any)
		if !ok {
			return fmt.Errorf("revision %s: batch element %d is not an object", s.rev, i)
		}
		elems[i] = s.withoutNullID(obj)
	}
	return s.validateValue(s.batchEnv, elems, "batch")
}

// validateServerCall validates a request or notification from the server.
func (s *Schemas) validateServerCall(obj map[string]any) error {
	method, _ := obj["method"].(string)
	if _, isRequest := obj["id"]; isRequest {
		if err := s.validateValue("JSONRPCRequest", obj, "request"); err != nil {
			return err
		}
		if def := s.requests[method]; def != "" {
			return s.validateValue(def, obj, "request "+method)
		}
		return nil
	}
	if err := s.validateValue("JSONRPCNotification", obj, "notification"); err != nil {
		return err
	}
	if def := s.notifications[method]; def != "" {
		return s.validateValue(def, obj, "notification "+method)
	}
	return nil
}

// Require returns the schemas of revision rev for a test. When they cannot
// be found it skips the test, or fails it when the environment variable CI
// is "true"; any other error fails the test.
func Require(tb testing.TB, rev string) *Schemas {
	tb.Helper()
	s, err := Load(rev)
	if err != nil {
		if errors.Is(err, ErrNoSchemas) && os.Getenv("CI") != "true" {
			tb.Skip(err)
		}
		tb.Fatal(err)
	}
	return s
}

// RequireAll is [Require] for every revision in [Revisions].
func RequireAll(tb testing.TB) []*Schemas {
	tb.Helper()
	out := make([]*Schemas, len(Revisions))
	for i, rev := range Revisions {
		out[i] = Require(tb, rev)
		if out[i] == nil {
			return nil
		}
	}
	return out
}
