package config

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
)

// Ignore is an inline suppression comment:
//
//	# acg: ignore[rule-of-two] the webhook only reaches our own status page
//
// on the line a finding is reported on, or in the comment lines right
// above it. The reason is required.
type Ignore struct {
	Rules  []string
	Reason string
	Pos
}

var (
	// `#` in Python, YAML and TOML; `//` in TypeScript and JavaScript.
	ignoreRe = regexp.MustCompile(`(?:#|//)\s*acg:\s*ignore\b(.*)$`)
	ruleRe   = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
)

// ParseIgnore reads one comment's text. ok is false when the comment is
// not an acg directive at all; err says what is wrong with one that is
// (no rules, no reason), in words a user can act on.
func ParseIgnore(comment string) (ig Ignore, ok bool, err error) {
	m := ignoreRe.FindStringSubmatch(comment)
	if m == nil {
		return Ignore{}, false, nil
	}
	rest := m[1]
	if !strings.HasPrefix(rest, "[") {
		return Ignore{}, true, fmt.Errorf("write the rules in brackets: # acg: ignore[rule-of-two] <reason>")
	}
	end := strings.IndexByte(rest, ']')
	if end < 0 {
		return Ignore{}, true, fmt.Errorf("the rule list has no closing bracket: # acg: ignore[rule-of-two] <reason>")
	}
	for _, r := range strings.Split(rest[1:end], ",") {
		r = strings.TrimSpace(r)
		if r == "" {
			continue
		}
		if !ruleRe.MatchString(r) {
			return Ignore{}, true, fmt.Errorf("%q is not a rule name", r)
		}
		ig.Rules = append(ig.Rules, r)
	}
	if len(ig.Rules) == 0 {
		return Ignore{}, true, fmt.Errorf("name the rule to ignore: # acg: ignore[rule-of-two] <reason>")
	}
	ig.Reason = strings.TrimSpace(rest[end+1:])
	if ig.Reason == "" {
		return ig, true, fmt.Errorf("a reason is required: # acg: ignore[%s] <why this is acceptable>", strings.Join(ig.Rules, ","))
	}
	if strings.EqualFold(ig.Reason, ReasonPlaceholder) {
		return ig, true, fmt.Errorf("replace %q with the reason: # acg: ignore[%s] <why this is acceptable>", ReasonPlaceholder, strings.Join(ig.Rules, ","))
	}
	return ig, true, nil
}

// ReasonPlaceholder is what an editor inserts where the reason goes when it
// cannot place the cursor there: it suppresses nothing until replaced.
const ReasonPlaceholder = "reason"

// Covers reports whether the suppression names a rule.
func (ig Ignore) Covers(rule string) bool {
	for _, r := range ig.Rules {
		if r == rule {
			return true
		}
	}
	return false
}

// Lines splits source into lines without their terminators, so that
// lines[i] is line i+1.
func Lines(src []byte) []string {
	s := strings.ReplaceAll(string(src), "\r\n", "\n")
	return strings.Split(s, "\n")
}

// LogicalStart returns the first physical line of the logical line that
// holds line (1-based): earlier lines ending in a backslash continue into
// it, and nothing may be inserted between them.
func LogicalStart(lines []string, line int) int {
	for line > 1 && line-1 <= len(lines) && strings.HasSuffix(strings.TrimRight(lines[line-2], " \t"), `\`) {
		line--
	}
	return line
}

// Applies reports whether an ignore comment at commentLine covers a finding
// reported on line: a trailing comment on the finding's logical line, or
// one in the block of comment lines directly above it.
func Applies(lines []string, commentLine, line int) bool {
	start := LogicalStart(lines, line)
	if commentLine >= start && commentLine <= line {
		return true
	}
	for l := start - 1; l >= 1 && l <= len(lines); l-- {
		t := strings.TrimSpace(lines[l-1])
		if !strings.HasPrefix(t, "#") {
			return false
		}
		if l == commentLine {
			return true
		}
	}
	return false
}

// Edit is a text insertion at the start of a line.
type Edit struct {
	// Line is the 1-based line the text is inserted before (column 1).
	Line int
	// Text is the whole comment line, indentation and newline included.
	Text string
	// ReasonOffset is the byte offset in Text where the reason goes: the
	// editor puts the cursor (or a snippet placeholder) there, since the
	// comment does nothing until a reason is written.
	ReasonOffset int
}

// IgnoreEdit computes the edit that suppresses rule for a finding reported
// on line (1-based) of src: a comment line above the finding's logical
// line, indented like it, ending with reason (which may be left empty for
// the user to type). The language server's quick fix applies it.
func IgnoreEdit(src []byte, line int, rule, reason string) Edit {
	return IgnoreEditWith(src, line, rule, reason, "#")
}

// IgnoreEditWith is IgnoreEdit in a language whose line comments start
// with marker ("//" for TypeScript and JavaScript).
func IgnoreEditWith(src []byte, line int, rule, reason, marker string) Edit {
	lines := Lines(src)
	if line < 1 {
		line = 1
	}
	if line > len(lines) {
		line = len(lines)
	}
	at := LogicalStart(lines, line)
	target := lines[at-1]
	indent := target[:len(target)-len(strings.TrimLeft(target, " \t"))]
	nl := "\n"
	if bytes.Contains(src, []byte("\r\n")) {
		nl = "\r\n"
	}
	head := indent + marker + " acg: ignore[" + rule + "] "
	return Edit{Line: at, Text: head + strings.TrimSpace(reason) + nl, ReasonOffset: len(head)}
}
