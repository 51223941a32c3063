package extract

import (
	"path"
	"strings"

	"github.com/acg-dev/acg/poison"
)

// Model-facing text: what a model reads as guidance rather than data —
// tool docstrings and descriptions, subagent prompts, and the instruction
// files clients load into every session (AGENTS.md, CLAUDE.md …). Package
// poison judges the text; this file says where such text is and turns its
// hits into locations (tool-poisoning, docs/rules/tool-poisoning.md).

// PoisonHit is a hidden instruction in model-facing text.
type PoisonHit struct {
	Loc  Loc
	Rule string // poison.Invisible, poison.Override, …
	Why  string // never quotes the text
	// What is the text it is in ("the docstring of tool fetch"); Subject
	// is the tool, subagent or client that hands the text to the model.
	What, Subject string
	// Digest identifies the offending text for a stable finding id
	// without keeping it.
	Digest string
}

// ScanText judges src[start:end] and adds its hits to f.Poison.
func ScanText(f *File, src []byte, start, end int, what, subject string) {
	if f.Lines == nil {
		f.Lines = LineStarts(src)
	}
	for _, h := range poison.Scan(string(src[start:end])) {
		s, e := start+h.Start, start+h.End
		f.Poison = append(f.Poison, PoisonHit{
			Loc:  Loc{File: f.Path, Start: PointAt(src, f.Lines, s), End: PointAt(src, f.Lines, e)},
			Rule: h.Rule, Why: h.Why, What: what, Subject: subject, Digest: digest(src[s:e]),
		})
	}
}

func digest(b []byte) string {
	// FNV-1a: a stable key, not a secret's hash anyone needs to reverse.
	h := uint64(14695981039346656037)
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	const hexd = "0123456789abcdef"
	out := make([]byte, 16)
	for i := 15; i >= 0; i-- {
		out[i] = hexd[h&15]
		h >>= 4
	}
	return string(out)
}

// InstructionReader says which client loads a file into every session as
// instructions, or "" when the path is none: AGENTS.md (Codex and the
// other clients of the agents.md convention), CLAUDE.md, GEMINI.md,
// .cursorrules and .cursor/rules/*.mdc, .windsurfrules, .clinerules and
// .github/copilot-instructions.md (and .github/instructions/*.instructions.md).
func InstructionReader(rel string) string {
	rel = path.Clean(strings.ReplaceAll(rel, "\\", "/"))
	base := path.Base(rel)
	dir := path.Base(path.Dir(rel))
	switch {
	case base == "AGENTS.md" || base == "AGENTS.override.md":
		return "agents-md"
	case base == "CLAUDE.md" || base == "CLAUDE.local.md":
		return "claude-code"
	case base == "GEMINI.md":
		return "gemini"
	case base == ".cursorrules", dir == "rules" && path.Base(path.Dir(path.Dir(rel))) == ".cursor" && strings.HasSuffix(base, ".mdc"):
		return "cursor"
	case base == ".windsurfrules":
		return "windsurf"
	case base == ".clinerules":
		return "cline"
	case base == "copilot-instructions.md" && dir == ".github",
		dir == "instructions" && path.Base(path.Dir(path.Dir(rel))) == ".github" && strings.HasSuffix(base, ".instructions.md"):
		return "copilot"
	}
	return ""
}

// InstructionFile reads an instruction file: all of it is model-facing.
func InstructionFile(rel string, src []byte) *File {
	f := &File{Path: rel, Lang: LangMarkdown, Lines: LineStarts(src)}
	ScanText(f, src, 0, len(src), "the instruction file "+path.Base(rel), InstructionReader(rel))
	return f
}

// SubagentText judges a subagent file (its description and prompt).
func SubagentText(f *File, src []byte) {
	if f == nil {
		return
	}
	name := strings.TrimSuffix(path.Base(f.Path), ".md")
	if f.Subagent != nil && f.Subagent.Name != "" {
		name = f.Subagent.Name
	}
	ScanText(f, src, 0, len(src), "the prompt of subagent "+name, name)
}
