package policy

import (
	"fmt"
	"sort"

	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/extract"
)

func init() {
	Register(Check{Name: "unrestricted-execution", Doc: "an unscoped shell permission: Claude Code may run any command (Bash or Bash(*) allowed, or permissions bypassed) without asking, or VS Code auto-approves a bare shell or every command line for its terminal tool", Run: unrestrictedExecution})
}

// unrestrictedExecution reports each config entry that lets an agent run
// any shell command without asking: an allow rule Bash or Bash(*), or a
// permission mode that skips prompts. Scoped rules (Bash(npm test:*)) are
// never reported here. One finding per entry, on the entry.
func unrestrictedExecution(in *Input) []*Finding {
	g := in.Graph
	type hit struct {
		g capgraph.Grant
		t *capgraph.Tool
		a *capgraph.Agent
		// unsure: a hook acg cannot read may still ask
		unsure string
	}
	byGrant := map[string]*hit{}
	var keys []string
	for _, u := range g.Uses {
		t := g.Tools[u.Tool]
		a := g.Agents[u.Agent]
		if t == nil || a == nil || t.Src == nil || t.Src.Extra[extract.ExtraShell] != "unscoped" || gatedUse(t, u) {
			continue
		}
		for _, gr := range u.Grants {
			if gr.Partial {
				continue // only some calls run without asking
			}
			key := fmt.Sprintf("%s\x00%d\x00%s", gr.Loc.File, gr.Loc.Start.Byte, gr.Why)
			h := byGrant[key]
			if h == nil {
				keys = append(keys, key)
				byGrant[key] = &hit{gr, t, a, u.Unsure}
				continue
			}
			// Report on the session agent rather than a subagent sharing the grant.
			if a.Src != nil && a.Src.Ctor == "claude-code" {
				h.a = a
			}
		}
	}
	sort.Strings(keys)
	var out []*Finding
	for _, k := range keys {
		h := byGrant[k]
		loc := h.g.Loc
		if !loc.Valid() {
			loc = h.a.Loc
		}
		f := &Finding{
			ID:   fingerprint("unrestricted-execution", h.a.ID, h.t.ID, h.g.Loc.File, h.g.Why),
			Rule: "unrestricted-execution", Severity: High, Agent: h.a.Name, AgentID: h.a.ID,
			Sink: h.t.Name, InScope: []string{h.a.Name}, Chain: []string{h.t.Name}, ChainType: "direct",
			VulnerabilityType: "unrestricted_execution", Location: LocationOf(loc), Loc: loc,
			DecidedBy: "config", Triage: TriageConfirmed, TriageReason: h.g.Why,
			SinkIDs: []string{h.t.ID}, Fix: h.g.Fix,
			Taxonomy: Taxonomy{OWASPLLM: []string{LLM06}, OWASPASI: []string{ASI02, ASI05}, ATLAS: []string{ATLASToolInvocation}},
		}
		markUnsure(f, h.unsure)
		f.RiskScore = RiskScore(High, "direct", g.Centrality(h.a.ID))
		f.Message = fmt.Sprintf("Agent %s may run any shell command without asking: %s", h.a.Name, h.g.Why)
		f.Steps = []Step{StepAt(loc, h.g.Why), StepAt(h.a.Loc, "agent "+h.a.Name+" is declared here")}
		f.Related = []Step{StepAt(h.t.Loc, h.t.Name+" runs any command the model writes")}
		f.Remediation = "Replace the unscoped Bash permission with scoped rules for the commands the project needs (Bash(npm test:*), Bash(git status)), or move it to permissions.ask, or deny Bash; run unattended sessions in a sandbox."
		if h.a.Framework == "vscode" {
			f.Remediation = "Replace the entry in \"chat.tools.terminal.autoApprove\" with command prefixes the project needs (\"npm test\": true, \"git status\": true) and never a bare shell or a regex matching every command line; leave the rest to VS Code's confirmation, or run unattended sessions in a sandbox."
		}
		out = append(out, f)
	}
	return out
}
