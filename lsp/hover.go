package lsp

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/effects"
	"github.com/acg-dev/acg/extract"
	"github.com/acg-dev/acg/internal/termsafe"
	"github.com/acg-dev/acg/policy"
)

// Hover shows, on a tool (its definition, or its name in an agent's tool
// list), its effect labels and how each was decided; on an agent, what it
// can reach and its findings.
func (s *Server) Hover(ctx context.Context, p *protocol.HoverParams) (*protocol.Hover, error) {
	f, rel := s.folderFor(p.TextDocument.URI)
	if f == nil {
		return nil, nil
	}
	a, err := f.await(ctx)
	if err != nil {
		return nil, protocol.ErrRequestCancelled
	}
	file := a.snap.File(rel)
	if file == nil || file.Src == nil || !f.current(rel, file.Src) {
		return nil, nil
	}
	m := newMapper(file.Src, s.capsNow().encoding)
	off := m.offset(p.Position)
	t := targetAt(a.res.Graph, file.Facts(), rel, off)
	if t == nil {
		return nil, nil
	}
	var md string
	switch {
	case t.server != nil:
		md = serverHover(a, t.server)
	case t.grant != nil:
		md = grantHover(a, t.use, t.grant)
	case t.tool != nil:
		md = toolHover(a, t.tool)
	default:
		st := s.settingsNow()
		md = agentHover(a, t.agent, st) + observedHover(f.observed(a, st.Traces), t.agent)
	}
	kind := protocol.MarkupKindMarkdown
	if !s.capsNow().markdownHover {
		kind = protocol.MarkupKindPlainText
	}
	r := m.rangeOf(int(t.loc.Start.Byte), int(t.loc.End.Byte))
	return &protocol.Hover{Contents: &protocol.MarkupContent{Kind: kind, Value: md}, Range: &r}, nil
}

// current reports whether the analysed text of a file is what the editor
// has (an open document with a syntax error keeps older facts).
func (f *folder) current(rel string, analysed []byte) bool {
	doc, open := f.ws.Document(rel)
	return !open || bytes.Equal(doc.Text, analysed)
}

type target struct {
	server *capgraph.Server
	grant  *capgraph.Grant
	use    capgraph.Use
	tool   *capgraph.Tool
	agent  *capgraph.Agent
	loc    extract.Loc
	rank   int // among targets of the same span: server, grant, tool, agent
}

// targetAt finds the innermost tool or agent at a byte offset of a file
// (facts, when not nil, are that file's).
func targetAt(g *capgraph.Graph, facts *extract.File, rel string, off int) *target {
	var cands []target
	add := func(l extract.Loc, t target) {
		if l.File == rel && int(l.Start.Byte) <= off && off <= int(l.End.Byte) && l.End.Byte > l.Start.Byte {
			t.loc = l
			cands = append(cands, t)
		}
	}
	for _, sv := range g.Servers {
		add(sv.Loc, target{server: sv})
	}
	for _, u := range g.Uses {
		for i := range u.Grants {
			add(u.Grants[i].Loc, target{grant: &u.Grants[i], use: u, rank: 1})
		}
		if t := g.Tools[u.Tool]; t != nil {
			add(u.Loc, target{tool: t, rank: 2})
		}
	}
	for _, t := range g.Tools {
		add(t.Loc, target{tool: t, rank: 2})
		if t.Src != nil {
			add(t.Src.NameLoc, target{tool: t, rank: 2})
			if t.Src.Decorator != nil {
				add(t.Src.Decorator.Loc, target{tool: t, rank: 2})
			}
		}
	}
	names := assignedNames(facts)
	for _, a := range g.Agents {
		add(a.Loc, target{agent: a, rank: 3})
		if a.Src != nil {
			add(a.Src.NameLoc, target{agent: a, rank: 3})
			// The variable an agent is assigned to is its declaration
			// (inbox_assistant = create_react_agent(...)): the agent's
			// span is only the call.
			for _, l := range names[assignment{a.Src.Var, int(a.Loc.Start.Byte), int(a.Loc.End.Byte)}] {
				add(l, target{agent: a, rank: 3})
			}
		}
	}
	if len(cands) == 0 {
		return nil
	}
	sort.SliceStable(cands, func(i, j int) bool {
		si, sj := cands[i].loc.End.Byte-cands[i].loc.Start.Byte, cands[j].loc.End.Byte-cands[j].loc.Start.Byte
		if si != sj {
			return si < sj
		}
		return cands[i].rank < cands[j].rank
	})
	return &cands[0]
}

// assignment is a variable and the span of the value assigned to it.
type assignment struct {
	name       string
	start, end int
}

// assignedNames maps the assignments of a file (module level and in every
// function) to where their targets are written.
func assignedNames(f *extract.File) map[assignment][]extract.Loc {
	if f == nil {
		return nil
	}
	out := map[assignment][]extract.Loc{}
	addScope := func(sc *extract.Scope) {
		if sc == nil {
			return
		}
		for name, bs := range sc.Bindings {
			for _, b := range bs {
				if b.Kind == extract.BindAssign && b.Value != nil {
					k := assignment{name, int(b.Value.Loc.Start.Byte), int(b.Value.Loc.End.Byte)}
					out[k] = append(out[k], b.Loc)
				}
			}
		}
	}
	addScope(f.Scope)
	for _, fn := range f.Funcs {
		addScope(fn.Scope)
	}
	return out
}

// serverHover shows an MCP server entry: how it was resolved and the
// tools it serves. Nothing of its command line, URL or environment.
func serverHover(a *analysis, sv *capgraph.Server) string {
	var b strings.Builder
	via := sv.Via
	switch {
	case via == "":
		via = "defined in code"
	case strings.HasPrefix(via, "code:"):
		via = "resolved to the server code in the tree (" + strings.TrimPrefix(via, "code:") + ")"
	case strings.HasPrefix(via, "catalog:"):
		via = "known server from the catalog (" + strings.TrimPrefix(via, "catalog:") + ")"
	case via == "unknown":
		via = "unknown: acg assumes it can do anything (fail closed)"
	}
	fmt.Fprintf(&b, "**%s** · MCP server · %s\n\n", md(sv.Name), md(via))
	var rows []string
	for _, t := range a.res.Graph.Tools {
		if t.Server != sv.ID {
			continue
		}
		rows = append(rows, fmt.Sprintf("| %s | %s | %s |", md(t.Name), strings.Join(labels(t.Effects), ", "), decidedBy(t.Effects)))
	}
	sort.Strings(rows)
	if len(rows) > 0 {
		b.WriteString("| tool | effects | decided by |\n|---|---|---|\n" + strings.Join(rows, "\n") + "\n")
	}
	// Which setting lets a tool run unasked, and in which file: with
	// --user-config / acg.userConfig it may be a user-level one (~).
	var unasked []string
	for _, u := range a.res.Graph.Uses {
		t := a.res.Graph.Tools[u.Tool]
		if t == nil || t.Server != sv.ID || len(u.Gates) > 0 || len(u.Grants) == 0 || u.Grants[0].Why == "" {
			continue
		}
		s := "- " + md(t.Name) + " runs without asking: " + md(u.Grants[0].Why)
		if l := u.Grants[0].Loc; l.Valid() {
			s += " (" + where(l) + ")"
		}
		unasked = append(unasked, s)
	}
	if len(unasked) > 0 {
		sort.Strings(unasked)
		b.WriteString("\n" + strings.Join(unasked, "\n") + "\n")
	}
	return b.String()
}

// grantHover shows a config entry that lets an agent use a tool without
// asking (a Claude Code allow rule, a permission mode).
func grantHover(a *analysis, u capgraph.Use, gr *capgraph.Grant) string {
	g := a.res.Graph
	agent, tool := u.Agent, u.Tool
	if x := g.Agents[u.Agent]; x != nil {
		agent = x.Name
	}
	var has []string
	if t := g.Tools[u.Tool]; t != nil {
		tool, has = t.Name, labels(t.Effects)
	}
	s := fmt.Sprintf("**permission** · lets %s use %s without asking\n\n%s\n", md(agent), md(tool), md(gr.Why))
	if len(has) > 0 {
		s += "\n" + md(tool) + ": " + strings.Join(has, ", ") + "\n"
	}
	if len(gr.Fix) > 0 {
		s += "\nQuick fix: move the rule to `ask`.\n"
	}
	return s
}

// labels lists the effect labels a tool has.
func labels(e *effects.Effects) []string {
	var out []string
	for _, l := range effects.Labels {
		if e.Has(l) {
			out = append(out, string(l))
		}
	}
	return out
}

// decidedBy summarises how a tool's present labels were decided.
func decidedBy(e *effects.Effects) string {
	seen := map[string]bool{}
	var out []string
	for _, l := range effects.Labels {
		if r := e.Get(l); r.Value && !seen[string(r.DecidedBy)] {
			seen[string(r.DecidedBy)] = true
			out = append(out, string(r.DecidedBy))
		}
	}
	return strings.Join(out, ", ")
}

func toolHover(a *analysis, t *capgraph.Tool) string {
	var b strings.Builder
	kind := string(t.Kind)
	if t.Src != nil && t.Src.Class != "" {
		kind += " " + t.Src.Class
	}
	fmt.Fprintf(&b, "**%s** · tool (%s %s) · `%s`\n\n", md(t.Name), t.Framework, kind, where(t.Loc))
	b.WriteString("| effect | | decided by | evidence |\n|---|---|---|---|\n")
	for _, l := range effects.Labels {
		r := t.Effects.Get(l)
		mark := "no"
		if r.Value {
			mark = "**yes**"
		}
		var ev []string
		for _, e := range r.Evidence {
			s := e.Detail
			if e.Loc.Valid() {
				s += " (" + where(e.Loc) + ")"
			}
			if e.Gated && e.GateLoc.Valid() {
				s += ", after the approval at " + where(e.GateLoc)
			}
			ev = append(ev, s)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", l, mark, r.DecidedBy, md(strings.Join(ev, "; ")))
	}
	for _, ap := range t.Approvals {
		what := "every call"
		if !ap.All {
			what = "some calls (" + ap.Detail + ")"
		}
		fmt.Fprintf(&b, "\nApproval: `%s` at %s gates %s.\n", ap.Kind, where(ap.Loc), what)
	}
	var users []string
	for _, u := range a.res.Graph.Uses {
		if u.Tool == t.ID {
			if ag := a.res.Graph.Agents[u.Agent]; ag != nil {
				gate := ""
				if len(u.Gates) > 0 {
					gate = ", behind " + u.Gates[0].Kind
				} else if len(u.Grants) > 0 && u.Grants[0].Why != "" {
					// Which setting lets it run unasked, and in which file
					// (a user-level one is named with ~).
					gate = ", unasked: " + md(u.Grants[0].Why)
					if l := u.Grants[0].Loc; l.Valid() {
						gate += " at " + where(l)
					}
				}
				users = append(users, fmt.Sprintf("%s (%s%s)", md(ag.Name), where(ag.Loc), gate))
			}
		}
	}
	if len(users) > 0 {
		b.WriteString("\nUsed by: " + strings.Join(users, ", ") + "\n")
	}
	return b.String()
}

func agentHover(a *analysis, ag *capgraph.Agent, st Settings) string {
	g := a.res.Graph
	var b strings.Builder
	ctor := ""
	if ag.Src != nil {
		ctor = ", " + ag.Src.Ctor
	}
	fmt.Fprintf(&b, "**%s** · agent (%s%s) · `%s`\n\n", md(ag.Name), ag.Framework, ctor, where(ag.Loc))
	var caps []string
	for _, c := range g.Capabilities(ag.ID) {
		caps = append(caps, string(c))
	}
	if len(caps) == 0 {
		caps = []string{"nothing"}
	}
	b.WriteString("Reaches: " + strings.Join(caps, ", ") + "\n\n")
	reach := g.Reach(ag.ID)
	if len(reach) > 0 {
		b.WriteString("| tool | effects | approval |\n|---|---|---|\n")
		for _, r := range reach {
			name := md(r.Tool.Name)
			if r.Indirect() {
				var via []string
				for _, id := range r.Via[1:] {
					if x := g.Agents[id]; x != nil {
						via = append(via, x.Name)
					}
				}
				name += " (via " + md(strings.Join(via, " → ")) + ")"
			}
			gate := "—"
			if r.Gate != nil {
				gate = r.Gate.Kind
			} else if slices.ContainsFunc(r.Tool.Effects.Caps(), effects.Capability.IsAction) {
				gate = "**none**"
			}
			fmt.Fprintf(&b, "| %s | %s | %s |\n", name, strings.Join(labels(r.Tool.Effects), ", "), gate)
		}
	}
	var fs []string
	for _, f := range a.findings(st) {
		if f.AgentID == ag.ID && st.shows(f) {
			s := fmt.Sprintf("- **%s** `%s`: %s", f.Severity, f.Rule, md(f.Message))
			if f.Triage == policy.TriageNeedsReview {
				s += "\n  Needs review: " + md(f.TriageReason)
			}
			if f.Remediation != "" {
				s += "\n  Fix: " + md(f.Remediation)
			}
			fs = append(fs, s)
		}
	}
	if len(fs) > 0 {
		b.WriteString("\nFindings:\n" + strings.Join(fs, "\n") + "\n")
	} else {
		b.WriteString("\nNo findings.\n")
	}
	return b.String()
}

func where(l extract.Loc) string {
	if !l.Valid() {
		return "?"
	}
	return fmt.Sprintf("%s:%d", termsafe.String(l.File), l.Start.Line)
}

// md makes text safe in a Markdown table cell and paragraph.
func md(s string) string {
	r := strings.NewReplacer("|", `\|`, "\n", " ", "`", "'", "<", "&lt;")
	return termsafe.String(r.Replace(s)) // names from the scanned files: no controls, no bidi
}
