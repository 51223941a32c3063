package policy

import (
	"fmt"

	"github.com/acg-dev/acg/poison"
)

func init() {
	Register(Check{Name: "tool-poisoning", Doc: "hidden instructions in text the model reads as guidance (tool docstrings and descriptions, subagent prompts, AGENTS.md, CLAUDE.md, .cursorrules and other instruction files): text telling the model to read secrets, ignore its instructions, redirect other tools or hide what it does, invisible or bidirectional Unicode, instructions in HTML comments", Run: toolPoisoning})
}

// toolPoisoning reports each hidden instruction the extractors found in
// model-facing text (extract.PoisonHit, rules in package poison), on the
// exact span of the offending text. The text itself is never quoted: it
// may hold the secret it asks for.
func toolPoisoning(in *Input) []*Finding {
	var out []*Finding
	for _, h := range in.Poisoned {
		// High for every kind: hidden text is unseen by construction, so
		// it is judged as the worst it could say.
		sev := High
		subject := h.Subject
		if subject == "" {
			subject = h.Loc.File
		}
		f := &Finding{
			ID:   fingerprint("tool-poisoning", h.Loc.File, h.What, h.Rule, h.Digest),
			Rule: "tool-poisoning", Severity: sev, Agent: subject, AgentID: h.Loc.File + "#" + subject,
			InScope: []string{subject}, ChainType: "direct", VulnerabilityType: "tool_poisoning",
			Location: LocationOf(h.Loc), Loc: h.Loc, DecidedBy: "rules", Triage: TriageConfirmed,
			TriageReason: "the " + h.Rule + " rule of the deterministic text rules (docs/rules/tool-poisoning.md)",
			Taxonomy:     Taxonomy{OWASPLLM: []string{LLM01}, OWASPASI: []string{ASI01, ASI02}, ATLAS: []string{ATLASIndirectInjection}},
		}
		f.Location.EndLine, f.Location.EndColumn = int(h.Loc.End.Line), int(h.Loc.End.Col)
		f.RiskScore = RiskScore(sev, "direct", 0)
		f.Message = fmt.Sprintf("Hidden instruction in %s: %s", h.What, h.Why)
		f.Steps = []Step{StepAt(h.Loc, h.Why)}
		f.Remediation = poisonFix(h.Rule)
		out = append(out, f)
	}
	return out
}

// poisonFix says what to do about each kind of hidden instruction.
func poisonFix(rule string) string {
	switch rule {
	case poison.Invisible:
		return "Remove the invisible or bidirectional characters (view the file with them shown, e.g. `cat -A` or an editor's \"render control characters\"); if the text came from a dependency or a pull request, treat its source as compromised."
	case poison.HTMLComment:
		return "Remove the HTML comment: it is hidden when the Markdown is rendered but the model reads it. Instructions for the model belong in visible text a reviewer can see."
	}
	return "Remove the instruction from the text the model reads. A tool's description should say what the tool does, not tell the model to read files, change other tools or keep things from the user; if the text came from a dependency or a pull request, treat its source as compromised and pin a reviewed version."
}
