package mcphttp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	rt "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/rttest"
	"github.com/mcpgen/mcpgen/runtime/mcphttp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// Tokens of the test verifier.
const (
	aliceToken   = "alice-secret-token"
	bobToken     = "bob-secret-token"
	readerToken  = "reader-secret-token" // lacks the "mcp:tools" scope
	expiredToken = "expired-secret-token"
)

// testVerifier accepts the tokens above; its error quotes the token, as a
// careless verifier might.
func testVerifier(_ context.Context, token string) (*rt.Principal, error) {
	switch token {
	case aliceToken:
		return &rt.Principal{Subject: "alice", Scopes: []string{"mcp:tools", "mcp:admin"}}, nil
	case bobToken:
		return &rt.Principal{Subject: "bob", Scopes: []string{"mcp:tools"}}, nil
	case readerToken:
		return &rt.Principal{Subject: "carol", Scopes: []string{"mcp:read"}}, nil
	}
	return nil, fmt.Errorf("token %q has expired", token)
}

var testAuth = mcphttp.Authorization{
	Verify:               testVerifier,
	AuthorizationServers: []string{"https://auth.example.com"},
	Scopes:               []string{"mcp:tools"},
	ResourceName:         "test server",
}

// principalTool answers with the principal its context carries.
var principalTool = rttest.Tool("whoami", func(ctx context.Context, _ *rt.ToolRequest) (*rt.CallToolResult, error) {
	p := rt.PrincipalFromContext(ctx)
	if p == nil {
		return rt.TextResult("nobody"), nil
	}
	return rt.TextResult(p.Subject + " " + strings.Join(p.Scopes, ",")), nil
})

const whoamiBody = `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"whoami"}}`

// authServer mounts a handler with testAuth at /mcp, /mcp/ and the
// metadata path, as ListenAndServe does; it returns the client and
// the server's log.
func authServer(t *testing.T, opts ...mcphttp.Option) (*rttest.HTTPClient, *rttest.SyncBuffer) {
	log := &rttest.SyncBuffer{}
	srv := rttest.HTTPServer(rt.WithLogger(slogTo(log)))
	srv.AddTool(principalTool)
	h := mcphttp.Handler(srv, append([]mcphttp.Option{mcphttp.WithAuthorization(testAuth)}, opts...)...)
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	mux.Handle("/mcp/", h)
	mux.Handle(mcphttp.MetadataPath+"/", h)
	c := rttest.NewHTTPClient(t, mux)
	c.URL += "/mcp"
	return c, log
}

func bearer(token string) []string { return []string{"Authorization", "Bearer " + token} }

func TestHTTPAuthorization(t *testing.T) {
	c, log := authServer(t)
	base := strings.TrimSuffix(c.URL, "/mcp")
	metadata := base + mcphttp.MetadataPath + "/mcp"

	// The metadata is public.
	resp, err := http.Get(metadata)
	if err != nil {
		t.Fatal(err)
	}
	var md struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
		Scopes               []string `json:"scopes_supported"`
		Bearer               []string `json:"bearer_methods_supported"`
	}
	err = json.NewDecoder(resp.Body).Decode(&md)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 || md.Resource != c.URL || len(md.AuthorizationServers) != 1 ||
		md.AuthorizationServers[0] != "https://auth.example.com" || len(md.Scopes) != 1 || len(md.Bearer) != 1 {
		t.Fatalf("metadata: %d %+v (%v)", resp.StatusCode, md, err)
	}

	challenge := func(x *rttest.Exchange) map[string]string {
		t.Helper()
		ch, err := oauthex.ParseWWWAuthenticate(x.Header.Values("WWW-Authenticate"))
		if err != nil || len(ch) != 1 || ch[0].Scheme != "bearer" {
			t.Fatalf("WWW-Authenticate %q: %v", x.Header.Values("WWW-Authenticate"), err)
		}
		if got := ch[0].Params["resource_metadata"]; got != metadata {
			t.Errorf("resource_metadata %q, want %q", got, metadata)
		}
		return ch[0].Params
	}
	tests := []struct {
		name   string
		method string
		url    string
		hdr    []string
		status int
		err    string // the challenge's error parameter
	}{
		{"no token", "POST", c.URL, nil, 401, ""},
		{"another scheme", "POST", c.URL, []string{"Authorization", "Basic YWxpY2U6cHc="}, 401, ""},
		{"empty bearer", "POST", c.URL, []string{"Authorization", "Bearer "}, 401, ""},
		{"invalid token", "POST", c.URL, bearer(expiredToken), 401, "invalid_token"},
		{"insufficient scope", "POST", c.URL, bearer(readerToken), 403, "insufficient_scope"},
		{"GET without token", "GET", c.URL, nil, 401, ""},
		{"DELETE without token", "DELETE", c.URL, nil, 401, ""},
		{"legacy stream without token", "GET", c.URL + "/sse", nil, 401, ""},
		{"legacy post without token", "POST", c.URL + "/message?sessionId=x", nil, 401, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c.URL = tc.url
			defer func() { c.URL = base + "/mcp" }()
			x := c.Do(tc.method, rttest.InitBody, tc.hdr...)
			if x.Status != tc.status {
				t.Fatalf("status %d, want %d: %s", x.Status, tc.status, x.Body)
			}
			params := challenge(x)
			if params["error"] != tc.err {
				t.Errorf("error=%q, want %q", params["error"], tc.err)
			}
			if params["scope"] != "mcp:tools" {
				t.Errorf("scope=%q, want mcp:tools", params["scope"])
			}
			assertNoLeak(t, x.Body)
		})
	}

	// Alice's session answers alice, and only her.
	c.Session = c.Post(rttest.InitBody, 200, bearer(aliceToken)...).Header.Get("Mcp-Session-Id")
	c.Version = "2025-11-25"
	c.Post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, 202, bearer(aliceToken)...)
	if x := c.Post(whoamiBody, 200, bearer(aliceToken)...); !bytes.Contains(x.Body, []byte(`"alice mcp:tools,mcp:admin"`)) {
		t.Fatalf("whoami: %s", x.Body)
	}
	for _, method := range []string{"POST", "GET", "DELETE"} {
		if x := c.Do(method, whoamiBody, bearer(bobToken)...); x.Status != 404 {
			t.Errorf("%s with bob's token on alice's session: %d, want 404: %s", method, x.Status, x.Body)
		}
	}
	if x := c.Post(whoamiBody, 200, bearer(aliceToken)...); !bytes.Contains(x.Body, []byte(`"alice `)) {
		t.Fatalf("whoami after bob's attempts: %s", x.Body)
	}
	// Bob starts his own.
	c.Session = ""
	c.Session = c.Post(rttest.InitBody, 200, bearer(bobToken)...).Header.Get("Mcp-Session-Id")
	if x := c.Post(whoamiBody, 200, bearer(bobToken)...); !bytes.Contains(x.Body, []byte(`"bob mcp:tools"`)) {
		t.Fatalf("bob's whoami: %s", x.Body)
	}

	for _, tok := range []string{aliceToken, bobToken, readerToken, expiredToken} {
		if strings.Contains(log.String(), tok) {
			t.Errorf("the log holds token %q:\n%s", tok, log.String())
		}
	}
	if !strings.Contains(log.String(), "bearer token refused") {
		t.Errorf("the refused token is not logged:\n%s", log.String())
	}
}

func TestHTTPAuthorizationStateless(t *testing.T) {
	c, _ := authServer(t, mcphttp.WithStateless())
	c.Assume("2025-11-25")
	c.Post(whoamiBody, 401)
	if x := c.Post(whoamiBody, 200, bearer(bobToken)...); !bytes.Contains(x.Body, []byte(`"bob mcp:tools"`)) {
		t.Fatalf("whoami: %s", x.Body)
	}
}

func TestHTTPAuthorizationLegacySessionOwner(t *testing.T) {
	c, _ := authServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), rttest.Timeout)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", c.URL+"/sse", nil)
	req.Header.Set("Authorization", "Bearer "+aliceToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	events := readEvents(resp.Body)
	first := nextEvent(t, events)
	if !strings.HasPrefix(first.data, "message?sessionId=") {
		t.Fatalf("first event %+v", first)
	}
	c.URL += "/" + first.data
	if x := c.Do("POST", rttest.InitBodyAt("2024-11-05"), append(bearer(bobToken), "Accept", "")...); x.Status != 404 {
		t.Fatalf("bob posting to alice's legacy session: %d %s", x.Status, x.Body)
	}
	if x := c.Do("POST", rttest.InitBodyAt("2024-11-05"), append(bearer(aliceToken), "Accept", "")...); x.Status != 202 {
		t.Fatalf("alice posting to her legacy session: %d %s", x.Status, x.Body)
	}
	if e := nextEvent(t, events); !strings.Contains(e.data, `"protocolVersion":"2024-11-05"`) {
		t.Fatalf("initialize answer %+v", e)
	}
}

// discoveringAuth is an OAuth handler for the official SDK's client that
// discovers the authorization server from the 401 challenge and the
// metadata, as a real client does, then takes a token for it.
type discoveringAuth struct {
	endpoint string
	mu       sync.Mutex
	token    string
	issuers  []string
}

func (a *discoveringAuth) TokenSource(context.Context) (oauth2.TokenSource, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.token == "" {
		return nil, nil
	}
	return oauth2.StaticTokenSource(&oauth2.Token{AccessToken: a.token, TokenType: "Bearer"}), nil
}

func (a *discoveringAuth) Authorize(ctx context.Context, _ *http.Request, resp *http.Response) error {
	defer resp.Body.Close()
	ch, err := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	if err != nil || len(ch) == 0 {
		return fmt.Errorf("challenge %q: %v", resp.Header.Values("WWW-Authenticate"), err)
	}
	md, err := oauthex.GetProtectedResourceMetadata(ctx, ch[0].Params["resource_metadata"], a.endpoint, http.DefaultClient)
	if err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.issuers = md.AuthorizationServers
	a.token = aliceToken // what the authorization server would issue
	return nil
}

func TestHTTPAuthorizationSDKClient(t *testing.T) {
	c, _ := authServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), rttest.Timeout)
	defer cancel()
	a := &discoveringAuth{endpoint: c.URL}
	client := mcp.NewClient(&mcp.Implementation{Name: "auth", Version: "0"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: c.URL, OAuthHandler: a}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "whoami"})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; got != "alice mcp:tools,mcp:admin" {
		t.Errorf("whoami: %q", got)
	}
	if len(a.issuers) != 1 || a.issuers[0] != "https://auth.example.com" {
		t.Errorf("discovered authorization servers %q", a.issuers)
	}
}

func TestWithAuthorizationNeedsVerifier(t *testing.T) {
	defer func() {
		if p := recover(); p == nil || !strings.Contains(fmt.Sprint(p), "Verify is nil") {
			t.Errorf("panic %v, want one about the missing verifier", p)
		}
	}()
	mcphttp.WithAuthorization(mcphttp.Authorization{})
}

// assertNoLeak fails when what a client got holds a stack trace, a source
// path or a panic value.
func assertNoLeak(t testing.TB, got []byte) {
	t.Helper()
	for _, bad := range []string{"goroutine ", ".go:", "panic:", "runtime/debug", "/work/", "boom", "github.com/mcpgen"} {
		if bytes.Contains(got, []byte(bad)) {
			t.Errorf("a client got %q: %.300s", bad, got)
		}
	}
}

func TestListenAndServeHTTPAuthorization(t *testing.T) {
	logs := &rttest.SyncBuffer{}
	srv := rttest.NewServer(rt.WithLogger(slogTo(logs)))
	srv.AddTool(principalTool)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- mcphttp.ListenAndServe(ctx, srv, ":0", mcphttp.WithAuthorization(testAuth)) }()
	defer func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("ListenAndServe: %v", err)
		}
	}()
	var url string
	for deadline := time.Now().Add(rttest.Timeout); url == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, rest, ok := strings.Cut(logs.String(), "url="); ok {
			url, _, _ = strings.Cut(rest, "\n")
		}
	}
	md, err := oauthex.GetProtectedResourceMetadata(ctx, strings.Replace(url, "/mcp", mcphttp.MetadataPath+"/mcp", 1), url, http.DefaultClient)
	if err != nil || len(md.AuthorizationServers) != 1 {
		t.Fatalf("metadata: %+v %v", md, err)
	}
	c := rttest.NewHTTPClientAt(t, url)
	c.Post(rttest.InitBody, 401)
	c.Post(rttest.InitBody, 200, bearer(aliceToken)...)
}
