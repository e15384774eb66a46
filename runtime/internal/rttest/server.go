package rttest

import (
	"io"
	"log/slog"
	"time"

	rt "github.com/mcpgen/mcpgen/runtime"
)

// Timeout bounds every wait in the tests, so that none can hang.
const Timeout = 60 * time.Second

// Quiet is a logger that discards everything.
var Quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// NewServer returns a server named "test" 1.0.0 that logs nowhere, unless
// opts set another logger.
func NewServer(opts ...rt.Option) *rt.Server {
	return rt.NewServer("test", "1.0.0", append([]rt.Option{rt.WithLogger(Quiet)}, opts...)...)
}
