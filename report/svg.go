package report

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/effects"
)

// The trust-boundary map: untrusted sources and private data in two zones
// on the left, outward actions on the right, agents in between; an edge
// per tool an agent uses, red where it is part of a reported finding,
// with a gate drawn where a human approval stands. The layout is a fixed
// function of the graph (no randomness, no font metrics): names are set
// in a monospace font whose width is known.

// zones, in drawing order.
const (
	zoneUntrusted = iota
	zonePrivate
	zoneAction
	zoneOther
	zoneCount
)

var zoneInfo = [zoneCount]struct {
	title, fill, stroke, ink string
	left                     bool
}{
	{"UNTRUSTED SOURCES", "#fff6e5", "#e3a33b", "#8a5a00", true},
	{"PRIVATE DATA", "#eaf1ff", "#6b8fd6", "#24488f", true},
	{"OUTWARD ACTIONS", "#f5ecff", "#9b72cf", "#5b2f91", false},
	{"NO EFFECTS", "#f4f4f4", "#b8b8b8", "#666666", false},
}

// capability badges on tool boxes.
var badgeInfo = []struct {
	cap, letter, fill string
}{
	{"UNTRUSTED_SOURCE", "U", "#e3a33b"},
	{"READ_PRIVATE", "P", "#6b8fd6"},
	{"EGRESS", "E", "#9b72cf"},
	{"WRITE_STATE", "W", "#9b72cf"},
	{"CODE_EXEC", "X", "#7a2f91"},
}

const (
	charW     = 7.3 // DejaVu Sans Mono at 12px: 0.602em
	toolH     = 26.0
	toolGap   = 8.0
	zoneHead  = 30.0
	zonePad   = 12.0
	zoneGap   = 26.0
	agentH    = 54.0
	agentGap  = 22.0
	colGap    = 150.0
	margin    = 24.0
	top       = 64.0
	badgeW    = 15.0
	maxName   = 34
	red       = "#d62828"
	edgeGray  = "#a3a8b0"
	gateGreen = "#1f8a4c"
)

type mapTool struct {
	t        *capgraph.Tool
	zone     int
	caps     []string
	assumed  bool // some label rests on the fail-closed default
	codeGate bool // an approval inside the tool guards all its actions
	bad      bool
	agents   []string
	x, y, w  float64
	order    float64
}

type mapAgent struct {
	a    Agent
	bad  bool
	x, y float64
	w, h float64
	want float64
}

type mapEdge struct {
	agent, tool string
	gated       bool
	bad         bool
}

// mapLink is an agent-to-agent relation: a handoff, a sub-agent, or a
// tool that runs another agent (drawn as a link, not as a tool).
type mapLink struct {
	from, to, label string
	gated, bad      bool
}

type svgMap struct {
	d      *Document
	port   map[[2]string]float64 // agent, tool → where the edge meets the agent
	tools  map[string]*mapTool
	agents map[string]*mapAgent
	edges  []mapEdge
	links  []mapLink
	zones  [zoneCount][]*mapTool
	zoneY  [zoneCount][2]float64 // top, bottom
	colX   [3]float64            // left column x, agents x, right column x
	toolW  float64
	agentW float64
	width  float64
	height float64
}

// SVG writes the trust-boundary map of the document's graph.
func SVG(w io.Writer, d *Document) error {
	m := newMap(d)
	m.layout()
	_, err := io.WriteString(w, m.render())
	return err
}

func newMap(d *Document) *svgMap {
	m := &svgMap{d: d, tools: map[string]*mapTool{}, agents: map[string]*mapAgent{}}
	g := d.graph
	if g == nil {
		return m
	}
	badTools, badAgents := map[string]bool{}, map[string]bool{}
	role := map[string]int{} // tool id → zone its role in a finding asks for
	badUse, badLink := map[[2]string]bool{}, map[[2]string]bool{}
	usesOf := map[string][]capgraph.Use{}
	for _, u := range g.Uses {
		usesOf[u.Agent] = append(usesOf[u.Agent], u)
	}
	rs := newReaches(g)
	for _, f := range d.Findings {
		p := rs.pathOf(f)
		for a := range p.agents {
			badAgents[a] = true
		}
		for t := range p.tools {
			badTools[t] = true
		}
		for a := range p.agents {
			for _, u := range usesOf[a] {
				if p.tools[u.Tool] {
					badUse[[2]string{u.Agent, u.Tool}] = true
				}
			}
		}
		for a := range p.agents {
			for b := range p.agents {
				badLink[[2]string{a, b}] = true
			}
		}
		for id := range p.tools {
			switch g.Tools[id].Name {
			case f.Source:
				role[id] = zoneUntrusted + 1
			case f.Sink:
				if role[id] == 0 {
					role[id] = zoneAction + 1
				}
			}
		}
	}
	for _, t := range g.Tools {
		if t.Agent != "" {
			continue // runs an agent: a link
		}
		mt := &mapTool{t: t, bad: badTools[t.ID]}
		for _, c := range t.Effects.Caps() {
			mt.caps = append(mt.caps, string(c))
		}
		for _, l := range effects.Labels {
			if t.Effects.Has(l) && t.Effects.Get(l).DecidedBy == effects.ByDefault {
				mt.assumed = true
			}
		}
		mt.codeGate = codeGated(t)
		mt.zone = zoneOf(mt.caps)
		if r := role[t.ID]; r > 0 {
			mt.zone = r - 1
		}
		m.tools[t.ID] = mt
	}
	for _, a := range d.Agents {
		m.agents[a.ID] = &mapAgent{a: a, bad: badAgents[a.ID]}
	}
	for _, u := range g.Uses {
		t := g.Tools[u.Tool]
		_, toolGate := t.Gated()
		gated := len(u.Gates) > 0 || toolGate
		if t.Agent != "" {
			if m.agents[t.Agent] != nil {
				m.links = append(m.links, mapLink{from: u.Agent, to: t.Agent, label: "as tool " + t.Name, gated: gated,
					bad: badLink[[2]string{u.Agent, t.Agent}]})
			}
			continue
		}
		m.edges = append(m.edges, mapEdge{agent: u.Agent, tool: u.Tool, gated: gated, bad: badUse[[2]string{u.Agent, u.Tool}]})
		m.tools[u.Tool].agents = append(m.tools[u.Tool].agents, u.Agent)
	}
	// An agent is tall enough to give each edge on a side its own port.
	perSide := map[[2]string]int{}
	for _, e := range m.edges {
		perSide[[2]string{e.agent, fmt.Sprint(zoneInfo[m.tools[e.tool].zone].left)}]++
	}
	for id, a := range m.agents {
		a.h = max(agentH, 9*float64(max(perSide[[2]string{id, "true"}], perSide[[2]string{id, "false"}]))+16)
	}
	for _, l := range g.Links {
		m.links = append(m.links, mapLink{from: l.From, to: l.To, label: string(l.Kind), bad: badLink[[2]string{l.From, l.To}]})
	}
	sortBy(m.links, func(l mapLink) string { return l.from + "\x00" + l.to + "\x00" + l.label })
	// One arc per pair of agents, naming every relation between them.
	var merged []mapLink
	for _, l := range m.links {
		if n := len(merged); n > 0 && merged[n-1].from == l.from && merged[n-1].to == l.to {
			last := &merged[n-1]
			last.label += ", " + l.label
			last.gated = last.gated && l.gated
			last.bad = last.bad || l.bad
			continue
		}
		merged = append(merged, l)
	}
	m.links = merged
	return m
}

// codeGated: the tool has actions and an approval in its own code stands
// before every one of them.
func codeGated(t *capgraph.Tool) bool {
	any := false
	for _, l := range []effects.Label{effects.NetworkEgress, effects.WritesState, effects.ExecutesCode} {
		if t.Effects.Has(l) {
			if !t.Effects.Get(l).Gated() {
				return false
			}
			any = true
		}
	}
	return any
}

// zoneOf places a tool by its capabilities: code execution is an action
// whatever else it gives; otherwise input before private data before
// actions. A tool's role in a finding (its source or sink) overrides this.
func zoneOf(caps []string) int {
	has := map[string]bool{}
	for _, c := range caps {
		has[c] = true
	}
	action := has["EGRESS"] || has["WRITE_STATE"] || has["CODE_EXEC"]
	switch {
	case has["CODE_EXEC"]:
		return zoneAction
	case has["UNTRUSTED_SOURCE"]:
		return zoneUntrusted
	case has["READ_PRIVATE"]:
		return zonePrivate
	case action:
		return zoneAction
	}
	return zoneOther
}

func shortName(s string) string {
	r := []rune(s)
	if len(r) > maxName {
		return string(r[:maxName-1]) + "…"
	}
	return s
}

func textW(s string) float64 { return float64(len([]rune(s))) * charW }

func (m *svgMap) layout() {
	ids := sortedToolIDs(m.tools)
	m.toolW = 190
	for _, id := range ids {
		t := m.tools[id]
		w := textW(shortName(t.t.Name)) + 20 + float64(len(t.caps))*badgeW + 6
		m.toolW = max(m.toolW, w)
	}
	for _, z := range zoneInfo {
		m.toolW = max(m.toolW, float64(len(z.title))*7.5+20)
	}
	m.agentW = 170
	for _, a := range m.agents {
		m.agentW = max(m.agentW, textW(shortName(a.a.Name))+28, float64(len([]rune(agentSub(a.a))))*5.8+28)
	}
	colW := m.toolW + 2*zonePad
	m.colX = [3]float64{margin, margin + colW + colGap, margin + colW + colGap + m.agentW + colGap}
	m.width = m.colX[2] + colW + margin
	for _, id := range ids {
		t := m.tools[id]
		m.zones[t.zone] = append(m.zones[t.zone], t)
	}
	// Two sweeps: place tools, put agents at the mean height of their
	// tools, then order each zone's tools by the mean height of their
	// agents, which uncrosses most edges.
	m.placeTools()
	for i := 0; i < 2; i++ {
		m.placeAgents()
		for z := range m.zones {
			for _, t := range m.zones[z] {
				t.order = 1e9
				if len(t.agents) > 0 {
					sum := 0.0
					for _, a := range t.agents {
						sum += m.agents[a].y
					}
					t.order = sum / float64(len(t.agents))
				}
			}
			sort.SliceStable(m.zones[z], func(i, j int) bool {
				a, b := m.zones[z][i], m.zones[z][j]
				if a.order != b.order {
					return a.order < b.order
				}
				return a.t.ID < b.t.ID
			})
		}
		m.placeTools()
	}
	m.placeAgents()
	m.assignPorts()
	bottom := top
	for z := range m.zones {
		bottom = max(bottom, m.zoneY[z][1])
	}
	for _, a := range m.agents {
		bottom = max(bottom, a.y+a.h)
	}
	m.height = bottom + 40 + m.footerHeight()
}

func sortedToolIDs(ts map[string]*mapTool) []string {
	ids := make([]string, 0, len(ts))
	for id := range ts {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// placeTools stacks each column's zones; an empty zone of the three
// trust zones is still drawn (its absence is information).
func (m *svgMap) placeTools() {
	for _, col := range [][]int{{zoneUntrusted, zonePrivate}, {zoneAction, zoneOther}} {
		y := top
		for _, z := range col {
			if z == zoneOther && len(m.zones[z]) == 0 {
				continue
			}
			x := m.colX[0]
			if !zoneInfo[z].left {
				x = m.colX[2]
			}
			m.zoneY[z][0] = y
			y += zoneHead
			if len(m.zones[z]) == 0 {
				y += toolH // room for "none"
			}
			for _, t := range m.zones[z] {
				t.x, t.y, t.w = x+zonePad, y, m.toolW
				y += toolH + toolGap
			}
			y += zonePad - toolGap
			m.zoneY[z][1] = y
			y += zoneGap
		}
	}
}

// placeAgents puts each agent at the mean height of its tools, in that
// order, pushed apart so that none overlap.
func (m *svgMap) placeAgents() {
	var as []*mapAgent
	for _, a := range m.agents {
		as = append(as, a)
	}
	for _, a := range as {
		sum, n := 0.0, 0.0
		for _, e := range m.edges {
			if e.agent == a.a.ID {
				t := m.tools[e.tool]
				sum += t.y + toolH/2
				n++
			}
		}
		a.want = top + zoneHead
		if n > 0 {
			a.want = sum/n - a.h/2
		}
	}
	sort.Slice(as, func(i, j int) bool {
		if as[i].want != as[j].want {
			return as[i].want < as[j].want
		}
		return as[i].a.ID < as[j].a.ID
	})
	y := top + zoneHead
	for _, a := range as {
		a.y = max(a.want, y)
		a.x = m.colX[1]
		a.w = m.agentW
		y = a.y + a.h + agentGap
	}
}

// assignPorts spreads the edges meeting an agent along its side, in the
// order of their tools' heights, so that they neither cross nor pile up
// into one arrowhead.
func (m *svgMap) assignPorts() {
	m.port = map[[2]string]float64{}
	side := map[[2]string][]mapEdge{} // agent id, "L" or "R"
	for _, e := range m.edges {
		k := [2]string{e.agent, "R"}
		if zoneInfo[m.tools[e.tool].zone].left {
			k[1] = "L"
		}
		side[k] = append(side[k], e)
	}
	for k, es := range side {
		sort.Slice(es, func(i, j int) bool {
			ti, tj := m.tools[es[i].tool], m.tools[es[j].tool]
			if ti.y != tj.y {
				return ti.y < tj.y
			}
			return ti.t.ID < tj.t.ID
		})
		a := m.agents[k[0]]
		lo, hi := a.y+8, a.y+a.h-8
		for i, e := range es {
			y := (lo + hi) / 2
			if len(es) > 1 {
				y = lo + (hi-lo)*float64(i)/float64(len(es)-1)
			}
			m.port[[2]string{e.agent, e.tool}] = y
		}
	}
}

func (m *svgMap) footerHeight() float64 {
	return 86 + 20*float64(len(m.d.Findings)+len(m.d.Suppressed))
}

// agentSub is the line under an agent's name: framework and reach.
func agentSub(a Agent) string { return a.Framework + " · " + capsLine(a.Capabilities) }

func capsLine(caps []string) string {
	var parts []string
	for _, c := range caps {
		parts = append(parts, shortCaps[c])
	}
	if len(parts) == 0 {
		return "no capabilities"
	}
	return strings.Join(parts, " · ")
}

var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;")

func xmlEsc(s string) string { return xmlEscaper.Replace(s) }

func f1(v float64) string {
	return strings.TrimSuffix(strings.TrimSuffix(fmt.Sprintf("%.1f", v), "0"), ".")
}

func (m *svgMap) render() string {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="DejaVu Sans, Verdana, Arial, sans-serif" font-size="12">`+"\n",
		f1(m.width), f1(m.height), f1(m.width), f1(m.height))
	b.WriteString(`<title>acg trust-boundary map</title>
<defs>
<marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="` + edgeGray + `"/></marker>
<marker id="arrow-red" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="11" markerHeight="11" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="` + red + `"/></marker>
</defs>
<rect width="100%" height="100%" fill="#ffffff"/>
`)
	fmt.Fprintf(&b, `<text x="%s" y="34" font-size="18" font-weight="bold" fill="#222">acg trust-boundary map</text>`+"\n", f1(margin))
	fmt.Fprintf(&b, `<text x="%s" y="52" fill="#555">%s · %s · %s</text>`+"\n", f1(margin), plural(len(m.d.Agents), "agent"), plural(len(m.d.Tools), "tool"), findingsLine(m.d))
	for z := 0; z < zoneCount; z++ {
		m.renderZone(&b, z)
	}
	// Gray edges first, the violating path on top.
	for _, bad := range []bool{false, true} {
		for _, e := range m.edges {
			if e.bad == bad {
				m.renderEdge(&b, e)
			}
		}
		for i, l := range m.links {
			if l.bad == bad {
				m.renderLink(&b, l, i)
			}
		}
	}
	for _, e := range m.edges {
		if e.gated {
			x, y := m.gatePoint(e)
			renderGate(&b, x, y, "human approval before "+m.tools[e.tool].t.Name+" (for "+m.agents[e.agent].a.Name+")")
		}
	}
	for _, id := range sortedToolIDs(m.tools) {
		m.renderTool(&b, m.tools[id])
	}
	ids := make([]string, 0, len(m.agents))
	for id := range m.agents {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		m.renderAgent(&b, m.agents[id])
	}
	m.renderFooter(&b)
	b.WriteString("</svg>\n")
	return b.String()
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func findingsLine(d *Document) string {
	s := "no findings"
	if n := len(d.Findings); n == 1 {
		s = "1 finding"
	} else if n > 1 {
		s = fmt.Sprintf("%d findings", n)
	}
	if n := len(d.Suppressed); n > 0 {
		s += fmt.Sprintf(" (%d suppressed)", n)
	}
	return s
}

func (m *svgMap) renderZone(b *strings.Builder, z int) {
	if z == zoneOther && len(m.zones[z]) == 0 {
		return
	}
	zi := zoneInfo[z]
	x := m.colX[0]
	if !zi.left {
		x = m.colX[2]
	}
	y0, y1 := m.zoneY[z][0], m.zoneY[z][1]
	fmt.Fprintf(b, `<g class="zone"><rect x="%s" y="%s" width="%s" height="%s" rx="10" fill="%s" stroke="%s" stroke-width="1.5"/>`,
		f1(x), f1(y0), f1(m.toolW+2*zonePad), f1(y1-y0), zi.fill, zi.stroke)
	fmt.Fprintf(b, `<text x="%s" y="%s" font-weight="bold" font-size="13" fill="%s" letter-spacing="0.5">%s</text>`,
		f1(x+zonePad), f1(y0+20), zi.ink, zi.title)
	if len(m.zones[z]) == 0 {
		fmt.Fprintf(b, `<text x="%s" y="%s" font-style="italic" fill="#888">none</text>`, f1(x+zonePad), f1(y0+zoneHead+16))
	}
	b.WriteString("</g>\n")
}

// toolPort is where edges meet a tool: the side facing the agents.
func (m *svgMap) toolPort(t *mapTool) (float64, float64) {
	if zoneInfo[t.zone].left {
		return t.x + t.w, t.y + toolH/2
	}
	return t.x, t.y + toolH/2
}

func (m *svgMap) edgePath(e mapEdge) (x1, y1, x2, y2 float64) {
	a, t := m.agents[e.agent], m.tools[e.tool]
	tx, ty := m.toolPort(t)
	ay := m.port[[2]string{e.agent, e.tool}]
	if zoneInfo[t.zone].left {
		return tx, ty, a.x, ay // data flows into the agent
	}
	return a.x + a.w, ay, tx, ty // the agent acts outward
}

func (m *svgMap) renderEdge(b *strings.Builder, e mapEdge) {
	x1, y1, x2, y2 := m.edgePath(e)
	c := (x2 - x1) / 2
	stroke, width, marker := edgeGray, "1.3", "arrow"
	if e.bad {
		stroke, width, marker = red, "2.8", "arrow-red"
	}
	fmt.Fprintf(b, `<path class="edge" d="M%s,%s C%s,%s %s,%s %s,%s" fill="none" stroke="%s" stroke-width="%s" marker-end="url(#%s)"><title>%s uses %s</title></path>`+"\n",
		f1(x1), f1(y1), f1(x1+c), f1(y1), f1(x2-c), f1(y2), f1(x2), f1(y2), stroke, width, marker,
		xmlEsc(m.agents[e.agent].a.Name), xmlEsc(m.tools[e.tool].t.Name))
}

// gatePoint is on the edge, near the tool: the approval stands between
// the agent and the action.
func (m *svgMap) gatePoint(e mapEdge) (float64, float64) {
	x1, y1, x2, y2 := m.edgePath(e)
	c := (x2 - x1) / 2
	tt := 0.78
	if zoneInfo[m.tools[e.tool].zone].left {
		tt = 0.22
	}
	return bezier(x1, x1+c, x2-c, x2, tt), bezier(y1, y1, y2, y2, tt)
}

func bezier(p0, p1, p2, p3, t float64) float64 {
	u := 1 - t
	return u*u*u*p0 + 3*u*u*t*p1 + 3*u*t*t*p2 + t*t*t*p3
}

// renderGate draws an approval as a gate: two posts and a closed bar.
func renderGate(b *strings.Builder, x, y float64, title string) {
	fmt.Fprintf(b, `<g class="gate"><title>%s</title><rect x="%s" y="%s" width="22" height="20" rx="3" fill="#ffffff" stroke="%s" stroke-width="1.5"/>`+
		`<rect x="%s" y="%s" width="3" height="14" fill="%s"/><rect x="%s" y="%s" width="3" height="14" fill="%s"/>`+
		`<rect x="%s" y="%s" width="14" height="3" fill="%s"/><rect x="%s" y="%s" width="14" height="3" fill="%s"/></g>`+"\n",
		xmlEsc(title), f1(x-11), f1(y-10), gateGreen,
		f1(x-8), f1(y-7), gateGreen, f1(x+5), f1(y-7), gateGreen,
		f1(x-7), f1(y-4), gateGreen, f1(x-7), f1(y+2), gateGreen)
}

// renderLink draws an agent-to-agent relation as a dashed arc on the
// right of the agent column; the i-th link bends a little further out so
// that links between the same agents stay apart.
func (m *svgMap) renderLink(b *strings.Builder, l mapLink, i int) {
	from, to := m.agents[l.from], m.agents[l.to]
	if from == nil || to == nil {
		return
	}
	x := from.x + from.w
	y1, y2 := from.y+from.h*0.7, to.y+to.h*0.3
	if to.y < from.y {
		y1, y2 = from.y+from.h*0.3, to.y+to.h*0.7
	}
	bend := 34 + 0.15*math.Abs(y2-y1) + 10*float64(i%4)
	stroke, width, marker := "#5f6368", "1.6", "arrow"
	if l.bad {
		stroke, width, marker = red, "2.8", "arrow-red"
	}
	fmt.Fprintf(b, `<path class="link" d="M%s,%s C%s,%s %s,%s %s,%s" fill="none" stroke="%s" stroke-width="%s" stroke-dasharray="7 4" marker-end="url(#%s)"><title>%s: %s → %s</title></path>`+"\n",
		f1(x), f1(y1), f1(x+bend), f1(y1), f1(x+bend), f1(y2), f1(x), f1(y2), stroke, width, marker,
		xmlEsc(l.label), xmlEsc(from.a.Name), xmlEsc(to.a.Name))
	mx, my := x+bend*0.75, (y1+y2)/2
	fmt.Fprintf(b, `<text x="%s" y="%s" font-size="10" fill="%s" stroke="#ffffff" stroke-width="3" paint-order="stroke">%s</text>`+"\n",
		f1(mx+4), f1(my+3), stroke, xmlEsc(l.label))
	if l.gated {
		renderGate(b, mx, my, "human approval before "+from.a.Name+" runs "+to.a.Name)
	}
}

func (m *svgMap) renderTool(b *strings.Builder, t *mapTool) {
	stroke, sw := "#8a8f98", "1.2"
	if t.bad {
		stroke, sw = red, "2.5"
	}
	dash := ""
	if t.assumed {
		dash = ` stroke-dasharray="4 3"`
	}
	var tip []string
	tip = append(tip, t.t.Name+" ("+t.t.ID+")")
	for _, l := range effects.Labels {
		if t.t.Effects.Has(l) {
			tip = append(tip, fmt.Sprintf("%s [%s]", l, t.t.Effects.Get(l).DecidedBy))
		}
	}
	if t.t.Server != "" {
		tip = append(tip, "MCP server "+t.t.Server)
	}
	fmt.Fprintf(b, `<g class="tool"><title>%s</title><rect x="%s" y="%s" width="%s" height="%s" rx="5" fill="#ffffff" stroke="%s" stroke-width="%s"%s/>`,
		xmlEsc(strings.Join(tip, "\n")), f1(t.x), f1(t.y), f1(t.w), f1(toolH), stroke, sw, dash)
	fmt.Fprintf(b, `<text x="%s" y="%s" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" fill="#1d1d1f">%s</text>`,
		f1(t.x+8), f1(t.y+17), xmlEsc(shortName(t.t.Name)))
	bx := t.x + t.w - 6 - float64(len(t.caps))*badgeW
	for _, bi := range badgeInfo {
		for _, c := range t.caps {
			if c == bi.cap {
				fmt.Fprintf(b, `<rect x="%s" y="%s" width="13" height="14" rx="3" fill="%s"/><text x="%s" y="%s" font-size="10" font-weight="bold" fill="#fff" text-anchor="middle">%s</text>`,
					f1(bx), f1(t.y+6), bi.fill, f1(bx+6.5), f1(t.y+17), bi.letter)
				bx += badgeW
			}
		}
	}
	b.WriteString("</g>\n")
	if t.codeGate {
		x, y := m.toolPort(t)
		if zoneInfo[t.zone].left {
			x += 13
		} else {
			x -= 13
		}
		renderGate(b, x, y, "human approval inside "+t.t.Name+" before its action")
	}
}

func (m *svgMap) renderAgent(b *strings.Builder, a *mapAgent) {
	stroke, sw, fill := "#3b3f45", "1.5", "#f7f8fa"
	if a.bad {
		stroke, sw, fill = red, "3", "#fff1f1"
	}
	fmt.Fprintf(b, `<g class="agent"><title>agent %s (%s) %s:%d</title><rect x="%s" y="%s" width="%s" height="%s" rx="12" fill="%s" stroke="%s" stroke-width="%s"/>`,
		xmlEsc(a.a.Name), xmlEsc(a.a.Framework), xmlEsc(a.a.File), a.a.Line, f1(a.x), f1(a.y), f1(a.w), f1(a.h), fill, stroke, sw)
	fmt.Fprintf(b, `<text x="%s" y="%s" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="13" font-weight="bold" fill="#111" text-anchor="middle">%s</text>`,
		f1(a.x+a.w/2), f1(a.y+a.h/2-7), xmlEsc(shortName(a.a.Name)))
	fmt.Fprintf(b, `<text x="%s" y="%s" font-size="10" fill="#555" text-anchor="middle">%s</text>`,
		f1(a.x+a.w/2), f1(a.y+a.h/2+9), xmlEsc(agentSub(a.a)))
	fmt.Fprintf(b, `<text x="%s" y="%s" font-size="9" fill="#777" text-anchor="middle">AGENT</text></g>`+"\n", f1(a.x+a.w/2), f1(a.y+a.h/2+21))
}

func (m *svgMap) renderFooter(b *strings.Builder) {
	y := m.height - m.footerHeight() + 10
	fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#ddd"/>`+"\n", f1(margin), f1(y), f1(m.width-margin), f1(y))
	y += 24
	x := margin
	fmt.Fprintf(b, `<path d="M%s,%s h36" stroke="%s" stroke-width="2.8" marker-end="url(#arrow-red)"/><text x="%s" y="%s">violating path</text>`+"\n",
		f1(x), f1(y-4), red, f1(x+44), f1(y))
	x += 150
	renderGate(b, x+11, y-4, "human approval")
	fmt.Fprintf(b, `<text x="%s" y="%s">human approval</text>`+"\n", f1(x+28), f1(y))
	x += 150
	fmt.Fprintf(b, `<rect x="%s" y="%s" width="30" height="14" rx="3" fill="#fff" stroke="#8a8f98" stroke-dasharray="4 3"/><text x="%s" y="%s">assumed (fail closed)</text>`+"\n",
		f1(x), f1(y-11), f1(x+38), f1(y))
	x += 190
	for _, bi := range badgeInfo {
		fmt.Fprintf(b, `<rect x="%s" y="%s" width="13" height="14" rx="3" fill="%s"/><text x="%s" y="%s" font-size="10" font-weight="bold" fill="#fff" text-anchor="middle">%s</text><text x="%s" y="%s">%s</text>`+"\n",
			f1(x), f1(y-11), bi.fill, f1(x+6.5), f1(y), bi.letter, f1(x+17), f1(y), shortCaps[bi.cap])
		x += 30 + float64(len(shortCaps[bi.cap]))*7
	}
	y += 30
	for _, f := range m.d.all() {
		color, note := red, ""
		if f.Suppression != nil {
			color, note = "#888", " — suppressed: "+f.Suppression.Justification
		}
		line := fmt.Sprintf("%s %s [%s] %s", strings.ToUpper(string(f.Severity)), f.Rule, f.ID, f.Agent)
		if len(f.Chain) > 0 {
			line += ": " + strings.Join(f.Chain, " → ")
		}
		fmt.Fprintf(b, `<text x="%s" y="%s" fill="%s">● %s%s</text>`+"\n", f1(margin), f1(y), color, xmlEsc(line), xmlEsc(note))
		y += 20
	}
}
