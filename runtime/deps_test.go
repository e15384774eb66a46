package runtime_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
)

// TestRuntimeLinksNoHTTP keeps the network stack out of package runtime:
// a server that serves stdio links it alone, and every package it links
// is initialised when the program starts. The HTTP transports live in
// package mcphttp.
func TestRuntimeLinksNoHTTP(t *testing.T) {
	deps := rttest.Deps(t, "github.com/mcpgen/mcpgen/runtime")
	for _, p := range []string{"net", "net/http", "crypto/tls", "crypto/x509", "mime", "mime/multipart"} {
		if slices.Contains(deps, p) {
			t.Errorf("package runtime links %s", p)
		}
	}
}

// TestHTTPTransportStandardLibraryOnly: package mcphttp depends on the
// standard library and the runtime alone.
func TestHTTPTransportStandardLibraryOnly(t *testing.T) {
	const pkg = "github.com/mcpgen/mcpgen/runtime/mcphttp"
	own := []string{pkg, "github.com/mcpgen/mcpgen/runtime", "github.com/mcpgen/mcpgen/runtime/mcpimpl", "github.com/mcpgen/mcpgen/runtime/internal/ratelimit"}
	for _, dep := range rttest.Deps(t, pkg) {
		first, _, _ := strings.Cut(dep, "/")
		if strings.Contains(first, ".") && !slices.Contains(own, dep) {
			t.Errorf("%s depends on %s, which is not in the standard library", pkg, dep)
		}
	}
}
