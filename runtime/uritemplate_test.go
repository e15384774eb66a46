package runtime_test

import (
	"errors"
	"maps"
	"strings"
	"testing"

	rt "github.com/mcpgen/mcpgen/runtime"
)

func TestURITemplateMatch(t *testing.T) {
	type vars = map[string]string
	for _, tc := range []struct {
		tmpl, uri string
		want      vars // nil: no match
	}{
		{"notes://{id}", "notes://42", vars{"id": "42"}},
		{"notes://{id}", "notes://a%20b", vars{"id": "a b"}},
		{"notes://{id}", "notes://", nil},
		{"notes://{id}", "notes://a/b", nil},
		{"notes://{id}", "notes://a?x=1", nil},
		{"notes://{id}", "notes://%zz", nil},
		{"notes://{id}", "other://42", nil},
		{"notes://{id}/raw", "notes://42/raw", vars{"id": "42"}},
		{"notes://{id}/raw", "notes://42", nil},
		{"users/{x,y}", "users/1,2", vars{"x": "1", "y": "2"}},
		{"file:///{+path}", "file:///a/b/c.txt", vars{"path": "a/b/c.txt"}},
		{"file:///{+path}", "file:///a/b?x", nil},
		{"file:///{+path}", "file:///", nil},
		{"file:///{+path}{?rev}", "file:///a/b?rev=3", vars{"path": "a/b", "rev": "3"}},
		{"file:///{+path}{?rev}", "file:///a/b", vars{"path": "a/b"}},
		{"search{?q,limit}", "search?limit=5&q=go%20mcp", vars{"q": "go mcp", "limit": "5"}},
		{"search{?q,limit}", "search?q=x&other=1", vars{"q": "x"}},
		{"search{?q,limit}", "search", vars{}},
		{"search{?q}", "search?q=x#frag", nil},
		{"search{?q}{&page}", "search?page=2&q=a", vars{"q": "a", "page": "2"}},
		{"search?kind=note{&q}", "search?q=z&kind=note", vars{"q": "z"}},
		{"search?kind=note{&q}", "search?q=z", nil},
		{"search?kind=note{&q}", "search?kind=other&q=z", nil},
		{"x:{/a,b}", "x:/1/2", vars{"a": "1", "b": "2"}},
		{"x:{/a,b}", "x:/1", vars{"a": "1"}},
		{"x:{/path*}", "x:/a/b/c", vars{"path": "a,b,c"}},
		{"x:{/path*}", "x:", vars{}},
		{"host{.dom*}", "host.example.com", vars{"dom": "example,com"}},
		{"x:y{#frag}", "x:y#sec/1", vars{"frag": "sec/1"}},
		{"x:y{#frag}", "x:y", vars{}},
		{"map{;x,y}", "map;x=1;y=2", vars{"x": "1", "y": "2"}},
		{"static://index", "static://index", vars{}},
		{"static://index", "static://index2", nil},
		{"a.b+c://{id}", "a.b+c://1", vars{"id": "1"}},
		{"a.b+c://{id}", "aXb+c://1", nil},
		{"n://{id:3}", "n://abc", vars{"id": "abc"}},
		{"find?q={q}&n={n}", "find?q=a&n=2", vars{"q": "a", "n": "2"}},
		{"find?q={q}&n={n}", "find?n=2&q=a", nil},
	} {
		t.Run(tc.tmpl+" "+tc.uri, func(t *testing.T) {
			tmpl, err := rt.ParseURITemplate(tc.tmpl)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := tmpl.Match(tc.uri)
			if tc.want == nil {
				if ok {
					t.Fatalf("Match(%q) = %v, want no match", tc.uri, got)
				}
				return
			}
			if !ok || !maps.Equal(got, tc.want) {
				t.Fatalf("Match(%q) = %v, %v; want %v", tc.uri, got, ok, tc.want)
			}
		})
	}
}

func TestURITemplateExpand(t *testing.T) {
	v := map[string]string{"var": "value", "hello": "Hello World!", "path": "/foo/bar", "x": "1024", "y": "768", "empty": ""}
	for _, tc := range []struct{ tmpl, want string }{
		// Examples of RFC 6570, section 3.2, for string values.
		{"{var}", "value"},
		{"{hello}", "Hello%20World%21"},
		{"{+hello}", "Hello%20World!"},
		{"{+path}/here", "/foo/bar/here"},
		{"here?ref={+path}", "here?ref=/foo/bar"},
		{"{#hello}", "#Hello%20World!"},
		{"{x,y}", "1024,768"},
		{"{+x,hello,y}", "1024,Hello%20World!,768"},
		{"X{.var}", "X.value"},
		{"{/var,x}/here", "/value/1024/here"},
		{"{;x,y,empty}", ";x=1024;y=768;empty"},
		{"{?x,y,empty}", "?x=1024&y=768&empty="},
		{"?fixed=yes{&x}", "?fixed=yes&x=1024"},
		{"{var:3}", "val"},
		{"{undef}", ""},
		{"{?undef,x}", "?x=1024"},
		{"{/undef}", ""},
		{"notes://{id}", "notes://"},
	} {
		tmpl, err := rt.ParseURITemplate(tc.tmpl)
		if err != nil {
			t.Fatal(err)
		}
		if got := tmpl.Expand(v); got != tc.want {
			t.Errorf("Expand(%q) = %q, want %q", tc.tmpl, got, tc.want)
		}
	}
}

func TestURITemplateRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		tmpl string
		vars map[string]string
	}{
		{"notes://{id}", map[string]string{"id": "a b/c?d#e,f%"}},
		{"file:///{+path}{?rev,mode}", map[string]string{"path": "dir/ü.txt", "rev": "a&b=c", "mode": "x y"}},
		{"x:{/a,b}{?q}", map[string]string{"a": "1", "b": "two", "q": "?"}},
	} {
		tmpl, err := rt.ParseURITemplate(tc.tmpl)
		if err != nil {
			t.Fatal(err)
		}
		uri := tmpl.Expand(tc.vars)
		got, ok := tmpl.Match(uri)
		if !ok || !maps.Equal(got, tc.vars) {
			t.Errorf("%s: Match(Expand(%v) = %q) = %v, %v", tc.tmpl, tc.vars, uri, got, ok)
		}
	}
}

func TestURITemplateErrors(t *testing.T) {
	for _, tc := range []struct {
		tmpl   string
		offset int
		msg    string
	}{
		{"notes://{id", 8, "unclosed expression"},
		{"notes://id}", 10, "'}' without '{'"},
		{"notes://{}", 9, "empty expression"},
		{"notes://{+}", 10, "empty expression"},
		{"notes://{a{b}", 10, "'{' inside an expression"},
		{"notes://{=a}", 9, "reserved for future extensions"},
		{"notes://{a-b}", 10, `variable name "a-b"`},
		{"notes://{a,,b}", 11, "empty variable name"},
		{"notes://{a}{a}", 12, `variable "a" appears twice`},
		{"notes://{a:0}", 11, "prefix length"},
		{"notes://{a:x}", 11, "prefix length"},
		{"notes://{?q}/x", 12, "literal text may not follow a query expression"},
		{"notes://{?q}{id}", 12, "only query expressions"},
		{"notes:// x", 8, "not allowed"},
	} {
		_, err := rt.ParseURITemplate(tc.tmpl)
		var te *rt.URITemplateError
		if !errors.As(err, &te) {
			t.Errorf("ParseURITemplate(%q) = %v, want a *URITemplateError", tc.tmpl, err)
			continue
		}
		if te.Offset != tc.offset || !strings.Contains(te.Msg, tc.msg) || te.Template != tc.tmpl {
			t.Errorf("ParseURITemplate(%q): offset %d %q, want offset %d and %q", tc.tmpl, te.Offset, te.Msg, tc.offset, tc.msg)
		}
		if !strings.Contains(err.Error(), tc.tmpl) {
			t.Errorf("error %q does not quote the template", err)
		}
	}
}

func TestURITemplateVars(t *testing.T) {
	tmpl, err := rt.ParseURITemplate("x://{a}/{+b}{?c,d*}")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(tmpl.Vars(), ","); got != "a,b,c,d" {
		t.Errorf("Vars = %s", got)
	}
	if tmpl.String() != "x://{a}/{+b}{?c,d*}" || tmpl.IsLiteral() {
		t.Errorf("String = %q, IsLiteral = %v", tmpl.String(), tmpl.IsLiteral())
	}
}

// FuzzURITemplate checks that parsing never panics, and that a URI a
// template expands to matches it again with the same values.
func FuzzURITemplate(f *testing.F) {
	for _, s := range []string{"notes://{id}", "file:///{+path}{?rev}", "x:{/a,b}{.c}{#d}", "m{;x,y}{?q}{&r}", "{", "a?b=c{&d}"} {
		f.Add(s, "notes://42", "a/b c")
	}
	f.Fuzz(func(t *testing.T, tmplText, uri, value string) {
		tmpl, err := rt.ParseURITemplate(tmplText)
		if err != nil {
			return
		}
		tmpl.Match(uri)
		vars := map[string]string{}
		for _, n := range tmpl.Vars() {
			vars[n] = value
		}
		got, ok := tmpl.Match(tmpl.Expand(vars))
		if !ok {
			// Several adjacent variables may split a value differently,
			// and optional expressions with empty values vanish; only a
			// template with one non-empty simple variable must round-trip.
			if len(vars) == 1 && value != "" && strings.Count(tmplText, "{") == 1 && !strings.ContainsAny(tmplText, "+#./;?&*:") {
				t.Fatalf("%q does not match its own expansion %q", tmplText, tmpl.Expand(vars))
			}
			return
		}
		_ = got
	})
}
