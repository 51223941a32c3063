package report

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/effects"
	"github.com/acg-dev/acg/internal/termsafe"
	"github.com/acg-dev/acg/policy"
)

// ChainEventTag starts every chain event line.
const ChainEventTag = "[CHAIN_DETECTED] "

// NoticeTag starts the line of a file not read in full: chains through it
// are missing from the events.
const NoticeTag = "[INPUT_INCOMPLETE] "

// Actions taken on a chain.
const (
	ActionReported   = "reported"
	ActionBlocked    = "blocked-by-approval"
	ActionSuppressed = "suppressed"
)

// ChainEvent is one analysed tool chain. InScope says whether policy and
// config allow the combined capability: false for a reported chain, true
// for one an approval blocks or the user suppressed.
type ChainEvent struct {
	TS                 string   `json:"ts"`
	ToolsSequence      []string `json:"tools_sequence"`
	EmergentCapability string   `json:"emergent_capability"`
	InScope            bool     `json:"in_scope"`
	ActionTaken        string   `json:"action_taken"`
	Agent              string   `json:"agent,omitempty"`
	Rule               string   `json:"rule,omitempty"`
	Severity           string   `json:"severity,omitempty"`
	FindingID          string   `json:"finding_id,omitempty"`
}

// ChainEvents lists the analysed chains: every finding's chain (reported
// or suppressed), and for each agent whose untrusted input, private data
// and outward actions are all present but every action is behind an
// approval, that blocked chain. All share one timestamp.
func ChainEvents(d *Document, o Options) []ChainEvent {
	ts := o.now().UTC().Format(time.RFC3339)
	var out []ChainEvent
	ruleOfTwo := map[string]bool{}
	for _, f := range d.all() {
		if f.Rule == policy.RuleInvalidSuppression {
			continue // a malformed comment is not a chain
		}
		if f.Rule == "rule-of-two" {
			ruleOfTwo[f.AgentID] = true
		}
		e := ChainEvent{TS: ts, ToolsSequence: nonNil(f.Chain), EmergentCapability: f.VulnerabilityType, ActionTaken: ActionReported,
			Agent: f.Agent, Rule: f.Rule, Severity: string(f.Severity), FindingID: f.ID}
		if e.EmergentCapability == "" {
			e.EmergentCapability = f.Rule
		}
		if f.Suppression != nil {
			e.InScope, e.ActionTaken = true, ActionSuppressed
		}
		out = append(out, e)
	}
	if g := d.graph; g != nil {
		for _, a := range d.Agents {
			if ruleOfTwo[a.ID] {
				continue
			}
			out = append(out, blockedChains(g, a, ts)...)
		}
	}
	sortBy(out, func(e ChainEvent) string {
		return strings.Join([]string{e.Agent, e.Rule, e.FindingID, strings.Join(e.ToolsSequence, ",")}, "\x00")
	})
	return out
}

// blockedChains finds the Rule of Two chains of an agent that approvals
// stop: one per gated action, when no action is ungated.
func blockedChains(g *capgraph.Graph, a Agent, ts string) []ChainEvent {
	var src, priv *capgraph.Tool
	type gated struct {
		t *capgraph.Tool
		l effects.Label
	}
	var actions []gated
	for _, r := range g.Reach(a.ID) {
		e := r.Tool.Effects
		if e.Has(effects.UntrustedInput) && src == nil {
			src = r.Tool
		}
		if e.Has(effects.ReadsPrivate) && (priv == nil || priv == src) {
			priv = r.Tool
		}
		for _, l := range []effects.Label{effects.NetworkEgress, effects.WritesState, effects.ExecutesCode} {
			if !e.Has(l) {
				continue
			}
			if !r.Gated(l) {
				return nil // an ungated action: rule-of-two reports it, or it was disabled
			}
			actions = append(actions, gated{r.Tool, l})
			break
		}
	}
	if src == nil || priv == nil {
		return nil
	}
	var out []ChainEvent
	for _, act := range actions {
		var seq []string
		for _, n := range []string{src.Name, priv.Name, act.t.Name} {
			if !slices.Contains(seq, n) {
				seq = append(seq, n)
			}
		}
		out = append(out, ChainEvent{TS: ts, ToolsSequence: seq, EmergentCapability: policy.VulnType(act.l), InScope: true,
			ActionTaken: ActionBlocked, Agent: a.Name, Rule: "rule-of-two"})
	}
	return out
}

func nonNil(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

// JSONL writes one `[CHAIN_DETECTED] {json}` line per chain event.
func JSONL(w io.Writer, d *Document, o Options) error {
	var b bytes.Buffer
	for _, e := range ChainEvents(d, o) {
		line, err := json.Marshal(e)
		if err != nil {
			return err
		}
		b.WriteString(ChainEventTag)
		b.Write(line)
		b.WriteByte('\n')
	}
	ts := o.now().UTC().Format(time.RFC3339)
	for _, n := range d.Notices {
		line, err := json.Marshal(struct {
			TS string `json:"ts"`
			Notice
		}{ts, n})
		if err != nil {
			return err
		}
		b.WriteString(NoticeTag)
		b.Write(line)
		b.WriteByte('\n')
	}
	_, err := w.Write(termsafe.JSON(b.Bytes()))
	return err
}
