package mcphttp

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/mcpgen/mcpgen/runtime"
)

// TokenVerifier checks a bearer token (an OAuth 2.0 access token issued
// for this server) and returns whom it speaks for. An error means the
// token is not valid: expired, revoked, malformed, or issued for another
// resource. The verifier must check the token's audience: a token issued
// for another server is not valid here.
type TokenVerifier func(ctx context.Context, token string) (*runtime.Principal, error)

// Authorization makes an HTTP handler a protected resource, as the MCP
// authorization specification defines it: every request must carry a
// valid bearer token in its Authorization header, and the handler
// publishes OAuth 2.0 Protected Resource Metadata (RFC 9728) naming the
// authorization servers that issue the tokens.
type Authorization struct {
	// Verify checks bearer tokens; it is required.
	Verify TokenVerifier
	// AuthorizationServers are the issuer URLs of the authorization
	// servers clients get tokens from ("https://auth.example.com").
	AuthorizationServers []string
	// Scopes are the scopes a token must grant for any request; a token
	// without one of them is answered 403 insufficient_scope. They are
	// also the scopes_supported of the metadata.
	Scopes []string
	// Resource is the canonical URL of the MCP endpoint
	// ("https://mcp.example.com/mcp"), the audience of its tokens. Empty:
	// the URL each request was made to (scheme, Host and path), which is
	// right unless a proxy rewrites them.
	Resource string
	// ResourceName is a human-readable name of the server for the
	// metadata; optional.
	ResourceName string
}

// MetadataPath is where the Protected Resource Metadata of a server is
// served (RFC 9728): at the root of its host, followed by the path of the
// MCP endpoint ("/.well-known/oauth-protected-resource/mcp").
const MetadataPath = "/.well-known/oauth-protected-resource"

// WithAuthorization makes the handler require a bearer token that
// a.Verify accepts in every request, except for the metadata, which it
// serves at any path that starts with [MetadataPath]: mount the handler
// there too,
//
//	mux.Handle("/.well-known/oauth-protected-resource/", h)
//
// as [ListenAndServe] does. A request without a valid token is
// answered 401 Unauthorized with a WWW-Authenticate header pointing to
// the metadata; one whose token lacks a required scope, 403 Forbidden
// (insufficient_scope). A session belongs to the subject whose token
// started it: its id presented with another subject's token is answered
// 404 Not Found, as if it did not exist. Tokens are never logged.
//
// It panics if a.Verify is nil.
func WithAuthorization(a Authorization) Option {
	if a.Verify == nil {
		panic("mcphttp.WithAuthorization: Authorization.Verify is nil")
	}
	return func(o *options) { o.auth = &a }
}

func withPrincipal(ctx context.Context, p *runtime.Principal) context.Context {
	return runtime.ContextWithPrincipal(ctx, func() *runtime.Principal { return p })
}

// authorize checks the request's bearer token. It returns the request with
// the principal in its context, or answers 401 or 403 and returns nil.
func (h *httpHandler) authorize(w http.ResponseWriter, req *http.Request) *http.Request {
	a := h.opts.auth
	token, ok := bearerToken(req.Header.Get("Authorization"))
	if !ok {
		h.challenge(w, req, http.StatusUnauthorized, "", "Unauthorized: a bearer token is required (Authorization: Bearer …); the metadata at "+metadataURL(a, req)+" names the authorization servers that issue them")
		return nil
	}
	p, err := a.Verify(req.Context(), token)
	if err == nil && p == nil {
		err = errors.New("the verifier returned no principal")
	}
	if err != nil {
		// The verifier's text may quote the token: keep it out of the log.
		h.srv.Logger().Info("bearer token refused", "remote", req.RemoteAddr, "err", strings.ReplaceAll(err.Error(), token, "[token]"))
		h.challenge(w, req, http.StatusUnauthorized, "invalid_token", "Unauthorized: the bearer token is not valid (expired, revoked, or issued for another resource); get a new one")
		return nil
	}
	for _, s := range a.Scopes {
		if !p.HasScope(s) {
			h.challenge(w, req, http.StatusForbidden, "insufficient_scope", "Forbidden: the token lacks scope "+quote(s)+"; scopes required: "+strings.Join(a.Scopes, " "))
			return nil
		}
	}
	return req.WithContext(withPrincipal(req.Context(), p))
}

// challenge answers status with the WWW-Authenticate header of RFC 6750
// and RFC 9728: code is the error code, "" when no token was sent.
func (h *httpHandler) challenge(w http.ResponseWriter, req *http.Request, status int, code, msg string) {
	a := h.opts.auth
	var b strings.Builder
	b.WriteString("Bearer ")
	if code != "" {
		b.WriteString(`error="` + code + `", `)
	}
	if len(a.Scopes) > 0 {
		b.WriteString(`scope="` + authParam(strings.Join(a.Scopes, " ")) + `", `)
	}
	b.WriteString(`resource_metadata="` + authParam(metadataURL(a, req)) + `"`)
	w.Header().Set("WWW-Authenticate", b.String())
	httpError(w, status, runtime.CodeInvalidRequest, msg)
}

// authParam makes s safe inside a quoted auth-param.
func authParam(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\r", "", "\n", "").Replace(s)
}

// bearerToken reads an Authorization header of the Bearer scheme.
func bearerToken(header string) (string, bool) {
	scheme, token, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}

// resourceURL returns the canonical URL of the MCP endpoint req was made
// to: the configured one, or the request's.
func resourceURL(a *Authorization, req *http.Request) string {
	if a.Resource != "" {
		return a.Resource
	}
	scheme := "http"
	if req.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + req.Host + endpointPath(req.URL.Path)
}

// endpointPath returns the path of the MCP endpoint that a request to
// path addresses: the metadata's suffix, or the path itself less the
// suffixes of the HTTP+SSE transport.
func endpointPath(path string) string {
	if rest, ok := strings.CutPrefix(path, MetadataPath); ok {
		return rest
	}
	for _, s := range []string{"/sse", "/message"} {
		if p, ok := strings.CutSuffix(path, s); ok {
			return p
		}
	}
	return path
}

// metadataURL returns the URL of the protected resource metadata of the
// endpoint req was made to: MetadataPath inserted between its host and
// path (RFC 9728, section 3.1).
func metadataURL(a *Authorization, req *http.Request) string {
	u, err := url.Parse(resourceURL(a, req))
	if err != nil || u.Host == "" {
		return MetadataPath
	}
	return u.Scheme + "://" + u.Host + MetadataPath + strings.TrimSuffix(u.EscapedPath(), "/")
}

// isMetadataPath reports whether path names the protected resource
// metadata.
func isMetadataPath(path string) bool {
	return path == MetadataPath || strings.HasPrefix(path, MetadataPath+"/")
}

// serveMetadata answers a request for the protected resource metadata,
// which anyone may read (and browsers from any origin).
func (h *httpHandler) serveMetadata(w http.ResponseWriter, req *http.Request) {
	w.Header().Set("Access-Control-Allow-Origin", "*")
	switch req.Method {
	case http.MethodGet, http.MethodHead:
	case http.MethodOptions:
		w.Header().Set("Access-Control-Allow-Methods", "GET, OPTIONS")
		w.WriteHeader(http.StatusNoContent)
		return
	default:
		w.Header().Set("Allow", "GET, OPTIONS")
		httpError(w, http.StatusMethodNotAllowed, runtime.CodeInvalidRequest, "Method Not Allowed: the metadata is read with GET")
		return
	}
	a := h.opts.auth
	md := struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers,omitempty"`
		ScopesSupported      []string `json:"scopes_supported,omitempty"`
		BearerMethods        []string `json:"bearer_methods_supported"`
		ResourceName         string   `json:"resource_name,omitempty"`
	}{resourceURL(a, req), a.AuthorizationServers, a.Scopes, []string{"header"}, a.ResourceName}
	body, _ := json.Marshal(md)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "max-age=3600")
	w.Write(body)
}

// ownedBy reports whether the request's principal may use hs: always,
// without authorization; else only the subject that started it.
func (hs *httpSession) ownedBy(req *http.Request) bool {
	p := runtime.PrincipalFromContext(req.Context())
	if p == nil {
		return hs.owner == nil
	}
	if hs.owner == nil || hs.owner.Subject != p.Subject {
		return false
	}
	hs.principal.Store(p)
	return true
}

// AuthorizationHandler returns a handler that requires of each request a
// bearer token that a.Verify accepts, as [WithAuthorization] does, then
// passes it to next with the principal in its context, where
// [runtime.PrincipalFromContext] finds it (a session served with the request's
// context, as the WebSocket handler does, passes it on to its handlers).
// Requests for paths under [MetadataPath] get the metadata. It is for
// handlers other than [Handler], which takes
// [WithAuthorization] instead; it panics if a.Verify is nil.
func AuthorizationHandler(s *runtime.Server, a Authorization, next http.Handler) http.Handler {
	h := &httpHandler{srv: s}
	WithAuthorization(a)(&h.opts)
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if isMetadataPath(req.URL.Path) {
			h.serveMetadata(w, req)
			return
		}
		if req = h.authorize(w, req); req != nil {
			next.ServeHTTP(w, req)
		}
	})
}
