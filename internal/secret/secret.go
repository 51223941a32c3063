// Package secret recognises credentials inside strings that configs hold
// (permission rules, server arguments, URLs, command lines, header and
// environment values) so that acg can mask them where it extracts them:
// no output, diagnostic or message then carries the value. It is one
// detector for every kind of config, so that each one masks the same
// things.
//
// The detector knows the shapes credentials take: an Authorization scheme
// (Bearer, Basic) and its token, credentials in a URL, a key or flag that
// names a secret followed by its value (token=…, --api-key …,
// X-Api-Key: …), the prefixes of well-known tokens (sk-, ghp_, xoxb-,
// AKIA, AIza, glpat- …) and long high-entropy runs. Variable references
// (${TOKEN}, $TOKEN) and wildcards are not secrets and are kept.
package secret

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Masked replaces each secret.
const Masked = "****"

// MaxInspect bounds the strings Mask inspects: a longer one is hidden
// whole. No rule, argument or command line is that long, and inspecting a
// hostile megabyte-long one on every edit would slow the language server.
const MaxInspect = 8 << 10

// secretWords are the parts of a key or flag name that say its value is
// a credential.
const secretWords = `token|secret|passw(?:or)?d|passwd|pwd|api[-_]?key|apikey|access[-_]?key|auth[a-z]*|credentials?|private[-_]?key|cookie|session[-_]?(?:id|key|token)|bearer`

var (
	nameRe = regexp.MustCompile(`(?i)(` + secretWords + `|\bpat\b)`)
	// scheme://userinfo@host
	urlUserRe = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.\-]*://([^/\s@'"]+)@`)
	// Authorization: Bearer <token>
	authRe = regexp.MustCompile(`(?i)\b(?:bearer|basic)[ \t]+([^\s'"(),;` + "`" + `]+)`)
	// Authorization: token <token> (GitHub), Authorization: <token>
	authHeaderRe = regexp.MustCompile(`(?i)\bauthorization:[ \t]*(?:(?:token|bearer|basic)[ \t]+)?([^\s'"(),;` + "`" + `]+)`)
	// curl -u user:password
	userFlagRe = regexp.MustCompile(`(?:^|\s)(?:-u|--user)(?:\s+|=)["']?[^\s:"']+:([^\s"')]+)`)
	// --api-key <value>
	// (the flag's name is checked with NamesSecret: cheaper than a pattern)
	flagRe = regexp.MustCompile(`(?:^|[\s(])(--?[A-Za-z0-9_\-]+)[ \t]+["']?([^\s"'\-][^\s"')]*)`)
	// token=<value>, password: <value>
	kvRe = regexp.MustCompile(`(?i)(?:` + secretWords + `)[A-Za-z0-9_\-]*(=|:[ \t]*)["']?([^\s"'&;,)]+)`)
	// Well-known token prefixes, at a token boundary.
	prefixRe = regexp.MustCompile(`(?:^|[^A-Za-z0-9_\-])((?:gh[pousr]_|github_pat_|sk-|sk_live_|sk_test_|rk_live_|glpat-|npm_|hf_|pypi-)[A-Za-z0-9_\-]{16,}|xox[abpr]-[A-Za-z0-9\-]{10,}|(?:AKIA|ASIA)[A-Z0-9]{12,}|AIza[A-Za-z0-9_\-]{30,}|ya29\.[A-Za-z0-9_\-]{10,}|eyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}(?:\.[A-Za-z0-9_\-]+)?)`)
	// Candidate high-entropy runs.
	runRe = regexp.MustCompile(`[A-Za-z0-9_\-+/=]{24,}`)
	// refRe is a variable reference or placeholder, never a secret.
	refRe     = regexp.MustCompile(`^(?:\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|<[^>]*>|\{\{[^}]*\}\}|%[A-Za-z_]+%)`)
	plainWord = regexp.MustCompile(`^[a-z][a-z\-]*$`)
)

// NamesSecret reports whether a key, flag or variable name says that its
// value is a credential (API_KEY, --token, X-Auth-Token, password).
func NamesSecret(name string) bool { return nameRe.MatchString(name) }

// Mask returns s with every secret in it replaced by Masked, keeping the
// rest readable: `Bash(curl -H 'Authorization: Bearer ****' *)`.
func Mask(s string) string {
	if s == "" {
		return s
	}
	if len(s) > MaxInspect {
		return Masked
	}
	// A mask can join what stood around the value it replaced into a new
	// value of another shape (Authorization:A(A&0 masks A(A, and then
	// ****&0 reads as one value): apply the detectors until nothing
	// changes, so that masking is idempotent. Each round only replaces
	// text by Masked, so a few rounds settle it.
	for range 8 {
		next := maskOnce(s)
		if next == s {
			break
		}
		s = next
	}
	return s
}

func maskOnce(s string) string {
	s = maskGroup(urlUserRe, s, 1, func(string) bool { return true })
	s = maskGroup(authRe, s, 1, notRef)
	s = maskGroup(authHeaderRe, s, 1, func(v string) bool { return notRef(v) && !isScheme(v) })
	s = maskGroup(userFlagRe, s, 1, notRef)
	s = maskFlags(s)
	s = maskKV(s)
	s = maskGroup(prefixRe, s, 1, func(string) bool { return true })
	s = maskRuns(s)
	return s
}

// Looks reports whether s as a whole is, or holds, a secret.
func Looks(s string) bool { return Mask(s) != s }

// QuoteKey quotes a key or name for a message: masked when it looks like
// a secret itself, shortened when long. Messages about a config quote at
// most the key at fault, never a value.
func QuoteKey(k string) string {
	if len(k) > MaxInspect || Looks(k) {
		return strconv.Quote(Masked)
	}
	const max = 40
	if utf8.RuneCountInString(k) > max {
		r := []rune(k)
		k = string(r[:max]) + "…"
	}
	return strconv.Quote(k)
}

var quotedRe = regexp.MustCompile("'[^'\\s]{2,}'|`[^`\\n]*`|\"[^\"\\n]{2,}\"")

// DropQuoted removes what a parser's error message quotes from its input
// (yaml.v3: "unknown anchor 'x' referenced"), keeping quoted punctuation
// ("did not find expected ',' or ']'").
func DropQuoted(msg string) string { return quotedRe.ReplaceAllString(msg, "…") }

func isScheme(v string) bool {
	switch strings.ToLower(v) {
	case "bearer", "basic", "token":
		return true
	}
	return false
}

func notRef(v string) bool {
	if v == "" || v == Masked || refRe.MatchString(v) {
		return false
	}
	return strings.Trim(v, "*:./") != ""
}

// maskGroup replaces submatch g of each match of re when keep accepts it.
func maskGroup(re *regexp.Regexp, s string, g int, keep func(string) bool) string {
	ms := re.FindAllStringSubmatchIndex(s, -1)
	if ms == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range ms {
		a, e := m[2*g], m[2*g+1]
		if a < 0 || !keep(s[a:e]) {
			continue
		}
		b.WriteString(s[last:a])
		b.WriteString(Masked)
		last = e
	}
	b.WriteString(s[last:])
	return b.String()
}

// maskFlags masks the value after a flag that names a secret.
func maskFlags(s string) string {
	ms := flagRe.FindAllStringSubmatchIndex(s, -1)
	var b strings.Builder
	last := 0
	for _, m := range ms {
		a, e := m[4], m[5]
		if !NamesSecret(s[m[2]:m[3]]) || !notRef(s[a:e]) {
			continue
		}
		b.WriteString(s[last:a])
		b.WriteString(Masked)
		last = e
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// maskKV masks the value of key=value and key: value when the key names
// a secret. A value that is a plain word after a colon (auth:test), a
// boolean switch or a scheme name (Authorization: Bearer …) is kept.
func maskKV(s string) string {
	ms := kvRe.FindAllStringSubmatchIndex(s, -1)
	if ms == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range ms {
		sep := s[m[2]:m[3]]
		a, e := m[4], m[5]
		v := s[a:e]
		if sep == "=" {
			// Bash(export TOKEN=…:*): the rule's own wildcard stays.
			if t := strings.TrimSuffix(v, ":*"); t != v {
				v, e = t, e-2
			}
		}
		switch {
		case !notRef(v), isScheme(v), boolish(strings.ToLower(v)), sep != "=" && plainWord.MatchString(v):
			continue
		}
		b.WriteString(s[last:a])
		b.WriteString(Masked)
		last = e
	}
	b.WriteString(s[last:])
	return b.String()
}

func boolish(v string) bool {
	switch v {
	case "1", "0", "true", "false", "yes", "no", "on", "off":
		return true
	}
	return false
}

// maskRuns masks long runs that look random rather than written: mixed
// case with digits, or long letter-digit runs such as hex keys.
func maskRuns(s string) string {
	return runRe.ReplaceAllStringFunc(s, func(r string) string {
		if highEntropy(r) {
			return Masked
		}
		return r
	})
}

func highEntropy(r string) bool {
	if strings.Contains(r, "__") {
		return false // mcp__server__tool names
	}
	var upper, lower, digit int
	for _, c := range r {
		switch {
		case c >= 'A' && c <= 'Z':
			upper++
		case c >= 'a' && c <= 'z':
			lower++
		case c >= '0' && c <= '9':
			digit++
		}
	}
	if strings.Contains(r, "/") {
		// A path is made of words; base64 is not.
		for _, seg := range strings.Split(r, "/") {
			if len(seg) >= 3 && plainWord.MatchString(seg) {
				return false
			}
		}
		return len(r) >= 30 && upper >= 4 && lower >= 4 && digit >= 2 && entropy(r) >= 3.5
	}
	switch {
	case upper >= 2 && lower >= 2 && digit >= 2 && entropy(r) >= 3.5:
		return true
	case len(r) >= 32 && digit >= 6 && upper+lower >= 6 && entropy(r) >= 3.5:
		return true
	}
	return false
}

// entropy is the Shannon entropy of s in bits per byte.
func entropy(s string) float64 {
	var n [256]int
	for i := 0; i < len(s); i++ {
		n[s[i]]++
	}
	h := 0.0
	for _, c := range n {
		if c > 0 {
			p := float64(c) / float64(len(s))
			h -= p * math.Log2(p)
		}
	}
	return h
}
