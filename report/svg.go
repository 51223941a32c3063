package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/effects"
	"github.com/acg-dev/acg/policy"
)

// The trust-boundary map: one row (lane) per agent, and three zone
// columns across all rows: UNTRUSTED SOURCES, PRIVATE DATA, OUTWARD
// ACTIONS. A tool is drawn in the zone of each of its own effects, so a
// tool that both reads private data and returns third-party content
// appears in two columns of its agent's row. The tools and agents of a
// reported finding are red; a gate stands before a tool a human approval
// guards; the agent's findings are listed under its row with their
// file:line.
//
// The map stays readable on a large scan: rows come most severe first,
// past smallMap agents each cell shows at most a few tools and each row
// a few finding lines (the rest summarised as "and N more", listed in a
// tooltip), and rows stop at a height budget, after which the remaining
// agents are listed by name and file. Names are never cut silently: a
// label too long for its box ends in an ellipsis and its full text is in
// a <title> tooltip; tools of a row with the same name are told apart by
// their file.
//
// Every string from a scanned file goes through svgClean (control
// characters shown escaped, invalid UTF-8 replaced) and xml.EscapeText,
// so that the map is well-formed XML whatever the repository holds.
//
// The layout is a fixed function of the document (no randomness, no font
// metrics): labels are set in a monospace font whose width is known.

// zones, in column order.
const (
	zoneUntrusted = iota
	zonePrivate
	zoneAction
	zoneCount
)

var zoneInfo = [zoneCount]struct {
	key, title, sub, fill, stroke, ink string
}{
	{"untrusted", "UNTRUSTED SOURCES", "untrusted_input", "#fff6e5", "#e3a33b", "#8a5a00"},
	{"private", "PRIVATE DATA", "reads_private", "#eaf1ff", "#6b8fd6", "#24488f"},
	{"action", "OUTWARD ACTIONS", "egress · writes · exec", "#f5ecff", "#9b72cf", "#5b2f91"},
}

// zoneLabels are the effect labels that put a tool in each zone.
var zoneLabels = [zoneCount][]effects.Label{
	{effects.UntrustedInput},
	{effects.ReadsPrivate},
	{effects.NetworkEgress, effects.WritesState, effects.ExecutesCode},
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
	monoW      = 0.602 // DejaVu Sans Mono advance, in em
	margin     = 24.0
	top        = 78.0 // below the title, the counts and the convention line
	colHead    = 44.0 // zone column headers
	agentW     = 280.0
	colGap     = 12.0
	minZoneW   = 230.0
	maxZoneW   = 330.0
	cellPad    = 8.0
	gateGutter = 18.0 // left of each tool box, where its gate stands
	toolH      = 22.0
	toolPitch  = 28.0
	badgeW     = 15.0
	labelPad   = 22.0 // a tool box's width beside its label and badges
	lanePad    = 10.0
	agentMinH  = 58.0
	noteH      = 16.0
	// A map of up to smallMap agents is drawn with fullLimits, a larger one
	// with compactLimits.
	smallMap   = 8
	laneBudget = 2400 // px of rows; the agents past it are listed by name
	listCap    = 12   // lines of that list
	looseCap   = 6    // lines of findings of no agent
	red        = "#d62828"
	gateGreen  = "#1f8a4c"
	mono       = "DejaVu Sans Mono, Menlo, Consolas, monospace"
)

type mapTool struct {
	t        *capgraph.Tool
	caps     []string
	zones    []int
	assumed  bool // some label rests on the fail-closed default
	codeGate bool // an approval inside the tool guards all its actions
}

// laneTool is a tool as one agent uses it.
type laneTool struct {
	*mapTool
	label string // its name, with its file where another tool of the row has the same name
	bad   bool   // a reported finding's path runs through this use
	gate  string // what the approval before it is, if one stands
}

type mapLink struct {
	to, label  string
	gated, bad bool
}

type lane struct {
	a        Agent
	file     string // the agent's file, shortened where that still tells it apart
	fileTail string // as much of its end as tells it apart
	bad      bool
	cells    [zoneCount][]laneTool
	inert    []laneTool // tools with no effect
	findings []*policy.Finding
	links    []mapLink
	notes    []note
	rows     int
	y, h     float64
}

// note is a line under a row: a finding, a link, a summary.
type note struct {
	text, tip, color, class string
	gate                    string
}

// limits are how much of a row is drawn.
type limits struct{ cells, notes, links int }

var (
	fullLimits    = limits{cells: 6, notes: 6, links: 3}
	compactLimits = limits{cells: 3, notes: 3, links: 1}
)

type svgMap struct {
	d      *Document
	lim    limits
	lanes  []*lane // drawn
	rest   []*lane // past the budget: listed by name
	loose  []*policy.Finding
	zoneW  float64
	colX   [zoneCount]float64
	width  float64
	height float64
	listY  float64
	footY  float64
	list   []string
}

// SVG writes the trust-boundary map of the document's graph.
func SVG(w io.Writer, d *Document) error {
	m := newMap(d)
	m.layout()
	_, err := io.WriteString(w, m.render())
	return err
}

func newMap(d *Document) *svgMap {
	m := &svgMap{d: d, lim: fullLimits}
	if len(d.Agents) > smallMap {
		m.lim = compactLimits
	}
	byAgent := map[string]*lane{}
	for _, a := range d.Agents {
		l := &lane{a: a, file: a.File}
		byAgent[a.ID] = l
		m.lanes = append(m.lanes, l)
	}
	shortFiles(m.lanes)
	for _, f := range d.all() {
		if l := byAgent[f.AgentID]; l != nil {
			l.findings = append(l.findings, f)
		} else {
			m.loose = append(m.loose, f)
		}
	}
	if g := d.graph; g != nil {
		tools := mapTools(g)
		usesOf := map[string][]capgraph.Use{}
		for _, u := range g.Uses {
			usesOf[u.Agent] = append(usesOf[u.Agent], u)
		}
		bad := findingPaths(g, d.Findings, usesOf)
		for _, l := range m.lanes {
			l.fill(g, tools, usesOf[l.a.ID], bad)
		}
	}
	for _, l := range m.lanes {
		l.notes = m.notesOf(l, byAgent)
	}
	// Most severe first; among equals, by file so that the agents of one
	// project stay together.
	sort.SliceStable(m.lanes, func(i, j int) bool {
		a, b := m.lanes[i], m.lanes[j]
		if ra, rb := worst(a.findings), worst(b.findings); ra != rb {
			return ra > rb
		}
		if na, nb := reported(a.findings), reported(b.findings); na != nb {
			return na > nb
		}
		if a.bad != b.bad {
			return a.bad // on another agent's finding's path
		}
		if a.a.File != b.a.File {
			return a.a.File < b.a.File
		}
		if a.a.Name != b.a.Name {
			return a.a.Name < b.a.Name
		}
		return a.a.ID < b.a.ID
	})
	return m
}

// mapTools are the graph's tools as drawn, by id; a tool that runs an
// agent is drawn as a link instead.
func mapTools(g *capgraph.Graph) map[string]*mapTool {
	tools := map[string]*mapTool{}
	for _, t := range g.Tools {
		if t.Agent != "" {
			continue
		}
		mt := &mapTool{t: t, codeGate: codeGated(t), zones: zonesOf(t.Effects)}
		for _, c := range t.Effects.Caps() {
			mt.caps = append(mt.caps, string(c))
		}
		for _, l := range effects.Labels {
			if t.Effects.Has(l) && t.Effects.Get(l).DecidedBy == effects.ByDefault {
				mt.assumed = true
			}
		}
		tools[t.ID] = mt
	}
	return tools
}

// onPath is what the reported findings' paths run through.
type onPath struct {
	agents map[string]bool
	uses   map[[2]string]bool // agent, tool
	links  map[[2]string]bool // agent, agent
}

// findingPaths: a finding's path is red wherever it is drawn: the agents
// on it, each one's uses of the path's tools, the links between them (a
// finding can run through a handoff or an agent used as a tool, so not
// only through its own agent's row).
func findingPaths(g *capgraph.Graph, fs []*policy.Finding, usesOf map[string][]capgraph.Use) onPath {
	on := onPath{agents: map[string]bool{}, uses: map[[2]string]bool{}, links: map[[2]string]bool{}}
	rs := newReaches(g)
	for _, f := range fs {
		p := rs.pathOf(f)
		for a := range p.agents {
			on.agents[a] = true
			for _, u := range usesOf[a] {
				if p.tools[u.Tool] {
					on.uses[[2]string{a, u.Tool}] = true
				}
			}
			for b := range p.agents {
				on.links[[2]string{a, b}] = true
			}
		}
	}
	return on
}

// fill puts the agent's tools in the cells of their zones and collects
// its links to other agents.
func (l *lane) fill(g *capgraph.Graph, tools map[string]*mapTool, uses []capgraph.Use, on onPath) {
	l.bad = on.agents[l.a.ID]
	for _, u := range uses {
		t := g.Tools[u.Tool]
		if t == nil {
			continue
		}
		gate := ""
		if len(u.Gates) > 0 {
			gate = "human approval before " + t.Name + " (for " + l.a.Name + ")"
		} else if _, ok := t.Gated(); ok {
			gate = "human approval before every call of " + t.Name
		}
		if t.Agent != "" {
			if t.Agent != l.a.ID {
				l.links = append(l.links, mapLink{to: t.Agent, label: "runs as tool " + t.Name, gated: gate != "", bad: on.links[[2]string{l.a.ID, t.Agent}]})
			}
			continue
		}
		mt := tools[u.Tool]
		if gate == "" && mt.codeGate {
			gate = "human approval inside " + t.Name + " before its action"
		}
		lt := laneTool{mapTool: mt, label: svgClean(t.Name), bad: on.uses[[2]string{l.a.ID, u.Tool}], gate: gate}
		if len(mt.zones) == 0 {
			l.inert = append(l.inert, lt)
		}
		for _, z := range mt.zones {
			l.cells[z] = append(l.cells[z], lt)
		}
	}
	l.label()
	for z := range l.cells {
		sortBy(l.cells[z], func(t laneTool) string {
			return fmt.Sprintf("%d\x00%s\x00%s", b2i(!t.bad), t.label, t.t.ID)
		})
	}
	sortBy(l.inert, func(t laneTool) string { return t.label + "\x00" + t.t.ID })
	for _, k := range g.Links {
		if k.From == l.a.ID {
			l.links = append(l.links, mapLink{to: k.To, label: string(k.Kind), bad: on.links[[2]string{l.a.ID, k.To}]})
		}
	}
	sortBy(l.links, func(k mapLink) string { return k.to + "\x00" + k.label })
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func worst(fs []*policy.Finding) int {
	r := 0
	for _, f := range fs {
		if f.Suppression == nil {
			r = max(r, f.Severity.Rank())
		}
	}
	return r
}

func reported(fs []*policy.Finding) int {
	n := 0
	for _, f := range fs {
		if f.Suppression == nil {
			n++
		}
	}
	return n
}

// zonesOf places a tool by its own effects: the zone of each label it
// has. A tool with none of them is listed under its agent instead.
func zonesOf(e *effects.Effects) []int {
	var out []int
	for z, ls := range zoneLabels {
		for _, l := range ls {
			if e.Has(l) {
				out = append(out, z)
				break
			}
		}
	}
	return out
}

// codeGated: the tool has actions and an approval in its own code stands
// before every one of them.
func codeGated(t *capgraph.Tool) bool {
	any := false
	for _, l := range zoneLabels[zoneAction] {
		if t.Effects.Has(l) {
			if !t.Effects.Get(l).Gated() {
				return false
			}
			any = true
		}
	}
	return any
}

// label names each tool of a row as drawn: its name, and where another
// tool of the row has the same name, its file (as much of the path as
// tells them apart), then its line. Across rows the agent tells them
// apart, and every tooltip has the full file and line.
func (l *lane) label() {
	all := [][]laneTool{l.inert}
	for _, c := range l.cells {
		all = append(all, c)
	}
	byName := map[string][]*capgraph.Tool{}
	seen := map[string]bool{}
	for _, c := range all {
		for _, t := range c {
			if !seen[t.t.ID] {
				seen[t.t.ID] = true
				byName[t.label] = append(byName[t.label], t.t)
			}
		}
	}
	label := map[string]string{}
	for name, ts := range byName {
		if len(ts) < 2 {
			continue
		}
		sort.Slice(ts, func(i, j int) bool { return ts[i].ID < ts[j].ID })
		files := make([]string, len(ts))
		for i, t := range ts {
			files[i] = t.Loc.File
		}
		short := distinctSuffixes(files)
		count := map[string]int{}
		for _, s := range short {
			count[s]++
		}
		for i, t := range ts {
			s := short[i]
			if count[s] > 1 {
				s = fmt.Sprintf("%s:%d", s, t.Loc.Start.Line)
			}
			label[t.ID] = name + " (" + svgClean(s) + ")"
		}
	}
	for _, c := range all {
		for i := range c {
			if s, ok := label[c[i].t.ID]; ok {
				c[i].label = s
			}
		}
	}
}

// shortFiles gives each agent the shortest form of its file that still
// tells it apart from the other agents' files.
func shortFiles(ls []*lane) {
	files := make([]string, len(ls))
	for i, l := range ls {
		files[i] = l.a.File
	}
	short, tails := distinctTails(files)
	for i := range ls {
		ls[i].file, ls[i].fileTail = short[i], tails[i]
	}
}

// distinctSuffixes shortens each path to its last components, as many as
// tell it apart from every other different path of the list; a long
// result keeps the component that decides and the file name around
// "…". Equal paths stay equal.
func distinctSuffixes(files []string) []string {
	out, _ := distinctTails(files)
	return out
}

// distinctTails returns distinctSuffixes and, for each path, its last
// components before eliding.
func distinctTails(files []string) (out, tails []string) {
	split := make([][]string, len(files))
	for i, f := range files {
		for _, c := range strings.Split(strings.ReplaceAll(f, "\\", "/"), "/") {
			if c != "" && c != "." {
				split[i] = append(split[i], c)
			}
		}
	}
	suffix := func(p []string, k int) string { return strings.Join(p[max(0, len(p)-k):], "/") }
	out, tails = make([]string, len(files)), make([]string, len(files))
	depth := make([]int, len(files))
	// Lengthen the suffixes of the paths that still clash, one component
	// a round: each round is one pass with a map, not a pass per pair.
	open := make([]int, len(files))
	for i := range open {
		open[i] = i
	}
	for k := 1; len(open) > 0; k++ {
		owners := map[string]map[string]bool{}
		for i, p := range split {
			s := suffix(p, k)
			if owners[s] == nil {
				owners[s] = map[string]bool{}
			}
			owners[s][files[i]] = true
		}
		var still []int
		for _, i := range open {
			if len(owners[suffix(split[i], k)]) == 1 || k >= len(split[i]) {
				depth[i] = k
				continue
			}
			still = append(still, i)
		}
		open = still
	}
	for i, p := range split {
		k := min(depth[i], len(p))
		tails[i] = suffix(p, k)
		out[i] = tails[i]
		if k > 2 && len(out[i]) > 28 {
			out[i] = p[len(p)-k] + "/…/" + p[len(p)-1]
		}
	}
	// Eliding the middle can make two paths equal again: keep those whole.
	n := map[string]map[string]bool{}
	for i, s := range out {
		if n[s] == nil {
			n[s] = map[string]bool{}
		}
		n[s][files[i]] = true
	}
	for i, s := range out {
		if len(n[s]) > 1 {
			out[i] = files[i]
		}
	}
	return out, tails
}

// notesOf writes the lines under a row: its findings with their
// locations, most severe first; the agents it hands off to or runs; its
// tools with no effect.
func (m *svgMap) notesOf(l *lane, byAgent map[string]*lane) []note {
	fs := append([]*policy.Finding(nil), l.findings...)
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if (a.Suppression == nil) != (b.Suppression == nil) {
			return a.Suppression == nil
		}
		if a.Severity != b.Severity {
			return a.Severity.Rank() > b.Severity.Rank()
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		return a.ID < b.ID
	})
	var out []note
	shown := len(fs)
	if shown > m.lim.notes {
		shown = m.lim.notes - 1
	}
	locW, ruleW := 0, 0
	for _, f := range fs[:shown] {
		locW = min(48, max(locW, cells(svgClean(findingLoc(f)))))
		ruleW = max(ruleW, len(f.Rule))
	}
	for _, f := range fs[:shown] {
		out = append(out, findingNote(f, locW, ruleW))
	}
	if rest := fs[shown:]; len(rest) > 0 {
		count := map[string]int{}
		var rules, tip []string
		for _, f := range rest {
			if count[f.Rule] == 0 {
				rules = append(rules, f.Rule)
			}
			count[f.Rule]++
			tip = append(tip, findingLine(f))
		}
		for i, r := range rules {
			rules[i] = fmt.Sprintf("%s ×%d", r, count[r])
		}
		out = append(out, note{text: fmt.Sprintf("and %d more %s: %s", len(rest), pluralWord(len(rest), "finding"), strings.Join(rules, ", ")),
			tip: strings.Join(capList(tip, 40), "\n"), color: "#8a1c1c", class: "more"})
	}
	name := func(id string) string {
		if t := byAgent[id]; t != nil {
			return svgClean(displayName(t.a.Name))
		}
		return svgClean(id)
	}
	if len(l.links) > m.lim.links {
		// One line for all of them, the tooltip with each.
		var parts, tip []string
		color := "#555"
		for _, k := range l.links {
			parts = append(parts, svgClean(k.label)+" "+name(k.to))
			tip = append(tip, svgClean(k.label)+" → "+name(k.to))
			if k.bad {
				color = red
			}
		}
		out = append(out, note{text: "→ " + strings.Join(parts, ", "), tip: strings.Join(capList(tip, 40), "\n"), color: color, class: "link"})
	} else {
		for _, k := range l.links {
			color := "#555"
			if k.bad {
				color = red
			}
			gate := ""
			if k.gated {
				gate = "human approval before " + name(k.to) + " runs"
			}
			text := "→ " + svgClean(k.label) + " " + name(k.to)
			if t := byAgent[k.to]; t != nil && t.file != l.file {
				text += " (" + svgClean(t.file) + ")"
			}
			out = append(out, note{text: text, color: color, class: "link", gate: gate})
		}
	}
	if len(l.inert) > 0 && m.lim == fullLimits {
		var names []string
		for _, t := range l.inert {
			names = append(names, t.label)
		}
		out = append(out, note{text: "no effects: " + strings.Join(names, ", "), color: "#666", class: "inert"})
	}
	return out
}

// findingNote is a finding's line in its row: where, severity, rule,
// chain of tools, set in columns of the given widths.
func findingNote(f *policy.Finding, locW, ruleW int) note {
	loc := svgClean(findingLoc(f))
	sev := strings.ToUpper(string(f.Severity))
	bullet := "●"
	n := note{color: red, class: "finding"}
	if f.Suppression != nil {
		bullet, sev, n.color = "○", "SUPPRESSED", "#888"
	}
	n.text = fmt.Sprintf("%s %s  %-10s %-*s  %s", bullet, pad(loc, locW), sev, ruleW, f.Rule, svgClean(strings.Join(f.Chain, " → ")))
	tip := []string{svgClean(f.ID + " " + f.Rule + " " + findingLoc(f))}
	if f.Message != "" {
		tip = append(tip, svgClean(f.Message))
	}
	if f.Suppression != nil {
		tip = append(tip, "suppressed: "+svgClean(f.Suppression.Justification))
	}
	n.tip = strings.Join(tip, "\n")
	return n
}

func pad(s string, w int) string {
	if n := cells(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

func findingLoc(f *policy.Finding) string {
	if f.Location.File == "" {
		return "-"
	}
	return fmt.Sprintf("%s:%d", f.Location.File, f.Location.Line)
}

// findingLine is a finding in one line: where, severity, rule, chain.
func findingLine(f *policy.Finding) string {
	s := findingLoc(f) + " " + strings.ToUpper(string(f.Severity)) + " " + f.Rule
	if f.Suppression != nil {
		s = findingLoc(f) + " suppressed " + f.Rule
	}
	if len(f.Chain) > 0 {
		s += " " + strings.Join(f.Chain, " → ")
	}
	return svgClean(s)
}

func capList(xs []string, n int) []string {
	if len(xs) <= n {
		return xs
	}
	return append(xs[:n:n], fmt.Sprintf("… and %d more", len(xs)-n))
}

func displayName(s string) string {
	if s == "" {
		return "(unnamed)"
	}
	return s
}

// svgClean makes text from a scanned file safe to draw: a control
// character, a bidirectional override or a character XML 1.0 cannot hold
// (U+FFFE, U+FFFF) is shown escaped (\x1b, \u202e) so that the reader
// sees it, and invalid UTF-8 becomes U+FFFD.
func svgClean(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || visibleEscape(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r == utf8.RuneError:
			b.WriteRune(utf8.RuneError)
		case visibleEscape(r) && r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case visibleEscape(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func visibleEscape(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r < 0xa0:
		return true
	case r == 0xfffe, r == 0xffff:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f:
		return true
	}
	return false
}

// xmlEsc escapes text for character data and attribute values alike.
// Its input is either acg's own text or already passed through svgClean;
// it cleans again so that nothing XML cannot hold reaches the output.
func xmlEsc(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(svgClean(s)))
	return b.String()
}

// tipEsc escapes a tooltip whose lines acg joined with newlines, each
// already cleaned.
func tipEsc(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = xmlEsc(l)
	}
	return strings.Join(lines, "\n")
}

// cellW is the width of a rune in monospace cells: East Asian wide
// characters and emoji take two.
func cellW(r rune) int {
	switch {
	case r >= 0x1100 && r <= 0x115f, r >= 0x2e80 && r <= 0xa4cf, r >= 0xac00 && r <= 0xd7a3,
		r >= 0xf900 && r <= 0xfaff, r >= 0xfe30 && r <= 0xfe4f, r >= 0xff00 && r <= 0xff60,
		r >= 0xffe0 && r <= 0xffe6, r >= 0x1f300 && r <= 0x1faff, r >= 0x20000 && r <= 0x3fffd:
		return 2
	}
	return 1
}

func cells(s string) int {
	n := 0
	for _, r := range s {
		n += cellW(r)
	}
	return n
}

// fit cuts s to at most n cells, ending in "…" when it had to cut.
func fit(s string, n int) (string, bool) {
	if cells(s) <= n {
		return s, false
	}
	var b strings.Builder
	w := 0
	for _, r := range s {
		if w+cellW(r) > n-1 {
			break
		}
		b.WriteRune(r)
		w += cellW(r)
	}
	return b.String() + "…", true
}

// fitLeft keeps the end of s (a path's file name is its most telling part).
func fitLeft(s string, n int) (string, bool) {
	if cells(s) <= n {
		return s, false
	}
	r := []rune(s)
	w, i := 0, len(r)
	for i > 0 && w+cellW(r[i-1]) <= n-1 {
		i--
		w += cellW(r[i])
	}
	return "…" + string(r[i:]), true
}

// rowsH is the height of a row's boxes, above its notes.
func (l *lane) rowsH() float64 { return max(agentMinH, float64(l.rows)*toolPitch-(toolPitch-toolH)) }

// fitPath keeps the end of a path, cut at a separator.
func fitPath(s string, n int) string {
	t, cut := fitLeft(s, n)
	if !cut {
		return t
	}
	t = strings.TrimPrefix(t, "…")
	if i := strings.Index(t, "/"); i > 0 && i < len(t)-1 {
		t = t[i:]
	}
	return "…" + t
}

// capacity is how many monospace cells fit in px at a font size.
func capacity(px, size float64) int { return max(1, int(px/(size*monoW))) }

func (m *svgMap) layout() {
	m.zoneW = minZoneW
	for _, l := range m.lanes {
		for _, c := range l.cells {
			for _, t := range c {
				w := 2*cellPad + gateGutter + labelPad + float64(cells(t.label))*12*monoW + float64(len(t.caps))*badgeW + 1
				m.zoneW = min(maxZoneW, max(m.zoneW, w))
			}
		}
	}
	x := margin + agentW + colGap
	for z := range m.colX {
		m.colX[z] = x
		x += m.zoneW + colGap
	}
	m.width = x - colGap + margin
	y := top + colHead + 8
	for i, l := range m.lanes {
		for _, c := range l.cells {
			l.rows = max(l.rows, min(len(c), m.lim.cells))
		}
		l.rows = max(l.rows, 1)
		l.h = lanePad + l.rowsH() + float64(len(l.notes))*noteH + lanePad
		if len(l.notes) > 0 {
			l.h += 6
		}
		if i > 0 && y+l.h-(top+colHead) > laneBudget {
			m.rest = m.lanes[i:]
			m.lanes = m.lanes[:i]
			break
		}
		l.y = y
		y += l.h
	}
	m.listY = y + 14
	m.list = m.restList()
	m.footY = m.listY + float64(len(m.list))*noteH + 10
	m.height = m.footY + 80
}

// restList: the findings no agent holds, then the agents past the budget
// by name and file, as many per line as fit.
func (m *svgMap) restList() []string {
	var out []string
	width := capacity(m.width-2*margin, 11)
	if len(m.loose) > 0 {
		out = append(out, "Findings of no agent:")
	}
	for i, f := range m.loose {
		if i == looseCap-1 && len(m.loose) > looseCap {
			out = append(out, fmt.Sprintf("and %d more", len(m.loose)-i))
			break
		}
		out = append(out, "● "+findingLine(f))
	}
	if len(m.rest) == 0 {
		return out
	}
	withF, nf := 0, 0
	for _, l := range m.rest {
		if n := reported(l.findings); n > 0 {
			withF++
			nf += n
		}
	}
	out = append(out, fmt.Sprintf("And %d more %s, %d of them with %s (acg scan --format text lists every finding):",
		len(m.rest), pluralWord(len(m.rest), "agent"), withF, plural(nf, "finding")))
	line := ""
	for i, l := range m.rest {
		e := svgClean(displayName(l.a.Name)) + " (" + svgClean(l.file) + ")"
		if n := reported(l.findings); n > 0 {
			e += ": " + plural(n, "finding")
		}
		if i < len(m.rest)-1 {
			e += ";"
		}
		if line != "" && cells(line)+1+cells(e) > width {
			out = append(out, line)
			line = ""
			if len(out) == listCap {
				out[len(out)-1] += fmt.Sprintf(" … and %d more", len(m.rest)-i)
				return out
			}
		}
		if line != "" {
			line += " "
		}
		line += e
	}
	return append(out, line)
}

func f1(v float64) string {
	return strings.TrimSuffix(strings.TrimSuffix(fmt.Sprintf("%.1f", v), "0"), ".")
}

func (m *svgMap) render() string {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="DejaVu Sans, Verdana, Arial, sans-serif" font-size="12">`+"\n",
		f1(m.width), f1(m.height), f1(m.width), f1(m.height))
	b.WriteString(`<title>acg trust-boundary map</title>` + "\n" + `<rect width="100%" height="100%" fill="#ffffff"/>` + "\n")
	fmt.Fprintf(&b, `<text x="%s" y="30" font-size="18" font-weight="bold" fill="#222">acg trust-boundary map</text>`+"\n", f1(margin))
	counts := plural(len(m.d.Agents), "agent") + " · " + plural(len(m.d.Tools), "tool") + " · " + findingsLine(m.d)
	if len(m.rest) > 0 {
		counts += fmt.Sprintf(" · the %d rows with the most severe findings are drawn, the other agents listed below", len(m.lanes))
	}
	fmt.Fprintf(&b, `<text x="%s" y="50" fill="#555">%s</text>`+"\n", f1(margin), xmlEsc(counts))
	fmt.Fprintf(&b, `<text class="convention" x="%s" y="68" font-size="11" fill="#555">%s</text>`+"\n", f1(margin),
		"One row per agent. A tool is drawn in the zone of each of its own effects (a tool with two is drawn twice). Red: the agents and tools of a reported finding.")
	// Column headers; each row draws its own cells.
	fmt.Fprintf(&b, `<text x="%s" y="%s" font-weight="bold" font-size="13" fill="#333" letter-spacing="0.5">AGENT</text>`+"\n", f1(margin+4), f1(top+20))
	fmt.Fprintf(&b, `<text x="%s" y="%s" font-size="10" font-family="%s" fill="#666">framework · tools · file</text>`+"\n", f1(margin+4), f1(top+34), mono)
	for z, zi := range zoneInfo {
		x := m.colX[z]
		fmt.Fprintf(&b, `<g class="zone-head" data-zone="%s"><rect x="%s" y="%s" width="%s" height="%s" rx="8" fill="%s" stroke="%s" stroke-width="1.5"/>`,
			zi.key, f1(x), f1(top), f1(m.zoneW), f1(colHead-4), zi.fill, zi.stroke)
		fmt.Fprintf(&b, `<text x="%s" y="%s" font-weight="bold" font-size="13" fill="%s" letter-spacing="0.5">%s</text>`, f1(x+cellPad+4), f1(top+18), zi.ink, zi.title)
		fmt.Fprintf(&b, `<text x="%s" y="%s" font-size="10" font-family="%s" fill="%s">%s</text></g>`+"\n", f1(x+cellPad+4), f1(top+32), mono, zi.ink, xmlEsc(zi.sub))
	}
	for i, l := range m.lanes {
		m.renderLane(&b, l, i)
	}
	if len(m.list) > 0 {
		b.WriteString(`<g class="rest">`)
		for i, s := range m.list {
			fmt.Fprintf(&b, `<text x="%s" y="%s" font-size="11" font-family="%s" fill="#444">`, f1(margin), f1(m.listY+float64(i)*noteH+11), mono)
			if cut, ok := fit(s, capacity(m.width-2*margin, 11)); ok {
				fmt.Fprintf(&b, `<title>%s</title>`, xmlEsc(s))
				s = cut
			}
			b.WriteString(xmlEsc(s) + "</text>")
		}
		b.WriteString("</g>\n")
	}
	m.renderFooter(&b)
	b.WriteString("</svg>\n")
	return b.String()
}

func pluralWord(n int, what string) string {
	if n == 1 {
		return what
	}
	return what + "s"
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

func (m *svgMap) renderLane(b *strings.Builder, l *lane, i int) {
	fmt.Fprintf(b, `<g class="lane" data-agent="%s">`+"\n", xmlEsc(l.a.ID))
	if i > 0 {
		fmt.Fprintf(b, `<rect x="%s" y="%s" width="%s" height="1" fill="#d0d3d8"/>`+"\n", f1(margin), f1(l.y), f1(m.width-2*margin))
	}
	m.renderAgent(b, l)
	for z := range l.cells {
		m.renderCell(b, l, z)
	}
	if len(l.notes) > 0 {
		y := l.y + lanePad + l.rowsH() + 6
		b.WriteString(`<g class="notes">`)
		width := m.width - 2*margin - 8
		for _, n := range l.notes {
			x := margin + 8
			if n.gate != "" {
				renderGate(b, x+8, y+noteH/2-1, n.gate)
				x += 20
			}
			s, cut := fit(n.text, capacity(width-(x-margin-8), 11))
			tip := n.tip
			if cut && tip == "" {
				tip = n.text
			} else if cut {
				tip = n.text + "\n" + tip
			}
			fmt.Fprintf(b, `<text class="%s" x="%s" y="%s" font-size="11" font-family="%s" fill="%s" xml:space="preserve">`, n.class, f1(x), f1(y+noteH-4), mono, n.color)
			if tip != "" {
				fmt.Fprintf(b, `<title>%s</title>`, tipEsc(tip))
			}
			b.WriteString(xmlEsc(s) + "</text>")
			y += noteH
		}
		b.WriteString("</g>\n")
	}
	b.WriteString("</g>\n")
}

func (m *svgMap) renderAgent(b *strings.Builder, l *lane) {
	a := l.a
	stroke, sw, fill := "#3b3f45", "1.5", "#f7f8fa"
	if l.bad {
		stroke, sw, fill = red, "3", "#fff1f1"
	}
	x, y := margin, l.y+lanePad
	h := l.rowsH()
	w := agentW
	tip := fmt.Sprintf("agent %s (%s)\n%s:%d\nreaches: %s", svgClean(displayName(a.Name)), svgClean(string(a.Framework)), svgClean(a.File), a.Line, capsLine(a.Capabilities))
	if len(l.inert) > 0 {
		var names []string
		for _, t := range l.inert {
			names = append(names, t.label)
		}
		tip += "\nno effects: " + strings.Join(capList(names, 40), ", ")
	}
	tip = tipEsc(tip)
	fmt.Fprintf(b, `<g class="agent" data-agent="%s"><title>%s</title><rect x="%s" y="%s" width="%s" height="%s" rx="10" fill="%s" stroke="%s" stroke-width="%s"/>`,
		xmlEsc(a.ID), tip, f1(x), f1(y), f1(w), f1(h), fill, stroke, sw)
	name, _ := fit(svgClean(displayName(a.Name)), capacity(w-20, 13))
	fmt.Fprintf(b, `<text x="%s" y="%s" font-family="%s" font-size="13" font-weight="bold" fill="#111">%s</text>`, f1(x+10), f1(y+19), mono, xmlEsc(name))
	sub, _ := fit(svgClean(string(a.Framework))+" · "+plural(len(a.Tools), "tool"), capacity(w-20, 10))
	fmt.Fprintf(b, `<text x="%s" y="%s" font-size="10" font-family="%s" fill="#555">%s</text>`, f1(x+10), f1(y+34), mono, xmlEsc(sub))
	// The end of the path, as long as it keeps what tells the agent's
	// file from the others'.
	room := capacity(w-20, 10)
	file := fitPath(fmt.Sprintf("%s:%d", svgClean(a.File), a.Line), room)
	if tail := fmt.Sprintf("/%s:%d", svgClean(l.fileTail), a.Line); !strings.HasSuffix("/"+strings.TrimPrefix(file, "…"), tail) {
		file = fitPath(fmt.Sprintf("%s:%d", svgClean(l.file), a.Line), room)
	}
	fmt.Fprintf(b, `<text x="%s" y="%s" font-size="10" font-family="%s" fill="#555">%s</text>`, f1(x+10), f1(y+48), mono, xmlEsc(file))
	b.WriteString("</g>\n")
}

func (m *svgMap) renderCell(b *strings.Builder, l *lane, z int) {
	x := m.colX[z] + cellPad
	y := l.y + lanePad
	ts := l.cells[z]
	zi := zoneInfo[z]
	fmt.Fprintf(b, `<g class="cell zone-%s" data-zone="%s" data-agent="%s">`, zi.key, zi.key, xmlEsc(l.a.ID))
	fmt.Fprintf(b, `<rect x="%s" y="%s" width="%s" height="%s" rx="8" fill="%s" stroke="%s" stroke-width="1.2"/>`,
		f1(m.colX[z]), f1(y-5), f1(m.zoneW), f1(l.rowsH()+10), zi.fill, zi.stroke)
	if len(ts) == 0 {
		fmt.Fprintf(b, `<text x="%s" y="%s" font-style="italic" font-size="11" fill="#999">none</text>`, f1(x+gateGutter), f1(y+15))
	}
	shown := ts
	if len(ts) > m.lim.cells {
		shown = ts[:m.lim.cells-1]
	}
	for _, t := range shown {
		m.renderTool(b, t, x, y)
		y += toolPitch
	}
	if rest := ts[len(shown):]; len(rest) > 0 {
		var names []string
		bad := 0
		for _, t := range rest {
			names = append(names, t.label)
			if t.bad {
				bad++
			}
		}
		text := fmt.Sprintf("and %d more", len(rest))
		color := "#555"
		if bad > 0 {
			text += fmt.Sprintf(" (%d on a finding's path)", bad)
			color = "#8a1c1c"
		}
		fmt.Fprintf(b, `<text class="more" x="%s" y="%s" font-size="11" fill="%s"><title>%s</title>%s</text>`,
			f1(x+gateGutter+4), f1(y+15), color, tipEsc(strings.Join(capList(names, 60), "\n")), xmlEsc(text))
	}
	b.WriteString("</g>\n")
}

func (m *svgMap) renderTool(b *strings.Builder, t laneTool, x, y float64) {
	stroke, sw := "#8a8f98", "1.2"
	if t.bad {
		stroke, sw = red, "2.5"
	}
	dash := ""
	if t.assumed {
		dash = ` stroke-dasharray="4 3"`
	}
	bx, bw := x+gateGutter, m.zoneW-2*cellPad-gateGutter
	label, _ := fit(t.label, capacity(bw-labelPad-float64(len(t.caps))*badgeW, 12))
	tip := []string{t.label, svgClean(fmt.Sprintf("%s:%d (%s)", t.t.Loc.File, t.t.Loc.Start.Line, t.t.ID))}
	for _, l := range effects.Labels {
		if t.t.Effects.Has(l) {
			tip = append(tip, fmt.Sprintf("%s [%s]", l, t.t.Effects.Get(l).DecidedBy))
		}
	}
	if t.t.Server != "" {
		tip = append(tip, svgClean("MCP server "+t.t.Server))
	}
	if t.gate != "" {
		tip = append(tip, svgClean(t.gate))
	}
	fmt.Fprintf(b, `<g class="tool" data-tool="%s"><title>%s</title><rect x="%s" y="%s" width="%s" height="%s" rx="5" fill="#ffffff" stroke="%s" stroke-width="%s"%s/>`,
		xmlEsc(t.t.ID), tipEsc(strings.Join(tip, "\n")), f1(bx), f1(y), f1(bw), f1(toolH), stroke, sw, dash)
	fmt.Fprintf(b, `<text x="%s" y="%s" font-family="%s" fill="#1d1d1f">%s</text>`, f1(bx+7), f1(y+15.5), mono, xmlEsc(label))
	px := bx + bw - 5 - float64(len(t.caps))*badgeW
	for _, bi := range badgeInfo {
		for _, c := range t.caps {
			if c == bi.cap {
				fmt.Fprintf(b, `<rect x="%s" y="%s" width="13" height="14" rx="3" fill="%s"/><text x="%s" y="%s" font-size="10" font-weight="bold" fill="#fff" text-anchor="middle">%s</text>`,
					f1(px), f1(y+4), bi.fill, f1(px+6.5), f1(y+15), bi.letter)
				px += badgeW
			}
		}
	}
	if t.gate != "" {
		renderGate(b, x+gateGutter/2-1, y+toolH/2, t.gate)
	}
	b.WriteString("</g>\n")
}

// renderGate draws an approval as a gate: two posts and a closed bar.
func renderGate(b *strings.Builder, x, y float64, title string) {
	fmt.Fprintf(b, `<g class="gate"><title>%s</title><rect x="%s" y="%s" width="18" height="18" rx="3" fill="#ffffff" stroke="%s" stroke-width="1.5"/>`+
		`<rect x="%s" y="%s" width="3" height="12" fill="%s"/><rect x="%s" y="%s" width="3" height="12" fill="%s"/>`+
		`<rect x="%s" y="%s" width="10" height="3" fill="%s"/><rect x="%s" y="%s" width="10" height="3" fill="%s"/></g>`,
		xmlEsc(title), f1(x-9), f1(y-9), gateGreen,
		f1(x-6), f1(y-6), gateGreen, f1(x+3), f1(y-6), gateGreen,
		f1(x-5), f1(y-3), gateGreen, f1(x-5), f1(y+2), gateGreen)
}

func (m *svgMap) renderFooter(b *strings.Builder) {
	y := m.footY
	fmt.Fprintf(b, `<g class="footer"><line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#ddd"/>`+"\n", f1(margin), f1(y), f1(m.width-margin), f1(y))
	y += 26
	x := margin
	const adv = 11 * 0.6 // DejaVu Sans at 11px, a little wide for safety
	label := func(x float64, s string) float64 {
		fmt.Fprintf(b, `<text x="%s" y="%s" font-size="11">%s</text>`+"\n", f1(x), f1(y), s)
		return x + float64(len(s))*adv + 18
	}
	fmt.Fprintf(b, `<rect x="%s" y="%s" width="30" height="14" rx="3" fill="#fff" stroke="%s" stroke-width="2.5"/>`, f1(x), f1(y-11), red)
	x = label(x+38, "on a finding's path")
	renderGate(b, x+9, y-4, "human approval")
	x = label(x+24, "human approval")
	fmt.Fprintf(b, `<rect x="%s" y="%s" width="30" height="14" rx="3" fill="#fff" stroke="#8a8f98" stroke-dasharray="4 3"/>`, f1(x), f1(y-11))
	x = label(x+38, "assumed (fail closed)")
	for _, bi := range badgeInfo {
		fmt.Fprintf(b, `<rect x="%s" y="%s" width="13" height="14" rx="3" fill="%s"/><text x="%s" y="%s" font-size="10" font-weight="bold" fill="#fff" text-anchor="middle">%s</text>`,
			f1(x), f1(y-11), bi.fill, f1(x+6.5), f1(y-1), bi.letter)
		x = label(x+17, shortCaps[bi.cap]) - 6
	}
	for _, s := range []string{
		"A tool is drawn in the zone of each of its own effects: untrusted_input in UNTRUSTED SOURCES, reads_private in PRIVATE DATA,",
		"network_egress, writes_state or executes_code in OUTWARD ACTIONS. Hover a box for its file, line and evidence, a summary for what it stands for.",
	} {
		y += 18
		fmt.Fprintf(b, `<text x="%s" y="%s" font-size="11" fill="#555">%s</text>`+"\n", f1(margin), f1(y), xmlEsc(s))
	}
	b.WriteString("</g>\n")
}

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
