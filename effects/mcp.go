package effects

import (
	"fmt"
	"net/url"
	"path"
	"strings"

	"github.com/acg-dev/acg/extract"
)

// MCPServerFor finds the catalogued server a client starts or reaches. The
// command and every argument are compared as whole tokens: a token matches
// a match string when it equals it, when its last path component does, or
// when it continues with a version or tag suffix ("@latest", "==0.6",
// ":tag"). URLs (the url field, or an argument that is one) match when
// their scheme-less host and path start with the match string at a
// boundary. Raw substrings never match: "mcp/git" is not "mcp/github".
// An argument holding a whole command line (a shell's -c script) is split
// into its words.
// When several entries match, the longest match string wins. It also
// returns the string that matched, for messages.
func (c *Catalog) MCPServerFor(command string, args []string, rawURL string) (*MCPServer, string) {
	var best *MCPServer
	bestMatch := ""
	consider := func(s *MCPServer, m string) {
		if len(m) > len(bestMatch) {
			best, bestMatch = s, m
		}
	}
	tokens := append([]string{command}, args...)
	for _, a := range args {
		// A command line in one argument (bash -c "npx -y tavily-mcp",
		// cmd /c "…"): its words are launch tokens too.
		if strings.ContainsAny(a, " \t") {
			tokens = append(tokens, strings.Fields(a)...)
		}
	}
	urls := []string{}
	if rawURL != "" {
		urls = append(urls, rawURL)
	}
	for _, t := range tokens {
		if strings.Contains(t, "://") {
			urls = append(urls, t)
		}
	}
	for _, s := range c.MCPServers {
		for _, m := range s.Match {
			if m == "" {
				continue
			}
			for _, t := range tokens {
				if tokenMatches(t, m) {
					consider(s, m)
				}
			}
			for _, u := range urls {
				if urlMatches(u, m) {
					consider(s, m)
				}
			}
		}
	}
	return best, bestMatch
}

func tokenMatches(tok, m string) bool {
	if tok == "" {
		return false
	}
	if tok == m || (strings.Contains(tok, "/") && !strings.Contains(m, "/") && path.Base(tok) == m) {
		return true
	}
	rest, ok := strings.CutPrefix(tok, m)
	if !ok || rest == "" {
		return false
	}
	// A version or tag: npm "@1.2.3", pip "==0.6" / ">=1", docker ":tag",
	// "@sha256:…".
	switch rest[0] {
	case '@', ':':
		return len(rest) > 1
	case '=', '>', '<', '~', '!':
		return len(rest) > 1
	}
	return false
}

func urlMatches(raw, m string) bool {
	u := raw
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	if at := strings.IndexByte(u, '@'); at >= 0 && at < strings.IndexAny(u+"/", "/?#") {
		u = u[at+1:] // credentials are not part of the address
	}
	rest, ok := strings.CutPrefix(strings.ToLower(u), strings.ToLower(m))
	if !ok {
		return false
	}
	return rest == "" || strings.ContainsRune("/:?#", rune(rest[0])) || strings.HasSuffix(m, "/")
}

// ReadOnly reports whether a launch turns the server read-only, by one of
// the switches the catalog lists. switches holds environment variables,
// headers and URL query parameters the config sets, keyed "env:NAME",
// "header:NAME" and "query:NAME" (only boolean-looking values are kept by
// the extractors, so nothing secret reaches here).
func (s *MCPServer) ReadOnly(args []string, switches map[string]string, rawURL string) bool {
	ro := s.ReadOnlyWhen
	if ro == nil {
		return false
	}
	for _, a := range args {
		for _, want := range ro.Args {
			if a == want || a == want+"=true" || a == want+"=1" {
				return true
			}
		}
	}
	same := func(got, want string) bool { return got != "" && strings.EqualFold(got, want) }
	for k, v := range ro.Env {
		if same(switches["env:"+k], v) {
			return true
		}
	}
	for k, v := range ro.Headers {
		for sk, sv := range switches {
			if strings.EqualFold(sk, "header:"+k) && same(sv, v) {
				return true
			}
		}
	}
	for k, v := range ro.URLQuery {
		if same(switches["query:"+k], v) {
			return true
		}
	}
	if rawURL != "" {
		if u, err := url.Parse(rawURL); err == nil {
			p := strings.TrimSuffix(u.Path, "/")
			for _, suf := range ro.URLSuffix {
				if strings.HasSuffix(p, strings.TrimSuffix(suf, "/")) {
					return true
				}
			}
		}
	}
	return false
}

// Exposed lists the tools a client sees: every listed tool except old
// names kept for permission rules, and only read tools in read-only mode.
func (s *MCPServer) Exposed(readOnly bool) []*MCPTool {
	var out []*MCPTool
	for i := range s.Tools {
		t := &s.Tools[i]
		if t.Deprecated || (readOnly && !t.ReadOnly) {
			continue
		}
		out = append(out, t)
	}
	return out
}

// Tool returns a listed tool by name (deprecated names included).
func (s *MCPServer) Tool(name string) *MCPTool {
	for i := range s.Tools {
		if s.Tools[i].Name == name {
			return &s.Tools[i]
		}
	}
	return nil
}

// ToolEffects labels one tool of the server. A tool the catalog does not
// list (new, renamed, or a server whose list is unverified) gets the
// server's default effects: fail closed.
func (s *MCPServer) ToolEffects(name string, readOnly bool, loc extract.Loc) *Effects {
	e := newEffects()
	t := s.Tool(name)
	if t == nil {
		for _, l := range s.DefaultEffects {
			e.add(Evidence{Label: l, Kind: "catalog", Loc: loc,
				Detail: fmt.Sprintf("catalog: MCP server %s does not list tool %s; its default effects apply", s.ID, name)}, ByCatalog)
		}
		e.settle(ByCatalog)
		return e
	}
	labels := t.Effects
	if readOnly && len(t.ReadOnlyEffects) > 0 {
		labels = t.ReadOnlyEffects
	}
	for _, l := range labels {
		e.add(Evidence{Label: l, Kind: "catalog", Loc: loc, Detail: "catalog: MCP server " + s.ID + " — " + s.Summary}, ByCatalog)
	}
	for _, r := range t.Roles {
		e.addRoleBy(r, ByCatalog)
	}
	e.settle(ByCatalog)
	return e
}
