package runtime

import (
	"context"
	"slices"
)

// Principal is who a bearer token speaks for, as the transport's token
// verifier found it: handlers get it with [PrincipalFromContext].
type Principal struct {
	// Subject names the user or client the token was issued to; an HTTP
	// session belongs to the subject that started it.
	Subject string
	// Scopes are the scopes the token grants.
	Scopes []string
}

// HasScope reports whether the principal was granted scope.
func (p *Principal) HasScope(scope string) bool {
	return p != nil && slices.Contains(p.Scopes, scope)
}

// principalKey is the context key of the request's principal: a function
// that returns it (in a session's context, the principal of the session's
// latest request).
type principalKey struct{}

// PrincipalFromContext returns whom the bearer token of the request being
// handled speaks for, or nil when the transport does not authorize
// requests (see [github.com/mcpgen/mcpgen/runtime/mcphttp.WithAuthorization]).
func PrincipalFromContext(ctx context.Context) *Principal {
	if p, ok := ctx.Value(principalKey{}).(func() *Principal); ok {
		return p()
	}
	return nil
}

// ContextWithPrincipal returns a copy of ctx in which [PrincipalFromContext]
// finds the principal p returns, for a transport that authorizes requests:
// the context of a request, or that of a session ([Server.OpenSession]),
// whose principal is that of its latest request.
func ContextWithPrincipal(ctx context.Context, p func() *Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}
