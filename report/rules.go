package report

import (
	"strings"

	"github.com/acg-dev/acg/policy"
)

// InfoURI is the project's home; rule help links point into its docs.
const InfoURI = "https://github.com/acg-dev/acg"

// RuleInfo is what the batch formats say about a rule.
type RuleInfo struct {
	ID    string
	Name  string // CamelCase, for SARIF's rule name
	Short string // one sentence
	Full  string
	Help  string // markdown: why it matters and how to fix it
	// SecuritySeverity is GitHub code scanning's 0.0–10.0 score for the
	// rule's worst case (9.0+ critical, 7.0+ high, 4.0+ medium).
	SecuritySeverity string
	Tags             []string
}

// HelpURI is the rule's section in docs/rules.md.
func (r RuleInfo) HelpURI() string { return InfoURI + "/blob/main/docs/rules.md#" + r.ID }

var ruleInfo = map[string]RuleInfo{
	"rule-of-two": {
		Name:  "RuleOfTwo",
		Short: "An agent combines untrusted input, private data and an outward action with no human approval.",
		Help: "An agent that reads text a third party can write (email, web pages, issues), can read data the attacker must not see " +
			"and can act outward (HTTP, email, shell, writes) can be instructed by that text to send the data out. No single tool is " +
			"the bug: the combination is.\n\n**Fix**: require a human approval before the outward action (LangGraph `interrupt()`, " +
			"`needs_approval=True` in the OpenAI Agents SDK, `HumanInTheLoopMiddleware`, Claude Code `ask` rules), or remove one of " +
			"the three legs from the agent's reach. The finding's remediation names the gate for the framework at hand.",
		SecuritySeverity: "9.3",
		Tags:             []string{"security", "ai-agent", "prompt-injection", "exfiltration"},
	},
	"missing-approval": {
		Name:  "MissingApproval",
		Short: "An agent that reads untrusted input can run an irreversible or code-executing action with no human approval.",
		Help: "Untrusted input can steer the model into calling any tool it has. Actions that cannot be undone (payments, deletes, " +
			"sent messages) or that run code need a human in the loop.\n\n**Fix**: gate the action with the framework's approval " +
			"mechanism, or take untrusted input away from the agent that holds it.",
		SecuritySeverity: "8.1",
		Tags:             []string{"security", "ai-agent", "excessive-agency"},
	},
	"toxic-flow": {
		Name:  "ToxicFlow",
		Short: "A proven data flow carries untrusted input into an outward action with no human approval.",
		Help: "A prover traced a path from a source a third party controls to a sink that acts outward, inside code the agent runs, " +
			"with no approval on the path.\n\n**Fix**: put an approval before the sink, or sanitise or constrain what reaches it " +
			"(allow-list the destination, fix the command).",
		SecuritySeverity: "9.0",
		Tags:             []string{"security", "ai-agent", "taint"},
	},
	"dangerous-chain": {
		Name:  "DangerousChain",
		Short: "A tool sequence in one agent's reach matches a known dangerous pattern.",
		Help: "Some tool pairs are dangerous together (read a file then send a request, run SQL then execute code), directly, " +
			"through other agents, or in a cycle.\n\n**Fix**: split the tools across agents that cannot reach each other, or gate " +
			"the second tool with a human approval.",
		SecuritySeverity: "8.5",
		Tags:             []string{"security", "ai-agent", "tool-chain"},
	},
	"unrestricted-execution": {
		Name:  "UnrestrictedExecution",
		Short: "An agent may run any shell command.",
		Help: "An unscoped shell permission (Claude Code `Bash` or `Bash(*)`) lets the model run anything the user can.\n\n" +
			"**Fix**: scope the permission to the commands the agent needs (`Bash(npm test:*)`), or make it an `ask` rule.",
		SecuritySeverity: "7.5",
		Tags:             []string{"security", "ai-agent", "code-execution"},
	},
	"observed-chain": {
		Name:  "ObservedChain",
		Short: "A recorded run walked a dangerous tool sequence: untrusted input, private data and an outward action with no approval between.",
		Help: "acg traces read a recorded agent run (OpenTelemetry spans, an OpenAI Agents SDK or Langfuse export, a Claude Code hook " +
			"log) and found that the agent really called an untrusted source, read private data and acted outward (or ran a pair of " +
			"tools of the dangerous-chain patterns) with no approval in between. Each step is a span of the trace. When the tree was " +
			"scanned too, the finding names the static finding that predicted the path; one that none predicted is a gap in the " +
			"static analysis.\n\n**Fix**: the fix of the predicting finding (an approval before the action), then record the run again.",
		SecuritySeverity: "9.5",
		Tags:             []string{"security", "ai-agent", "runtime", "exfiltration"},
	},
	policy.RuleInvalidSuppression: {
		Name:  "InvalidSuppression",
		Short: "An acg: ignore comment cannot be honoured, so the finding it meant stays reported.",
		Help: "Suppressions need the rule and a reason: `# acg: ignore[rule-of-two] the webhook only reaches our status page`. " +
			"A comment without a reason, without a rule or naming an unknown rule is ignored.\n\n**Fix**: write the rule in brackets " +
			"and the reason after it.",
		SecuritySeverity: "4.0",
		Tags:             []string{"maintainability"},
	},
}

// Rules returns the description of every rule: the registered checks and
// invalid-suppression, sorted by id.
func Rules() []RuleInfo {
	ids := []string{policy.RuleInvalidSuppression}
	docs := map[string]string{policy.RuleInvalidSuppression: policy.InvalidSuppressionDoc}
	for _, c := range policy.Checks() {
		ids = append(ids, c.Name)
		docs[c.Name] = c.Doc
	}
	out := make([]RuleInfo, 0, len(ids))
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		out = append(out, infoFor(id, docs[id]))
	}
	sortBy(out, func(r RuleInfo) string { return r.ID })
	return out
}

// infoFor describes a rule; a check this file does not know yet (a new
// one registered elsewhere) is described by its own Doc line.
func infoFor(id, doc string) RuleInfo {
	r, ok := ruleInfo[id]
	if !ok {
		r = RuleInfo{Name: camel(id), Short: sentence(doc), Help: sentence(doc), SecuritySeverity: "7.0", Tags: []string{"security", "ai-agent"}}
	}
	r.ID = id
	r.Full = sentence(doc)
	if r.Full == "" {
		r.Full = r.Short
	}
	return r
}

func camel(id string) string {
	var b strings.Builder
	for _, p := range strings.Split(id, "-") {
		if p != "" {
			b.WriteString(strings.ToUpper(p[:1]) + p[1:])
		}
	}
	return b.String()
}

func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	s = strings.ToUpper(s[:1]) + s[1:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}
