package runtime

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"time"
)

// Server holds what an MCP server offers: its identity and its tools. One
// Server serves any number of sessions, concurrently.
type Server struct {
	name, version string
	opts          options

	mu    sync.RWMutex
	tools []*Tool
	index map[string]*Tool
	lists listCache

	prims primitives   // resources, templates, prompts (primitives.go)
	live  liveSessions // initialized sessions, for notifications (notify.go)

	listeners listeners // subscriptions/listen requests (listen.go)
}

type options struct {
	title        string
	instructions string
	pageSize     int
	logger       *slog.Logger
	maxMessage   int
	maxInFlight  int
	subscribe    bool          // WithResourceSubscriptions
	clientWait   time.Duration // see WithClientRequestTimeout
	grace        time.Duration // see WithShutdownGrace
	memBudget    int           // see WithMemoryBudget
	toolTimeout  time.Duration // see WithToolTimeout
	cache        cacheHint     // WithCacheHint (revision 2026-07-28)
	stateKey     []byte        // WithRequestStateKey (revision 2026-07-28)
}

// Option configures a Server.
type Option func(*options)

// WithTitle sets the human-readable server title sent to clients of
// revision 2025-06-18 and later.
func WithTitle(title string) Option { return func(o *options) { o.title = title } }

// WithInstructions sets the instructions returned by initialize: how to use
// the server, for the model.
func WithInstructions(s string) Option { return func(o *options) { o.instructions = s } }

// WithPageSize sets how many items a list request returns per page
// (default 100). n < 1 means all items on one page. Larger pages save
// round trips, not time: listing 1,000 tools over stdio took as long in
// pages of 50 to 250, and 30 to 70% longer in one page, which a client
// gathers and decodes more slowly.
func WithPageSize(n int) Option { return func(o *options) { o.pageSize = n } }

// WithLogger sets the logger for server-side events such as recovered panics
// (default: text to stderr). Over stdio, logs must never go to stdout.
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.logger = l } }

// WithMaxMessageSize sets the largest message, in bytes, a stream transport
// accepts (default 32 MiB). Larger messages are answered with an error.
func WithMaxMessageSize(n int) Option { return func(o *options) { o.maxMessage = n } }

// WithMaxInFlight sets how many calls of one session may run at once
// (default 1024). At the limit the session stops reading until a call
// ends, so a client that sends faster than it reads the answers slows down
// instead of growing the server without bound.
func WithMaxInFlight(n int) Option { return func(o *options) { o.maxInFlight = n } }

// NewServer returns a Server with the given implementation name and version.
func NewServer(name, version string, opts ...Option) *Server {
	s := &Server{name: name, version: version, index: map[string]*Tool{}}
	s.opts = options{pageSize: 100, maxMessage: 32 << 20, maxInFlight: 1024, clientWait: defaultClientWait, grace: defaultGrace, memBudget: defaultMemBudget}
	for _, o := range opts {
		o(&s.opts)
	}
	if s.opts.logger == nil {
		s.opts.logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	return s
}

// Logger returns the server's logger.
func (s *Server) Logger() *slog.Logger { return s.opts.logger }

// AddTool registers a tool. It panics on a programming error: an invalid or
// duplicate name, a missing handler or input schema.
func (s *Server) AddTool(t Tool) {
	if err := validToolName(t.Name); err != nil {
		panic("runtime: AddTool: " + err.Error())
	}
	if t.Handler == nil {
		panic(fmt.Sprintf("runtime: AddTool %q: nil Handler", t.Name))
	}
	in, err := compactJSON(t.InputSchema)
	if err != nil || len(in) == 0 || in[0] != '{' {
		panic(fmt.Sprintf("runtime: AddTool %q: InputSchema must be a JSON object", t.Name))
	}
	t.InputSchema = in
	if t.OutputSchema != nil {
		out, err := compactJSON(t.OutputSchema)
		if err != nil || len(out) == 0 || out[0] != '{' {
			panic(fmt.Sprintf("runtime: AddTool %q: OutputSchema must be a JSON object", t.Name))
		}
		t.OutputSchema = out
	}
	s.mu.Lock()
	if _, dup := s.index[t.Name]; dup {
		s.mu.Unlock()
		panic(fmt.Sprintf("runtime: AddTool: duplicate tool name %q", t.Name))
	}
	tool := t
	s.tools = append(s.tools, &tool)
	s.index[t.Name] = &tool
	s.mu.Unlock()
	// After unlocking: toolPages takes the cache's lock, then s.mu. Pages
	// built from the tools before this one are dropped here.
	s.lists.reset()
	s.toolsChanged()
}

// hasTools reports whether any tool is registered.
func (s *Server) hasTools() bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.tools) > 0
}

// Serve serves one session over a stream of newline-delimited JSON-RPC
// messages: it reads requests from r and writes responses to w.
//
// The session ends at the end of r or when ctx is cancelled; it stops
// reading, and the calls in flight have the grace period (see
// [WithShutdownGrace]) to return and their answers to be written. At the
// end of r the calls run on; when ctx is cancelled, their contexts are
// cancelled at once. When the grace period is over, the contexts of the
// calls left are cancelled, their answers abandoned, and Serve returns.
//
// Serve returns nil when ctx was cancelled: a shutdown the caller asked
// for is not an error. Otherwise it returns the error that ended the read,
// or else the first error of a write, or nil. It does not wait for a read or write that cannot be
// interrupted: if r is an io.Closer it is closed, and if w has a
// SetWriteDeadline method, the deadline is set when the grace period is
// over; otherwise a goroutine blocked in r.Read or w.Write is left behind,
// and anything it reads later is discarded.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	return newStreamConn(r, w, s.opts.maxMessage).serve(ctx, s)
}

// validToolName checks the MCP tool name rules: 1 to 128 characters of
// A-Z a-z 0-9 _ - .
func validToolName(name string) error {
	if name == "" || len(name) > 128 {
		return fmt.Errorf("tool name %q must have 1 to 128 characters", name)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '.') {
			return fmt.Errorf("tool name %q has %q, but only A-Z a-z 0-9 _ - and . are allowed", name, c)
		}
	}
	return nil
}
