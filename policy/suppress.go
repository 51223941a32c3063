package policy

import (
	"strconv"

	"github.com/acg-dev/acg/extract"
)

// RuleInvalidSuppression reports an inline suppression comment that cannot
// be honoured (no reason, no rule, an unknown rule). It is not a graph
// check: the workspace raises it while applying suppressions.
const RuleInvalidSuppression = "invalid-suppression"

// InvalidSuppressionDoc describes the rule, for rule lists.
const InvalidSuppressionDoc = "an acg: ignore comment that cannot be honoured (no reason, no rule, unknown rule); the finding it meant stays reported"

// Suppression records why a finding is not reported.
type Suppression struct {
	// Kind is "inSource" for a comment in the code and "external" for an
	// entry of the config file (SARIF's suppression kinds).
	Kind          string   `json:"kind"`
	Justification string   `json:"justification"`
	Location      Location `json:"location"`
}

// InvalidSuppression makes the finding for a bad suppression comment. Its
// id depends on the file, the comment text and which of the identical
// comments in that file it is, never on the line.
func InvalidSuppression(loc extract.Loc, comment, problem string, nth int) *Finding {
	f := &Finding{
		ID:       fingerprint(RuleInvalidSuppression, loc.File, comment, strconv.Itoa(nth)),
		Rule:     RuleInvalidSuppression,
		Severity: Medium,
		Location: LocationOf(loc), Loc: loc,
		InScope: []string{}, Chain: []string{},
		Taxonomy:  Taxonomy{OWASPASI: []string{}, OWASPLLM: []string{}, ATLAS: []string{}},
		DecidedBy: "rules", Triage: TriageConfirmed, TriageReason: "the comment is malformed",
		Message:     "This acg suppression comment is ignored: " + problem,
		Remediation: "Write the rule and the reason: # acg: ignore[rule-of-two] <why the path is acceptable>.",
	}
	f.Steps = []Step{StepAt(loc, problem)}
	return f
}
