package runtime_test

import (
	"context"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

// goListDeps returns the packages pkg links, itself included.
func goListDeps(t *testing.T, pkg string) []string {
	t.Helper()
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatal("the go command is needed to list imports:", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, gocmd, "list", "-deps", pkg).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	return strings.Fields(string(out))
}

// TestRuntimeLinksNoHTTP keeps the network stack out of package runtime:
// a server that serves stdio links it alone, and every package it links
// is initialised when the program starts. The HTTP transports live in
// package mcphttp.
func TestRuntimeLinksNoHTTP(t *testing.T) {
	deps := goListDeps(t, "github.com/mcpgen/mcpgen/runtime")
	if !slices.Contains(deps, "github.com/mcpgen/mcpgen/runtime") {
		t.Fatalf("go list -deps did not list the runtime itself: %q", deps)
	}
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
	for _, dep := range goListDeps(t, pkg) {
		first, _, _ := strings.Cut(dep, "/")
		if strings.Contains(first, ".") && !slices.Contains(own, dep) {
			t.Errorf("%s depends on %s, which is not in the standard library", pkg, dep)
		}
	}
}
