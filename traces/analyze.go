package traces

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/effects"
	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/policy"
	"github.com/acg-dev/acg/report"
)

// RuleObserved is the rule of the findings this package makes.
const RuleObserved = "observed-chain"

// Static is what the scan of the same tree knows: its graph and findings.
type Static struct {
	Graph    *capgraph.Graph
	Findings []*policy.Finding
}

// Options of an analysis.
type Options struct {
	// Static, when set, labels tools from the tree's analysis and links
	// each observed chain to the finding that predicted it.
	Static *Static
	// Catalog labels tools the tree does not have (default: the embedded one).
	Catalog *effects.Catalog
	// Patterns is the dangerous-chain database (default: the embedded one).
	Patterns *policy.Patterns
	Now      func() time.Time
}

// Labelled is a call with the labels of its tool.
type Labelled struct {
	Call
	Labels    []string `json:"labels"`
	DecidedBy string   `json:"decided_by"` // the weakest decider among its present labels
	ToolID    string   `json:"tool_id,omitempty"`
	effects   *effects.Effects
}

// SessionResult is one analysed session.
type SessionResult struct {
	*Session
	AgentID string `json:"agent_id,omitempty"` // the static agent it was matched to
	// Labeled are the calls with their labels; in JSON they stand in for
	// the session's plain calls (the shallower field wins).
	Labeled []Labelled `json:"calls"`
}

// Chain is one dangerous sequence a session walked (or, when Blocked, one
// an approval stopped).
type Chain struct {
	Session   string     `json:"session"`
	File      string     `json:"file"`
	Agent     string     `json:"agent"`
	AgentID   string     `json:"agent_id,omitempty"`
	Kind      string     `json:"kind"` // rule-of-two, or the pattern's type
	Pattern   string     `json:"pattern,omitempty"`
	Patterns  []string   `json:"patterns,omitempty"` // pattern rows the same calls also match
	Calls     []Labelled `json:"calls"`
	Blocked   *Approval  `json:"blocked_by,omitempty"`
	Predicted string     `json:"predicted_by,omitempty"`
	Finding   string     `json:"finding_id,omitempty"`
	severity  policy.Severity
	action    effects.Label
	legs      [3]int // indices into Calls: untrusted, private, action (-1 for a pattern chain)
}

// Summary says how the observed chains compare with the static findings.
type Summary struct {
	Sessions    int      `json:"sessions"`
	Calls       int      `json:"calls"`
	Approvals   int      `json:"approvals"`
	Observed    int      `json:"observed"`
	Blocked     int      `json:"blocked"`
	Static      bool     `json:"static"` // a tree was analysed
	Predicted   int      `json:"predicted"`
	Unpredicted []string `json:"unpredicted"` // observed-chain finding ids no static finding predicted
}

// Result of an analysis.
type Result struct {
	Files    []string            `json:"files"`
	Sessions []*SessionResult    `json:"sessions"`
	Chains   []*Chain            `json:"chains"`
	Findings []*policy.Finding   `json:"findings"`
	Events   []report.ChainEvent `json:"events"`
	Summary  Summary             `json:"summary"`
	Problems []Problem           `json:"problems"`
}

// Analyze labels every call and finds the observed chains.
func Analyze(set *Set, o Options) *Result {
	if o.Catalog == nil {
		o.Catalog = effects.DefaultCatalog()
	}
	if o.Patterns == nil {
		o.Patterns = policy.DefaultPatterns()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	res := &Result{Files: set.Files, Sessions: []*SessionResult{}, Chains: []*Chain{}, Findings: []*policy.Finding{},
		Events: []report.ChainEvent{}, Problems: set.Problems, Summary: Summary{Static: o.Static != nil, Unpredicted: []string{}}}
	for _, se := range set.Sessions {
		sr := o.label(se)
		res.Sessions = append(res.Sessions, sr)
		res.Summary.Sessions++
		res.Summary.Calls += len(se.Calls)
		res.Summary.Approvals += len(se.Approvals)
		res.Chains = append(res.Chains, o.chains(sr)...)
	}
	ts := o.Now().UTC().Format(time.RFC3339)
	for _, c := range res.Chains {
		if c.Blocked != nil {
			res.Summary.Blocked++
			res.Events = append(res.Events, report.ChainEvent{TS: ts, ToolsSequence: c.tools(), EmergentCapability: c.capability(),
				InScope: true, ActionTaken: report.ActionBlocked, Agent: c.Agent, Rule: RuleObserved})
			continue
		}
		o.predict(c)
		f := c.finding()
		res.Findings = append(res.Findings, f)
		res.Summary.Observed++
		if c.Predicted != "" {
			res.Summary.Predicted++
		} else {
			res.Summary.Unpredicted = append(res.Summary.Unpredicted, f.ID)
		}
		res.Events = append(res.Events, report.ChainEvent{TS: ts, ToolsSequence: c.tools(), EmergentCapability: c.capability(),
			ActionTaken: report.ActionReported, Agent: c.Agent, Rule: RuleObserved, Severity: string(f.Severity), FindingID: f.ID})
	}
	return res
}

func (c *Chain) tools() []string {
	out := make([]string, 0, len(c.Calls))
	for _, l := range c.Calls {
		out = append(out, l.Tool)
	}
	return out
}

func (c *Chain) capability() string {
	if c.Pattern != "" {
		return c.Kind
	}
	return policy.VulnType(c.action)
}

// label matches a session to a static agent and labels its calls.
func (o Options) label(se *Session) *SessionResult {
	sr := &SessionResult{Session: se, Labeled: []Labelled{}}
	var reach []capgraph.Reached
	if o.Static != nil && o.Static.Graph != nil {
		sr.AgentID = o.matchAgent(se)
		if sr.AgentID != "" {
			reach = o.Static.Graph.Reach(sr.AgentID)
		}
	}
	for _, c := range se.Calls {
		l := Labelled{Call: c}
		for _, r := range reach {
			if r.Tool.Name == c.Tool {
				l.effects, l.ToolID = r.Tool.Effects, r.Tool.ID
				break
			}
		}
		if l.effects == nil {
			l.effects = o.catalogEffects(se, c.Tool)
		}
		l.Labels, l.DecidedBy = present(l.effects)
		sr.Labeled = append(sr.Labeled, l)
	}
	return sr
}

// matchAgent picks the static agent a session ran: the agent of that name
// (the one reaching most of the session's tools when names repeat), else
// the one agent whose reach holds every tool the session called.
func (o Options) matchAgent(se *Session) string {
	g := o.Static.Graph
	ids := make([]string, 0, len(g.Agents))
	for id := range g.Agents {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	covered := func(id string) int {
		names := map[string]bool{}
		for _, r := range g.Reach(id) {
			names[r.Tool.Name] = true
		}
		n := 0
		for _, c := range se.Calls {
			if names[c.Tool] {
				n++
			}
		}
		return n
	}
	best, bestN := "", -1
	for _, id := range ids {
		if se.Agent != "" && g.Agents[id].Name == se.Agent {
			if n := covered(id); n > bestN {
				best, bestN = id, n
			}
		}
	}
	if best != "" {
		return best
	}
	if len(se.Calls) == 0 {
		return ""
	}
	var all []string
	for _, id := range ids {
		if covered(id) == len(se.Calls) {
			all = append(all, id)
		}
	}
	if len(all) == 1 {
		return all[0]
	}
	return ""
}

// catalogEffects labels a tool by name alone: Claude Code's built-ins and
// MCP tool names through the client aliases, a catalogued prebuilt tool
// by the name the model sees, else every label (fail closed).
func (o Options) catalogEffects(se *Session, tool string) *effects.Effects {
	if se.Format == FormatClaudeCode {
		return o.Catalog.ClaudeTool(tool, "", locOf(se, 0))
	}
	for _, t := range o.Catalog.Tools {
		if t.Name != "" && t.Name == tool && !t.NameUnverfied {
			return t.EffectsOf("catalog: " + t.Class + " (" + string(t.Framework) + ") is named " + tool)
		}
	}
	if _, _, ok := effects.SplitMCPName(tool); ok {
		return o.Catalog.ClaudeTool(tool, "", locOf(se, 0))
	}
	why := fmt.Sprintf("nothing is known about tool %s: the catalog has no tool of that name", tool)
	if o.Static != nil {
		why = fmt.Sprintf("nothing is known about tool %s: the scanned tree has no tool of that name for this agent, nor has the catalog", tool)
	}
	return effects.Unknown(why, locOf(se, 0))
}

func present(e *effects.Effects) ([]string, string) {
	out := []string{}
	var ds []effects.Decider
	for _, l := range effects.Labels {
		if e.Has(l) {
			out = append(out, string(l))
			ds = append(ds, e.Get(l).DecidedBy)
		}
	}
	return out, string(weakest(ds))
}

func weakest(ds []effects.Decider) effects.Decider {
	for _, o := range []effects.Decider{effects.ByDefault, effects.ByAlias, effects.ByAnnotation, effects.ByCatalog, effects.ByRules, effects.ByConfig} {
		if slices.Contains(ds, o) {
			return o
		}
	}
	return ""
}

var actionLabels = []effects.Label{effects.NetworkEgress, effects.WritesState, effects.ExecutesCode}

func actionOf(e *effects.Effects) (effects.Label, bool) {
	for _, l := range actionLabels {
		if e.Has(l) {
			return l, true
		}
	}
	return "", false
}

// step is a call or an approval on a session's timeline.
type step struct {
	call     int // index into Labeled, or -1
	approval *Approval
	ts       time.Time
	seq      int
}

func timeline(sr *SessionResult) []step {
	var out []step
	for i, c := range sr.Labeled {
		out = append(out, step{call: i, ts: c.TS, seq: c.seq})
	}
	for i := range sr.Approvals {
		a := &sr.Approvals[i]
		out = append(out, step{call: -1, approval: a, ts: a.TS, seq: a.seq})
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if !a.ts.IsZero() && !b.ts.IsZero() && !a.ts.Equal(b.ts) {
			return a.ts.Before(b.ts)
		}
		return a.seq < b.seq
	})
	return out
}

// chains finds the session's dangerous sequences: for each untrusted read
// U, each later outward action A that no approval of A (or of every
// action) between U and A covers, with a private read P after U (before
// or after A): one chain per (U, P, A) tools. An approval that stops the
// action makes a blocked chain instead. Pattern rows then apply to each
// ordered pair of calls; a pair inside a reported chain is noted on it
// (one root cause, one finding).
func (o Options) chains(sr *SessionResult) []*Chain {
	tl := timeline(sr)
	var out []*Chain
	seen := map[string]bool{}
	covers := func(ap *Approval, tool string) bool { return ap.Tool == "" || ap.Tool == tool }
	for ui, u := range tl {
		if u.call < 0 || !sr.Labeled[u.call].effects.Has(effects.UntrustedInput) {
			continue
		}
		firstPrivate := func(not ...int) int {
			for _, s := range tl[ui+1:] {
				if s.call >= 0 && !slices.Contains(not, s.call) && sr.Labeled[s.call].effects.Has(effects.ReadsPrivate) {
					return s.call
				}
			}
			return -1
		}
		// Actions latest first: when labels leave the legs open (a tool
		// failing closed has them all), the last call is the action and
		// the chain is reported once for its calls.
		later := slices.Clone(tl[ui+1:])
		slices.Reverse(later)
		approvedBefore := func(k int, tool string) bool {
			for _, s := range tl[ui+1 : k] {
				if s.approval != nil && covers(s.approval, tool) {
					return true
				}
			}
			return false
		}
		for _, a := range later {
			if a.approval != nil {
				// An approval of an action that never ran as a call is the
				// blocked chain.
				t := a.approval.Tool
				if t == "" {
					continue
				}
				e := o.catalogEffects(sr.Session, t)
				for _, l := range sr.Labeled {
					if l.Tool == t {
						e = l.effects
						break
					}
				}
				if _, ok := actionOf(e); !ok {
					continue
				}
				p := firstPrivate(u.call)
				if p < 0 {
					continue
				}
				key := "blocked\x00" + sr.Labeled[u.call].Tool + "\x00" + sr.Labeled[p].Tool + "\x00" + t
				if seen[key] {
					continue
				}
				seen[key] = true
				lbl, by := present(e)
				act := Labelled{Call: Call{SpanID: a.approval.SpanID, Tool: t, TS: a.approval.TS, Line: a.approval.Line}, Labels: lbl, DecidedBy: by, effects: e}
				c := o.newChain(sr, []Labelled{sr.Labeled[u.call], sr.Labeled[p], act})
				c.Blocked = a.approval
				out = append(out, c)
				continue
			}
			if a.call == u.call || a.call < 0 {
				continue
			}
			act := sr.Labeled[a.call]
			if _, ok := actionOf(act.effects); !ok {
				continue
			}
			if approvedBefore(indexIn(tl, a.call), act.Tool) {
				continue
			}
			p := firstPrivate(u.call, a.call)
			if p < 0 {
				continue
			}
			ordered := []int{u.call, p, a.call}
			slices.SortFunc(ordered, func(x, y int) int { return indexIn(tl, x) - indexIn(tl, y) })
			// One chain per tools walked: the same tools in the same order
			// again (a retry, a loop) are the same root cause.
			var key string
			for _, i := range ordered {
				key += sr.Labeled[i].Tool + "\x00"
			}
			if seen[key] {
				continue
			}
			seen[key] = true
			var ls []Labelled
			for _, i := range ordered {
				ls = append(ls, sr.Labeled[i])
			}
			c := o.newChain(sr, ls)
			c.legs = [3]int{slices.Index(ordered, u.call), slices.Index(ordered, p), slices.Index(ordered, a.call)}
			c.action, _ = actionOf(act.effects)
			c.severity = policy.Critical
			out = append(out, c)
		}
	}
	out = append(out, o.patternChains(sr, tl, out)...)
	return out
}

func indexIn(tl []step, call int) int {
	for i, s := range tl {
		if s.call == call {
			return i
		}
	}
	return -1
}

func (o Options) newChain(sr *SessionResult, calls []Labelled) *Chain {
	c := &Chain{Session: sr.ID, File: sr.File, Agent: sr.Agent, AgentID: sr.AgentID, Kind: "rule-of-two", Calls: calls, legs: [3]int{-1, -1, -1}}
	if c.AgentID != "" && o.Static != nil {
		c.Agent = o.Static.Graph.Agents[c.AgentID].Name
	}
	if a, ok := actionOf(calls[len(calls)-1].effects); ok {
		c.action = a
	}
	return c
}

// patternChains applies the dangerous-chain rows to ordered pairs of
// calls: one chain per (pattern, target tool), the first source that
// reaches it.
func (o Options) patternChains(sr *SessionResult, tl []step, reported []*Chain) []*Chain {
	var out []*Chain
	seen := map[string]bool{}
	roles := func(e *effects.Effects) []string {
		var rs []string
		for _, r := range e.Roles {
			rs = append(rs, o.Patterns.Canonical(r))
		}
		return rs
	}
	for i, x := range tl {
		if x.call < 0 {
			continue
		}
		rx := roles(sr.Labeled[x.call].effects)
		if len(rx) == 0 {
			continue
		}
		var approved []*Approval
		for _, y := range tl[i+1:] {
			if y.approval != nil {
				approved = append(approved, y.approval)
				continue
			}
			if y.call == x.call {
				continue
			}
			tgt := sr.Labeled[y.call]
			if slices.ContainsFunc(approved, func(ap *Approval) bool { return ap.Tool == "" || ap.Tool == tgt.Tool }) {
				continue
			}
			ry := roles(tgt.effects)
			for _, p := range o.Patterns.Rows {
				if !slices.Contains(rx, p.Source) || !slices.Contains(ry, p.Target) {
					continue
				}
				src := sr.Labeled[x.call]
				// Inside a reported chain: the same root cause.
				if c := containing(reported, src, tgt); c != nil {
					if !slices.Contains(c.Patterns, p.ID) {
						c.Patterns = append(c.Patterns, p.ID)
					}
					break
				}
				key := p.ID + "\x00" + tgt.Tool
				if seen[key] {
					break
				}
				seen[key] = true
				c := o.newChain(sr, []Labelled{src, tgt})
				c.Kind, c.Pattern = p.Type, p.ID
				c.severity, _ = policy.ParseSeverity(p.Risk)
				out = append(out, c)
				break
			}
		}
	}
	return out
}

func containing(cs []*Chain, a, b Labelled) *Chain {
	for _, c := range cs {
		if c.Blocked != nil {
			continue
		}
		var hasA, hasB bool
		for _, l := range c.Calls {
			hasA = hasA || l.SpanID == a.SpanID && l.seq == a.seq
			hasB = hasB || l.SpanID == b.SpanID && l.seq == b.seq
		}
		if hasA && hasB {
			return c
		}
	}
	return nil
}

// predict links a chain to the static finding that predicted it: the
// rule-of-two finding of the same agent whose legs list the chain's
// untrusted, private and action tools; for a pattern chain, the
// dangerous-chain finding of the agent listing the same two tools.
func (o Options) predict(c *Chain) {
	if o.Static == nil || c.AgentID == "" {
		return
	}
	for _, f := range o.Static.Findings {
		if f.AgentID != c.AgentID {
			continue
		}
		if c.Pattern == "" && f.Rule == "rule-of-two" && f.Legs != nil {
			if slices.Contains(f.Legs.Untrusted, c.Calls[c.legs[0]].Tool) && slices.Contains(f.Legs.Private, c.Calls[c.legs[1]].Tool) &&
				slices.Contains(f.Legs.Action, c.Calls[c.legs[2]].Tool) {
				c.Predicted = f.ID
				return
			}
		}
		if c.Pattern != "" && f.Rule == "dangerous-chain" {
			for _, ch := range append(f.Chains, f.Chain) {
				if len(ch) >= 2 && ch[0] == c.Calls[0].Tool && ch[len(ch)-1] == c.Calls[1].Tool {
					c.Predicted = f.ID
					return
				}
			}
		}
	}
}

func fingerprint(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return "ACG-" + strings.ToUpper(hex.EncodeToString(h[:])[:12])
}

var legWhat = [3]string{"untrusted input", "private data", "outward action"}

// finding is the chain as an observed-chain finding: one step per span.
func (c *Chain) finding() *policy.Finding {
	// The session and its spans identify the chain, not the file: the same
	// run exported as JSON and as protobuf is one finding.
	parts := []string{RuleObserved, c.Session, c.Kind}
	for _, l := range c.Calls {
		parts = append(parts, l.SpanID, l.Tool)
	}
	f := &policy.Finding{ID: fingerprint(parts...), Rule: RuleObserved, Severity: c.severity, Agent: c.Agent, AgentID: c.AgentID,
		Source: c.Calls[0].Tool, Sink: c.Calls[len(c.Calls)-1].Tool, Chain: c.tools(), ChainType: "observed",
		VulnerabilityType: c.capability(), InScope: []string{}, PredictedBy: c.Predicted}
	if f.Agent != "" {
		f.InScope = []string{f.Agent}
	}
	if c.Pattern == "" {
		f.Source, f.Sink = c.Calls[c.legs[0]].Tool, c.Calls[c.legs[2]].Tool
		f.Taxonomy = policy.TaxonomyFor("rule-of-two", c.action)
	} else {
		f.Taxonomy = policy.TaxonomyFor("dangerous-chain", c.action)
	}
	if f.Severity == "" {
		f.Severity = policy.High
	}
	line := c.Calls[0].Line
	if line < 1 {
		line = 1
	}
	f.Location = policy.Location{File: c.File, Line: line, Column: 1}
	var assumed []string
	for i, l := range c.Calls {
		what := strings.Join(l.Labels, ", ")
		if c.Pattern == "" {
			for k, li := range c.legs {
				if li == i {
					what = legWhat[k]
				}
			}
		}
		msg := fmt.Sprintf("span %s: %s — %s (decided by %s)", orStr(l.SpanID, "?"), l.Tool, what, l.DecidedBy)
		if l.Args != "" {
			msg += "; args: " + l.Args
		}
		if l.Result != "" {
			msg += "; result: " + l.Result
		}
		ln := l.Line
		if ln < 1 {
			ln = 1
		}
		f.Steps = append(f.Steps, policy.Step{File: c.File, Line: ln, Column: 1, Message: msg})
		if l.DecidedBy == string(effects.ByDefault) {
			assumed = append(assumed, l.Tool)
		}
	}
	f.DecidedBy = string(weakest(deciders(c.Calls)))
	f.Triage, f.TriageReason = policy.TriageConfirmed, "every call's labels are backed by code, catalog or alias evidence"
	if len(assumed) > 0 {
		f.Triage = policy.TriageNeedsReview
		f.TriageReason = "labels of " + strings.Join(slices.Compact(assumed), ", ") + " are assumed (fail closed): nothing in the tree or the catalog settles them"
	}
	session := "session " + c.Session
	if c.Pattern == "" {
		f.Message = fmt.Sprintf("Observed at runtime (%s): agent %s read untrusted input (%s), read private data (%s) and acted outward (%s) with no approval between",
			session, orStr(c.Agent, "?"), c.Calls[c.legs[0]].Tool, c.Calls[c.legs[1]].Tool, c.Calls[c.legs[2]].Tool)
	} else {
		f.Message = fmt.Sprintf("Observed at runtime (%s): agent %s ran %s then %s, the dangerous-chain pattern %s (%s), with no approval between",
			session, orStr(c.Agent, "?"), c.Calls[0].Tool, c.Calls[1].Tool, c.Pattern, c.Kind)
	}
	if c.Predicted != "" {
		f.Message += "; predicted by " + c.Predicted
	} else {
		f.Message += "; no static finding predicted it"
	}
	f.Remediation = "Put a human approval before " + f.Sink + " (the framework's approval gate), or take one leg away from the agent"
	if c.Predicted != "" {
		f.Remediation += "; the fix of " + c.Predicted + " closes this path"
	}
	c.Finding = f.ID
	return f
}

func deciders(ls []Labelled) []effects.Decider {
	var out []effects.Decider
	for _, l := range ls {
		out = append(out, effects.Decider(l.DecidedBy))
	}
	return out
}

func locOf(se *Session, line int) (l extract.Loc) {
	l.File = se.File
	l.Start.Line = int32(line)
	return l
}
