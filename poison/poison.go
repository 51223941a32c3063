// Package poison finds hidden instructions in text a model reads as
// guidance: tool descriptions and docstrings, subagent prompts, and
// instruction files (AGENTS.md, CLAUDE.md, .cursorrules …). It owns the
// deterministic rules only; callers say which text is model-facing and
// turn the byte ranges it returns into source locations.
//
// The rules (docs/rules/tool-poisoning.md) are, in order:
//
//   - invisible: Unicode tag characters, zero-width characters or
//     bidirectional controls the user does not see but the model reads;
//   - html-comment: an HTML comment (hidden when Markdown is rendered)
//     that is addressed to the model;
//   - override: text telling the model to ignore its instructions;
//   - conceal: text telling the model to keep what it does from the user;
//   - secret: text telling the model to read secrets (key files,
//     credentials) or smuggle them into a tool argument;
//   - exfil: text telling the model to send data (secrets, the
//     conversation, file contents) to a literal address;
//   - tool-shadowing: text that changes what another tool does (send all
//     mail to a fixed address).
//
// Every rule reads the text only; nothing is run or fetched. Hits never
// carry the text they cover, so a secret in it is never echoed.
package poison

import (
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Rule ids, one per kind of hidden instruction.
const (
	Invisible     = "invisible"
	HTMLComment   = "html-comment"
	Override      = "override"
	Conceal       = "conceal"
	Secret        = "secret"
	Exfil         = "exfil"
	ToolShadowing = "tool-shadowing"
)

// Hit is one hidden instruction: its byte range in the scanned text, the
// rule that found it, and why in words (never quoting the text).
type Hit struct {
	Start, End int
	Rule       string
	Why        string
}

// Scan returns the hidden instructions in text, in order, one per span
// (overlapping hits of the prose rules are merged into the first).
func Scan(text string) []Hit {
	var hits []Hit
	hits = append(hits, invisible(text)...)
	hits = append(hits, htmlComments(text)...)
	// The prose outside comments (a comment is judged as a whole).
	at := 0
	for _, m := range commentRe.FindAllStringIndex(text, -1) {
		hits = append(hits, prose(text, at, m[0])...)
		at = m[1]
	}
	hits = append(hits, prose(text, at, len(text))...)
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].Start < hits[j].Start })
	// Drop a hit inside an earlier one (a sentence of a flagged comment).
	var out []Hit
	for _, h := range hits {
		if n := len(out); n > 0 && h.Start >= out[n-1].Start && h.End <= out[n-1].End && h.Rule != Invisible && out[n-1].Rule != Invisible {
			continue
		}
		out = append(out, h)
	}
	return out
}

// ---- invisible and bidirectional characters ----

// hiddenRune says whether r is invisible or reorders text: the tags block
// (U+E0000–U+E007F, which can spell ASCII no one sees), zero-width
// characters, invisible operators, and bidirectional controls.
func hiddenRune(r rune) bool {
	switch {
	case r >= 0xE0000 && r <= 0xE007F:
		return true
	case r >= 0x200B && r <= 0x200F, r >= 0x202A && r <= 0x202E, r >= 0x2060 && r <= 0x2064, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0xFEFF, r == 0x180E, r == 0x061C:
		return true
	}
	return false
}

func invisible(text string) []Hit {
	var hits []Hit
	i := 0
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !hiddenRune(r) || (i == 0 && r == 0xFEFF) {
			i += size
			continue
		}
		start := i
		var tags, zw, bidi int
		for i < len(text) {
			r, size := utf8.DecodeRuneInString(text[i:])
			if !hiddenRune(r) {
				break
			}
			switch {
			case r >= 0xE0000:
				tags++
			case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069, r == 0x200E, r == 0x200F, r == 0x061C:
				bidi++
			default:
				zw++
			}
			i += size
		}
		if legitJoiner(text, start, i) {
			continue
		}
		var parts []string
		if tags > 0 {
			parts = append(parts, plural(tags, "Unicode tag character")+" (they can spell text the user cannot see)")
		}
		if zw > 0 {
			parts = append(parts, plural(zw, "zero-width character"))
		}
		if bidi > 0 {
			parts = append(parts, plural(bidi, "bidirectional control")+" (the text displays in another order than the model reads it)")
		}
		hits = append(hits, Hit{Start: start, End: i, Rule: Invisible, Why: "invisible text: " + strings.Join(parts, ", ")})
	}
	return hits
}

// legitJoiner exempts what invisible characters are for in ordinary
// text: a zero-width joiner or non-joiner between two letters of a script
// that uses them (or two emoji), a variation or tag sequence ending an
// emoji flag (U+1F3F4 followed by tags and U+E007F), a single
// left-to-right or right-to-left mark beside right-to-left text.
func legitJoiner(text string, start, end int) bool {
	prev, _ := utf8.DecodeLastRuneInString(text[:start])
	next, _ := utf8.DecodeRuneInString(text[end:])
	run := text[start:end]
	if run == "\u200d" || run == "\u200c" {
		return (emoji(prev) || prev == 0xFE0F) && emoji(next) || nonLatinLetter(prev) && nonLatinLetter(next)
	}
	if prev == 0x1F3F4 && strings.HasSuffix(run, "\U000E007F") {
		for _, r := range run {
			if !(r >= 0xE0061 && r <= 0xE007A || r >= 0xE0030 && r <= 0xE0039 || r == 0xE007F) {
				return false
			}
		}
		return true
	}
	if run == "\u200e" || run == "\u200f" {
		return rtl(prev) || rtl(next)
	}
	return false
}

func emoji(r rune) bool { return r >= 0x1F000 && r <= 0x1FAFF || r >= 0x2600 && r <= 0x27BF }

func nonLatinLetter(r rune) bool {
	return r > 0x024F && unicode.IsLetter(r) || unicode.Is(unicode.Mn, r) && r > 0x036F
}

func rtl(r rune) bool {
	return unicode.In(r, unicode.Hebrew, unicode.Arabic, unicode.Syriac, unicode.Thaana)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return itoa(n) + " " + what + "s"
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

// ---- HTML comments ----

var commentRe = regexp.MustCompile(`(?s)<!--(.*?)-->`)

// addressed: words that say the text speaks to the model, and modal or
// imperative words that make it an instruction.
var (
	toModelRe = regexp.MustCompile(`(?i)\b(you|your|assistant|ai|llm|the model|agent|claude|copilot|gemini|codex|cursor|chatgpt|gpt)\b`)
	modalRe   = regexp.MustCompile(`(?i)\b(must|should|always|never|do not|don't|ignore|make sure|be sure|remember to|from now on|instead)\b`)
)

// htmlComments reports a comment whose content is an instruction to the
// model: one a prose rule flags, or one that speaks to the model with a
// modal. Tool markers (<!-- prettier-ignore -->, <!-- TOC -->) and notes
// to human editors are neither.
func htmlComments(text string) []Hit {
	var hits []Hit
	for _, m := range commentRe.FindAllStringSubmatchIndex(text, -1) {
		body := text[m[2]:m[3]]
		if inner := prose(text, m[2], m[3]); len(inner) > 0 {
			hits = append(hits, Hit{Start: m[0], End: m[1], Rule: HTMLComment,
				Why: "an HTML comment, hidden when the Markdown is rendered, carries an instruction to the model: " + inner[0].Why})
			continue
		}
		if toModelRe.MatchString(body) && modalRe.MatchString(body) && len(strings.Fields(body)) >= 4 {
			hits = append(hits, Hit{Start: m[0], End: m[1], Rule: HTMLComment,
				Why: "an HTML comment, hidden when the Markdown is rendered, addresses the model with an instruction"})
		}
	}
	return hits
}
