package policy

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/config"
	"github.com/acg-dev/acg/effects"
	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/prove"
)

// Severity of a finding.
type Severity string

const (
	Critical Severity = "critical"
	High     Severity = "high"
	Medium   Severity = "medium"
	Low      Severity = "low"
	// Info is below every --fail-on threshold: findings in test code are
	// reported at it (DESIGN.md "Tests are not production").
	Info Severity = "info"
)

// Rank orders severities (critical highest).
func (s Severity) Rank() int {
	switch s {
	case Critical:
		return 4
	case High:
		return 3
	case Medium:
		return 2
	case Low:
		return 1
	}
	return 0 // Info, and anything unknown
}

// ParseSeverity reads a severity name; "none" is rank 5 (nothing reaches it).
func ParseSeverity(s string) (Severity, bool) {
	switch Severity(strings.ToLower(s)) {
	case Critical, High, Medium, Low:
		return Severity(strings.ToLower(s)), true
	}
	return "", false
}

// Location is a 1-based file position relative to the scan root.
type Location struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	// EndLine and EndColumn close the span when the span itself is the
	// finding (tool-poisoning: the offending text); 0 otherwise.
	EndLine   int `json:"end_line,omitempty"`
	EndColumn int `json:"end_column,omitempty"`
}

// LocationOf converts an extracted location.
func LocationOf(l extract.Loc) Location {
	return Location{File: l.File, Line: int(l.Start.Line), Column: int(l.Start.Col)}
}

// Step is one step of a finding's path.
type Step struct {
	File    string      `json:"file"`
	Line    int         `json:"line"`
	Column  int         `json:"column"`
	Message string      `json:"message"`
	Loc     extract.Loc `json:"-"`
}

// StepAt makes a step at a location.
func StepAt(l extract.Loc, msg string) Step {
	return Step{File: l.File, Line: int(l.Start.Line), Column: int(l.Start.Col), Message: msg, Loc: l}
}

// Taxonomy maps a finding to public catalogues.
type Taxonomy struct {
	OWASPASI []string `json:"owasp_asi"`
	OWASPLLM []string `json:"owasp_llm"`
	ATLAS    []string `json:"atlas"`
}

// Legs lists the tools that give each leg of the Rule of Two.
type Legs struct {
	Untrusted []string `json:"untrusted_input"`
	Private   []string `json:"reads_private"`
	Action    []string `json:"action"`
}

// Finding is one reported problem. Field names are the output contract
// (DESIGN.md); the fields without a JSON name serve the language server.
type Finding struct {
	ID                string   `json:"id"`
	Rule              string   `json:"rule"`
	Severity          Severity `json:"severity"`
	RiskScore         float64  `json:"risk_score"`
	Agent             string   `json:"agent"`
	Source            string   `json:"source"`
	Sink              string   `json:"sink"`
	InScope           []string `json:"in_scope"`
	Chain             []string `json:"chain"`
	ChainType         string   `json:"chain_type"`
	VulnerabilityType string   `json:"vulnerability_type"`
	Location          Location `json:"location"`
	Message           string   `json:"-"`
	Steps             []Step   `json:"steps"`
	ApprovalOnPath    bool     `json:"approval_on_path"`
	Taxonomy          Taxonomy `json:"taxonomy"`
	Remediation       string   `json:"remediation"`
	// Triage is TriageConfirmed or TriageNeedsReview; TriageReason says
	// why in words (for needs_review: the assumed leg and the call behind
	// it).
	Triage       string `json:"triage"`
	TriageReason string `json:"triage_reason"`
	DecidedBy    string `json:"decided_by"`
	// AgentID is the id of Agent (names repeat, ids do not).
	AgentID string `json:"agent_id"`
	// Sources are every tool whose untrusted data supports the finding
	// (missing-approval, toxic-flow, dangerous-chain): one finding per root
	// cause lists them all, Source is the first.
	Sources []string `json:"sources,omitempty"`
	// SourceSet names Set in a JSON document (the writer sets it on its
	// copy of the finding).
	SourceSet string `json:"source_set,omitempty"`
	// Set holds the sources beside the head when the finding rests on more
	// than one (missing-approval, toxic-flow): shared between findings.
	Set *SourceSet `json:"-"`
	// Chains are every tool sequence a dangerous-chain finding stands for.
	Chains [][]string `json:"chains,omitempty"`
	// Patterns are the ids of every dangerous-chain pattern the chains
	// match (one finding per agent and target tool), in the database's
	// order; the first names the finding.
	Patterns []string `json:"patterns,omitempty"`
	// TestCode is set on a finding reported in test code: its severity is
	// then at most info unless tests are included (see ForTests).
	TestCode bool `json:"test_code,omitempty"`
	// PredictedBy is set on an observed-chain finding (acg traces): the id
	// of the static finding that predicted the chain the run walked.
	PredictedBy string `json:"predicted_by,omitempty"`
	Legs        *Legs  `json:"-"`

	// Loc is the full range the finding is reported on.
	Loc extract.Loc `json:"-"`
	// SinkIDs identify the action tools, for quick fixes and hover.
	SinkIDs []string `json:"-"`
	// Paths are the supporting paths, one per source or chain, the first
	// being Steps (SARIF: one threadFlow each). Nil when Steps is the only
	// one.
	Paths [][]Step `json:"-"`
	// Assumed are the labels a leg of the finding takes from the
	// fail-closed default, for the quick fix that declares the tool's real
	// effects. Set exactly when Triage is TriageNeedsReview.
	Assumed []Assumption `json:"-"`
	// Related are the locations of the tools involved (each leg's tool).
	Related []Step `json:"-"`
	// Suppression is set on a suppressed finding: why it is not reported.
	Suppression *Suppression `json:"suppression,omitempty"`
	// Fix holds edits that put an approval before the sink when a config
	// can say so (Claude Code: move the allow rule to ask), for quick fixes.
	Fix []extract.TextEdit `json:"-"`
}

// Triage values.
const (
	TriageConfirmed   = "confirmed"
	TriageNeedsReview = "needs_review"
)

// Assumption is one label of one tool that nothing could settle, and the
// call (or fact) that left it open.
type Assumption struct {
	ToolID, Tool string
	Label        effects.Label
	Why          string
}

// fingerprint makes a stable id from the parts that identify a finding:
// rule, agent and tool ids (file path + symbol), never line numbers, so an
// edit elsewhere in a file keeps the id.
func fingerprint(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return "ACG-" + strings.ToUpper(hex.EncodeToString(h[:])[:12])
}

// weakest returns the weakest decider among labels of the reached tools: a
// finding is only as certain as its least certain leg.
func weakest(ds ...effects.Decider) effects.Decider {
	order := []effects.Decider{effects.ByDefault, effects.ByAlias, effects.ByAnnotation, effects.ByCatalog, effects.ByRules, effects.ByConfig}
	for _, o := range order {
		for _, d := range ds {
			if d == o {
				return o
			}
		}
	}
	if len(ds) > 0 {
		return ds[0]
	}
	return effects.ByRules
}

// severityBase and chainFactor give the risk score (scanners.md §1.7).
func severityBase(s Severity) float64 {
	switch s {
	case Critical:
		return 1.0
	case High:
		return 0.75
	case Medium:
		return 0.5
	}
	return 0.25
}

func chainFactor(t string) float64 {
	switch t {
	case "indirect":
		return 0.8
	case "cycle":
		return 0.9
	}
	return 1.0
}

// RiskScore is base × chain type + 0.15 × centrality, capped at 1.
func RiskScore(s Severity, chainType string, centrality float64) float64 {
	v := severityBase(s)*chainFactor(chainType) + 0.15*centrality
	if v > 1 {
		v = 1
	}
	return float64(int(v*1000+0.5)) / 1000
}

// Sort orders findings by file, line, rule, id: deterministic output.
func Sort(fs []*Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.Location.File != b.Location.File {
			return a.Location.File < b.Location.File
		}
		if a.Location.Line != b.Location.Line {
			return a.Location.Line < b.Location.Line
		}
		if a.Severity != b.Severity {
			return a.Severity.Rank() > b.Severity.Rank()
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		return a.ID < b.ID
	})
}

// Input is what the checks read.
type Input struct {
	Graph *capgraph.Graph
	// ChainPatterns are the user's patterns from .acg.yaml, for the
	// dangerous-chain check to use beside its built-in database.
	ChainPatterns []config.ChainPattern
	// Flows are the proven data flows of every prover (package prove).
	Flows []prove.Flow
	// Poisoned are the hidden instructions found in model-facing text
	// (tool-poisoning).
	Poisoned []extract.PoisonHit

	// legs are each agent's legs, shared by the checks that read them
	// (rule-of-two, missing-approval); checks run one after another.
	legs map[string]legs
}

// legsOf are an agent's legs, collected once per Input.
func (in *Input) legsOf(id string) legs {
	if ls, ok := in.legs[id]; ok {
		return ls
	}
	if in.legs == nil {
		in.legs = map[string]legs{}
	}
	ls := legsOf(in.Graph.Reach(id))
	in.legs[id] = ls
	return ls
}

// Check is one policy check.
type Check struct {
	Name string
	Doc  string // one line: what it reports
	Run  func(*Input) []*Finding
}

var checks []Check

// Register adds a check; each check's file registers itself.
func Register(c Check) { checks = append(checks, c) }

// Checks lists the registered checks by name.
func Checks() []Check {
	out := append([]Check(nil), checks...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// CheckFailure is a check that panicked: its findings are missing, and
// the caller must say so (a notice, a log line) rather than present the
// rest as complete.
type CheckFailure struct {
	Check string
	Panic string // the panic value
	Stack string
}

// Run runs every enabled check (all when enabled is nil). A check that
// panics costs its own findings only, on the CLI as in the language
// server: it is recovered here, on the input it failed on, and reported.
func Run(in *Input, enabled map[string]bool) ([]*Finding, []CheckFailure) {
	var out []*Finding
	var failed []CheckFailure
	for _, c := range Checks() {
		if enabled != nil && !enabled[c.Name] {
			continue
		}
		fs, fail := runOne(c, in)
		if fail != nil {
			failed = append(failed, *fail)
			continue
		}
		out = append(out, fs...)
	}
	Sort(out)
	return out, failed
}

func runOne(c Check, in *Input) (fs []*Finding, fail *CheckFailure) {
	defer func() {
		if v := recover(); v != nil {
			fs, fail = nil, &CheckFailure{Check: c.Name, Panic: fmt.Sprint(v), Stack: string(debug.Stack())}
		}
	}()
	return c.Run(in), nil
}
