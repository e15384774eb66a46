package runtime

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"
)

// URITemplate is a parsed RFC 6570 URI template, such as "notes://{id}" or
// "file:///{+path}{?rev}". It expands variables into a URI and matches a
// URI back into variables.
//
// Every operator of level 3 is supported ({var}, {+var}, {#var}, {.var},
// {/var}, {;var}, {?var}, {&var}) with level-4 prefixes ({var:3}) and explode
// markers ({/path*}); values are strings. Matching is the reverse of
// expansion with these rules:
//   - {var} and {+var} match one or more characters; {var} stops at / ? # and
//     a comma, {+var} only at ? and #. The others may be absent.
//   - {/var*} and {.var*} match any number of segments, reported joined by
//     commas.
//   - Query expressions ({?a,b} and {&c}) must end the template. Their
//     parameters may come in any order, any may be missing (the variable is
//     then not set), and parameters the template does not name are ignored,
//     as clients append what they like. Name=value pairs written literally
//     after a '?' must be present. (A template with expressions after a
//     literal '?', such as "find?q={q}", matches in the template's order.)
//   - Values are percent-decoded; a URI with an invalid escape in a value
//     does not match.
type URITemplate struct {
	raw   string
	parts []tmplPart
	names []string
	re    *regexp.Regexp // the part before the query
	// capture[i] is the variable bound to submatch i+1 and how to read it.
	capture []tmplVar
	query   []tmplVar // variables of trailing {?…} / {&…} expressions
	// fixedQuery holds name=value pairs written literally after a '?' of
	// the template; a URI must carry them.
	fixedQuery url.Values
	literal    int // number of literal characters, for specificity
	prefix     int // length of the literal prefix before the first expression
}

// tmplPart is a literal (op == 0 and lit set) or an expression.
type tmplPart struct {
	lit  string
	op   byte // one of + # . / ; ? & or ' ' for a simple expression; 0 for a literal
	vars []tmplVar
}

type tmplVar struct {
	name    string
	explode bool
	prefix  int // {var:n}; 0 when absent
	op      byte
}

// URITemplateError reports why a URI template does not parse, with the
// byte offset of the problem.
type URITemplateError struct {
	Template string
	Offset   int
	Msg      string
}

// Error returns the message with the template and offset.
func (e *URITemplateError) Error() string {
	return fmt.Sprintf("URI template %q, at offset %d: %s", e.Template, e.Offset, e.Msg)
}

// ParseURITemplate parses an RFC 6570 URI template. A template without
// expressions is valid and matches only itself.
func ParseURITemplate(s string) (*URITemplate, error) {
	t := &URITemplate{raw: s, prefix: -1}
	fail := func(off int, format string, args ...any) (*URITemplate, error) {
		return nil, &URITemplateError{Template: s, Offset: off, Msg: fmt.Sprintf(format, args...)}
	}
	seen := map[string]bool{}
	queryStarted := false
	for i := 0; i < len(s); {
		switch s[i] {
		case '{':
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				return fail(i, "unclosed expression: '{' without '}'")
			}
			body := s[i+1 : i+end]
			if j := strings.IndexByte(body, '{'); j >= 0 {
				return fail(i+1+j, "'{' inside an expression")
			}
			if t.prefix < 0 {
				t.prefix = t.literal
			}
			p := tmplPart{op: ' '}
			off := i + 1
			if body != "" && strings.IndexByte("+#./;?&", body[0]) >= 0 {
				p.op = body[0]
				body = body[1:]
				off++
			} else if body != "" && strings.IndexByte("=,!@|", body[0]) >= 0 {
				return fail(off, "operator %q is reserved for future extensions", body[0])
			}
			if body == "" {
				return fail(off, "empty expression: a variable name is needed")
			}
			for _, spec := range strings.Split(body, ",") {
				v := tmplVar{op: p.op}
				name := spec
				if n, ok := strings.CutSuffix(name, "*"); ok {
					name, v.explode = n, true
				} else if k := strings.IndexByte(name, ':'); k >= 0 {
					n := 0
					digits := name[k+1:]
					if digits == "" || len(digits) > 4 || digits[0] == '0' {
						return fail(off+k+1, "prefix length must be 1 to 9999")
					}
					for _, c := range digits {
						if c < '0' || c > '9' {
							return fail(off+k+1, "prefix length must be 1 to 9999")
						}
						n = n*10 + int(c-'0')
					}
					name, v.prefix = name[:k], n
				}
				if bad := badVarName(name); bad >= 0 {
					if name == "" {
						return fail(off, "empty variable name")
					}
					return fail(off+bad, "variable name %q may hold only letters, digits, _ . and %%-escapes", name)
				}
				if seen[name] {
					return fail(off, "variable %q appears twice", name)
				}
				seen[name] = true
				v.name = name
				t.names = append(t.names, name)
				p.vars = append(p.vars, v)
				off += len(spec) + 1
			}
			switch {
			case p.op == '?' || p.op == '&':
				queryStarted = true
			case queryStarted:
				return fail(i, "only query expressions ({?…} or {&…}) may follow a query expression")
			}
			t.parts = append(t.parts, p)
			i += end + 1
		case '}':
			return fail(i, "'}' without '{'")
		default:
			j := i
			for j < len(s) && s[j] != '{' && s[j] != '}' {
				c := s[j]
				if c <= ' ' || c == '"' || c == '<' || c == '>' || c == '\\' || c == '^' || c == '`' || c == '|' || c == 0x7f {
					return fail(j, "character %q is not allowed in a URI template", c)
				}
				j++
			}
			if queryStarted {
				return fail(i, "literal text may not follow a query expression")
			}
			t.parts = append(t.parts, tmplPart{lit: s[i:j]})
			t.literal += j - i
			i = j
		}
	}
	if t.prefix < 0 {
		t.prefix = t.literal
	}
	if err := t.compile(); err != nil {
		return fail(0, "%v", err)
	}
	return t, nil
}

// badVarName returns the offset of the first byte of name that may not be
// in a variable name, or -1 when the name is valid (RFC 6570 varname).
func badVarName(name string) int {
	if name == "" || name[0] == '.' || name[len(name)-1] == '.' {
		return 0
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '_':
		case c == '.':
			if name[i-1] == '.' {
				return i
			}
		case c == '%':
			if i+2 >= len(name) || !isHex(name[i+1]) || !isHex(name[i+2]) {
				return i
			}
			i += 2
		default:
			return i
		}
	}
	return -1
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// compile builds the matcher of the part before the query, or of the
// whole URI when the template has a literal '?' followed by expressions
// other than query ones: then the URI must follow the template's order.
func (t *URITemplate) compile() error {
	whole := false
	for i, p := range t.parts {
		if p.op == 0 && strings.Contains(p.lit, "?") {
			for _, q := range t.parts[i+1:] {
				whole = whole || q.op != 0 && q.op != '?' && q.op != '&'
			}
			break
		}
	}
	var b strings.Builder
	b.WriteString("^")
	for _, p := range t.parts {
		switch p.op {
		case 0:
			lit := p.lit
			if before, after, ok := strings.Cut(lit, "?"); ok && !whole && t.fixedQuery == nil {
				// A literal query: the rest of the template is query.
				q, err := url.ParseQuery(after)
				if err != nil {
					return fmt.Errorf("literal query %q: %v", after, err)
				}
				t.fixedQuery = q
				lit = before
			}
			b.WriteString(regexp.QuoteMeta(lit))
			continue
		case '?', '&':
			if !whole {
				t.query = append(t.query, p.vars...)
				continue
			}
		}
		one := len(p.vars) == 1
		for k, v := range p.vars {
			t.capture = append(t.capture, v)
			switch p.op {
			case ' ':
				if k > 0 {
					b.WriteString(",")
				}
				if one {
					b.WriteString("([^/?#]+)")
				} else {
					b.WriteString("([^/?#,]+)")
				}
			case '+':
				if k > 0 {
					b.WriteString(",")
				}
				if one {
					b.WriteString("([^?#]+)")
				} else {
					b.WriteString("([^?#,]+)")
				}
			case '#':
				if k == 0 {
					b.WriteString("(?:#")
				} else {
					b.WriteString(",")
				}
				if one {
					b.WriteString("(.*)")
				} else {
					b.WriteString("([^,]*)")
				}
				if k == len(p.vars)-1 {
					b.WriteString(")?")
				}
			case '/', '.':
				sep := regexp.QuoteMeta(string(p.op))
				if v.explode {
					fmt.Fprintf(&b, "((?:%s[^/?#]*)*)", sep)
				} else {
					fmt.Fprintf(&b, "(?:%s([^/?#%s]*))?", sep, sep)
				}
			case ';':
				fmt.Fprintf(&b, "(?:;%s(?:=([^;/?#]*))?)?", regexp.QuoteMeta(v.name))
			case '?', '&':
				fmt.Fprintf(&b, "(?:[?&]%s=([^&#]*))?", regexp.QuoteMeta(v.name))
			}
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return err
	}
	t.re = re
	return nil
}

// String returns the template as written.
func (t *URITemplate) String() string { return t.raw }

// Vars returns the names of the template's variables in order.
func (t *URITemplate) Vars() []string { return append([]string(nil), t.names...) }

// IsLiteral reports whether the template has no variables: it names one
// resource.
func (t *URITemplate) IsLiteral() bool { return len(t.names) == 0 }

// Match reports whether uri is an expansion of the template and returns the
// values of the variables it binds. Variables the URI leaves out (an
// optional expression, a query parameter) are absent from the map.
func (t *URITemplate) Match(uri string) (map[string]string, bool) {
	base, query, hasQuery := uri, "", false
	if t.fixedQuery != nil || len(t.query) > 0 {
		frag := ""
		if i := strings.IndexByte(base, '#'); i >= 0 {
			base, frag = base[:i], base[i:]
		}
		if i := strings.IndexByte(base, '?'); i >= 0 {
			base, query, hasQuery = base[:i], base[i+1:], true
		}
		if frag != "" {
			return nil, false // the template ends with its query
		}
	}
	m := t.re.FindStringSubmatchIndex(base)
	if m == nil {
		return nil, false
	}
	vars := make(map[string]string, len(t.names))
	for i, v := range t.capture {
		s, e := m[2*i+2], m[2*i+3]
		if s < 0 {
			continue
		}
		raw := base[s:e]
		if v.explode {
			sep := string(v.op)
			if raw == "" {
				continue
			}
			raw = strings.ReplaceAll(raw[1:], sep, ",")
		}
		val, err := url.PathUnescape(raw)
		if err != nil {
			return nil, false
		}
		vars[v.name] = val
	}
	if t.fixedQuery == nil && len(t.query) == 0 {
		return vars, true
	}
	q, err := url.ParseQuery(query)
	if err != nil && hasQuery {
		return nil, false
	}
	for k, want := range t.fixedQuery {
		got := q[k]
		if len(got) != len(want) {
			return nil, false
		}
		for i := range got {
			if got[i] != want[i] {
				return nil, false
			}
		}
	}
	for _, v := range t.query {
		if vals, ok := q[v.name]; ok {
			vars[v.name] = strings.Join(vals, ",")
		}
	}
	return vars, true
}

// Expand returns the URI the template names for vars, as RFC 6570
// specifies for string values: a variable absent from vars is undefined
// and its expression expands to nothing.
func (t *URITemplate) Expand(vars map[string]string) string {
	var b strings.Builder
	for _, p := range t.parts {
		if p.op == 0 {
			b.WriteString(p.lit)
			continue
		}
		first := true
		for _, v := range p.vars {
			val, ok := vars[v.name]
			if !ok {
				continue
			}
			if v.prefix > 0 && utf8.RuneCountInString(val) > v.prefix {
				n := 0
				for i := range val {
					if n == v.prefix {
						val = val[:i]
						break
					}
					n++
				}
			}
			if first {
				if p.op != ' ' && p.op != '+' {
					b.WriteByte(p.op)
				}
			} else {
				switch p.op {
				case ' ', '+', '#':
					b.WriteByte(',')
				case '?':
					b.WriteByte('&')
				default:
					b.WriteByte(p.op)
				}
			}
			first = false
			switch p.op {
			case ';':
				b.WriteString(v.name)
				if val != "" {
					b.WriteByte('=')
				}
			case '?', '&':
				b.WriteString(v.name)
				b.WriteByte('=')
			}
			pctEncode(&b, val, p.op == '+' || p.op == '#')
		}
	}
	return b.String()
}

// pctEncode writes s percent-encoded: only unreserved characters stay as
// they are, plus reserved characters and existing escapes when reserved.
func pctEncode(b *strings.Builder, s string, reserved bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '.', c == '_', c == '~':
			b.WriteByte(c)
		case reserved && strings.IndexByte(":/?#[]@!$&'()*+,;=", c) >= 0:
			b.WriteByte(c)
		case reserved && c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte("0123456789ABCDEF"[c>>4])
			b.WriteByte("0123456789ABCDEF"[c&15])
		}
	}
}
