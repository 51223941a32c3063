package effects

import (
	"sort"

	"github.com/acg-dev/acg/extract"
)

// Label is one effect a tool can have.
type Label string

const (
	UntrustedInput Label = "untrusted_input"
	ReadsPrivate   Label = "reads_private"
	NetworkEgress  Label = "network_egress"
	WritesState    Label = "writes_state"
	ExecutesCode   Label = "executes_code"
	Irreversible   Label = "irreversible"
)

// Labels lists every label in output order.
var Labels = []Label{UntrustedInput, ReadsPrivate, NetworkEgress, WritesState, ExecutesCode, Irreversible}

// Decider says what settled a label.
type Decider string

const (
	ByConfig     Decider = "config"
	ByRules      Decider = "rules"
	ByCatalog    Decider = "catalog"
	ByAnnotation Decider = "annotation"
	ByAlias      Decider = "alias"
	ByDefault    Decider = "default"
)

// Evidence is one reason a label is present.
type Evidence struct {
	Label  Label       `json:"label"`
	Kind   string      `json:"kind"` // rule kind: http_read, exec, file_read, unknown_call, catalog …
	Role   string      `json:"role,omitempty"`
	Loc    extract.Loc `json:"loc"`
	Detail string      `json:"detail"`
	// Gated is set when a human approval always runs before this evidence
	// (interrupt() before the call in the tool, or in the caller).
	Gated   bool        `json:"gated,omitempty"`
	GateLoc extract.Loc `json:"gate_loc,omitempty"`
	// Via is the chain of call sites from the tool body to the evidence.
	Via []extract.Loc `json:"via,omitempty"`
	// Steps is the data flow that makes this evidence (parameter to
	// argument, call result to return), for the provers.
	Steps []*extract.Step `json:"-"`
	// Call is the call site of the evidence, when it is code.
	Call *extract.Call `json:"-"`
	// ModelData is set when data the tool was given (the model's arguments,
	// a graph node's state) reaches the call's arguments or receiver.
	ModelData bool `json:"-"`
}

// Result is the decision on one label.
type Result struct {
	Value     bool       `json:"value"`
	DecidedBy Decider    `json:"decided_by"`
	Evidence  []Evidence `json:"evidence,omitempty"`
}

// Gated reports whether every piece of evidence for a present label is
// behind a human approval inside the tool.
func (r *Result) Gated() bool {
	if r == nil || !r.Value || len(r.Evidence) == 0 {
		return false
	}
	for _, e := range r.Evidence {
		if !e.Gated {
			return false
		}
	}
	return true
}

// Effects is the decision on every label of one tool.
type Effects struct {
	Labels map[Label]*Result `json:"labels"`
	Roles  []string          `json:"roles,omitempty"`
	// roleBy records what gave each role (the strongest source wins).
	roleBy map[string]Decider
}

func newEffects() *Effects {
	e := &Effects{Labels: map[Label]*Result{}}
	for _, l := range Labels {
		e.Labels[l] = &Result{}
	}
	return e
}

// Has reports whether a label is present.
func (e *Effects) Has(l Label) bool { return e != nil && e.Labels[l] != nil && e.Labels[l].Value }

// Get returns the decision on a label (never nil).
func (e *Effects) Get(l Label) *Result {
	if e == nil || e.Labels[l] == nil {
		return &Result{}
	}
	return e.Labels[l]
}

// Values returns the labels as booleans, for output.
func (e *Effects) Values() map[string]bool {
	out := map[string]bool{}
	for _, l := range Labels {
		out[string(l)] = e.Has(l)
	}
	return out
}

// DecidedBy returns how each label was decided, for output.
func (e *Effects) DecidedBy() map[string]string {
	out := map[string]string{}
	for _, l := range Labels {
		out[string(l)] = string(e.Get(l).DecidedBy)
	}
	return out
}

// set records evidence for a label. Evidence from code outranks a default:
// once rules settle a label, default evidence is dropped.
func (e *Effects) add(ev Evidence, by Decider) {
	r := e.Labels[ev.Label]
	switch {
	case !r.Value || r.DecidedBy == "":
		r.Value, r.DecidedBy = true, by
		r.Evidence = append(r.Evidence, ev)
	case rank(by) < rank(r.DecidedBy):
		r.DecidedBy, r.Evidence = by, []Evidence{ev}
	case by == r.DecidedBy:
		for _, x := range r.Evidence {
			if x.Loc == ev.Loc && x.Kind == ev.Kind {
				return
			}
		}
		r.Evidence = append(r.Evidence, ev)
	}
	if ev.Role != "" {
		e.addRoleBy(ev.Role, by)
	}
}

// addRoleBy records a canonical role for the chain patterns and what
// decided it.
func (e *Effects) addRoleBy(r string, by Decider) {
	if r == "" {
		return
	}
	if e.roleBy == nil {
		e.roleBy = map[string]Decider{}
	}
	if prev, ok := e.roleBy[r]; ok {
		if rank(by) < rank(prev) {
			e.roleBy[r] = by
		}
		return
	}
	e.roleBy[r] = by
	e.Roles = append(e.Roles, r)
	sort.Strings(e.Roles)
}

// AddRole records a role decided by the given source (aliases add roles
// to tools whose labels come from elsewhere).
func (e *Effects) AddRole(r string, by Decider) { e.addRoleBy(r, by) }

// RoleDecider says what gave a tool a role ("" when it has not got it).
func (e *Effects) RoleDecider(r string) Decider {
	if e == nil {
		return ""
	}
	return e.roleBy[r]
}

// settle marks every label without evidence as decided absent by `by`.
func (e *Effects) settle(by Decider) {
	for _, l := range Labels {
		if r := e.Labels[l]; r.DecidedBy == "" {
			r.Value, r.DecidedBy = false, by
		}
	}
}

func rank(d Decider) int {
	switch d {
	case ByConfig:
		return 0
	case ByRules:
		return 1
	case ByCatalog:
		return 2
	case ByAnnotation:
		return 3
	case ByAlias:
		return 4
	}
	return 5
}

// Capability is an agent-level capability (DESIGN.md vocabulary).
type Capability string

const (
	CapUntrusted Capability = "UNTRUSTED_SOURCE"
	CapPrivate   Capability = "READ_PRIVATE"
	CapEgress    Capability = "EGRESS"
	CapWrite     Capability = "WRITE_STATE"
	CapExec      Capability = "CODE_EXEC"
)

// Capabilities lists them in output order.
var Capabilities = []Capability{CapUntrusted, CapPrivate, CapEgress, CapWrite, CapExec}

// LabelOf maps a capability to the label behind it.
func LabelOf(c Capability) Label {
	switch c {
	case CapUntrusted:
		return UntrustedInput
	case CapPrivate:
		return ReadsPrivate
	case CapEgress:
		return NetworkEgress
	case CapWrite:
		return WritesState
	case CapExec:
		return ExecutesCode
	}
	return ""
}

// IsAction reports whether a capability acts outward.
func (c Capability) IsAction() bool { return c == CapEgress || c == CapWrite || c == CapExec }

// Caps returns the capabilities a tool's effects give.
func (e *Effects) Caps() []Capability {
	var out []Capability
	for _, c := range Capabilities {
		if e.Has(LabelOf(c)) {
			out = append(out, c)
		}
	}
	return out
}
