package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/acg-dev/acg/internal/termsafe"
	"github.com/acg-dev/acg/policy"
)

// ANSI styles; used only when Options.Color is set.
const (
	ansiReset  = "\033[0m"
	ansiBold   = "\033[1m"
	ansiDim    = "\033[2m"
	ansiRed    = "\033[31m"
	ansiYellow = "\033[33m"
	ansiCyan   = "\033[36m"
	ansiGreen  = "\033[32m"
)

type painter bool

func (p painter) paint(style, s string) string {
	if !p || s == "" {
		return s
	}
	return style + s + ansiReset
}

func severityStyle(s policy.Severity) string {
	switch s {
	case policy.Critical:
		return ansiBold + ansiRed
	case policy.High:
		return ansiRed
	case policy.Medium:
		return ansiYellow
	}
	return ansiCyan
}

// Text writes one block per finding: where, what, the legs or path, and
// the fix; then a table of agents with their capabilities and findings,
// and a one-line summary. Every string from the document passes through
// termsafe: names, paths and messages come from the scanned repository.
func Text(w io.Writer, d *Document, o Options) error {
	p := painter(o.Color)
	safe := termsafe.String
	list := func(xs []string, sep string) string { return strings.Join(termsafe.Strings(xs), sep) }
	var b strings.Builder
	for _, f := range d.Findings {
		fmt.Fprintf(&b, "%s %s [%s] %s\n", p.paint(ansiBold, fmt.Sprintf("%s:%d:%d%s:", safe(f.Location.File), f.Location.Line, f.Location.Column, spanEnd(f.Location))),
			p.paint(severityStyle(f.Severity), strings.ToUpper(safe(string(f.Severity)))), safe(f.Rule), safe(f.Message))
		if f.Agent != "" {
			fmt.Fprintf(&b, "  agent:   %s", safe(f.Agent))
			if len(f.InScope) > 1 {
				fmt.Fprintf(&b, " (through %s)", list(f.InScope[1:], ", "))
			}
			b.WriteString("\n")
		}
		if f.Legs != nil {
			fmt.Fprintf(&b, "  untrusted input: %s\n", capped(f.Legs.Untrusted, ", "))
			fmt.Fprintf(&b, "  private data:    %s\n", capped(f.Legs.Private, ", "))
			fmt.Fprintf(&b, "  outward action:  %s\n", capped(f.Legs.Action, ", "))
		} else if len(f.Chain) > 0 {
			fmt.Fprintf(&b, "  chain:   %s\n", list(f.Chain, " → "))
		}
		if srcs := f.AllSources(); len(srcs) > 1 {
			fmt.Fprintf(&b, "  sources: %s\n", capped(srcs, ", "))
		}
		steps := f.AllSteps()
		for i, s := range steps {
			if i == maxSteps && len(steps) > maxSteps+1 {
				fmt.Fprintf(&b, "    %s\n", p.paint(ansiDim, fmt.Sprintf("… and %d more steps (--format json or sarif lists them all)", len(steps)-maxSteps)))
				break
			}
			fmt.Fprintf(&b, "    %s  %s\n", p.paint(ansiDim, fmt.Sprintf("%s:%d:%d", safe(s.File), s.Line, s.Column)), safe(s.Message))
		}
		triage := f.Triage
		if f.TriageReason != "" {
			triage += ": " + f.TriageReason
		}
		if f.TestCode {
			triage += "; in test code"
		}
		fmt.Fprintf(&b, "  decided: %s (%s); risk %.2f; id %s\n", safe(f.DecidedBy), safe(triage), f.RiskScore, safe(f.ID))
		fmt.Fprintf(&b, "  fix:     %s\n\n", p.paint(ansiGreen, safe(f.Remediation)))
	}
	agentTable(&b, d, p)
	notices(&b, d, p)
	fmt.Fprintf(&b, "%s\n", summary(d))
	_, err := io.WriteString(w, b.String())
	return err
}

// maxListed and maxSteps cap the lists of one finding in the text output:
// a finding that stands for many sources names the first and counts the
// rest, which the JSON and SARIF outputs list in full.
const (
	maxListed = 8
	maxSteps  = 12
)

// capped joins at most maxListed names, made safe, and counts the rest.
func capped(xs []string, sep string) string {
	if len(xs) <= maxListed {
		return strings.Join(termsafe.Strings(xs), sep)
	}
	return fmt.Sprintf("%s and %d more", strings.Join(termsafe.Strings(xs[:maxListed]), sep), len(xs)-maxListed)
}

// shortCaps are the capability names in the agent table.
var shortCaps = map[string]string{
	"UNTRUSTED_SOURCE": "untrusted", "READ_PRIVATE": "private", "EGRESS": "egress", "WRITE_STATE": "write", "CODE_EXEC": "exec",
}

// agentTable writes one row per agent: framework, tool count, reachable
// capabilities and findings by severity.
func agentTable(b *strings.Builder, d *Document, p painter) {
	if len(d.Agents) == 0 {
		return
	}
	type row struct {
		cells [5]string
		worst policy.Severity
	}
	byAgent := map[string][]*policy.Finding{}
	for _, f := range d.Findings {
		byAgent[f.AgentID] = append(byAgent[f.AgentID], f)
	}
	suppressed := map[string]int{}
	for _, f := range d.Suppressed {
		suppressed[f.AgentID]++
	}
	rows := []row{{cells: [5]string{"AGENT", "FRAMEWORK", "TOOLS", "CAPABILITIES", "FINDINGS"}}}
	for _, a := range d.Agents {
		var caps []string
		for _, c := range a.Capabilities {
			caps = append(caps, shortCaps[c])
		}
		r := row{cells: [5]string{termsafe.String(a.Name), termsafe.String(string(a.Framework)), fmt.Sprint(len(a.Tools)), strings.Join(caps, " "), countBySeverity(byAgent[a.ID])}}
		if n := suppressed[a.ID]; n > 0 {
			r.cells[4] += fmt.Sprintf(" (%d suppressed)", n)
		}
		if len(caps) == 0 {
			r.cells[3] = "-"
		}
		for _, f := range byAgent[a.ID] {
			if f.Severity.Rank() > r.worst.Rank() {
				r.worst = f.Severity
			}
		}
		rows = append(rows, r)
	}
	var width [5]int
	for _, r := range rows {
		for i, c := range r.cells {
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	for i, r := range rows {
		var line strings.Builder
		for j, c := range r.cells {
			if j == 4 {
				if i == 0 {
					c = p.paint(ansiBold, c)
				} else if r.worst != "" {
					c = p.paint(severityStyle(r.worst), c)
				}
				line.WriteString(c)
				break
			}
			pad := strings.Repeat(" ", width[j]-len([]rune(c))+2)
			if i == 0 {
				c = p.paint(ansiBold, c)
			}
			line.WriteString(c + pad)
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
	b.WriteString("\n")
}

func countBySeverity(fs []*policy.Finding) string {
	if len(fs) == 0 {
		return "-"
	}
	counts := map[policy.Severity]int{}
	for _, f := range fs {
		counts[f.Severity]++
	}
	var parts []string
	for _, s := range []policy.Severity{policy.Critical, policy.High, policy.Medium, policy.Low, policy.Info} {
		if counts[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[s], s))
		}
	}
	return strings.Join(parts, ", ")
}

// notices lists the input that was not read in full, last before the
// summary so that it is not missed.
func notices(b *strings.Builder, d *Document, p painter) {
	if len(d.Notices) == 0 {
		return
	}
	b.WriteString(p.paint(ansiBold+ansiYellow, "notices (input not read in full: findings may be missing)") + "\n")
	for _, n := range d.Notices {
		fmt.Fprintf(b, "  %s %s: %s\n", p.paint(ansiBold, termsafe.String(n.where())+":"), termsafe.String(n.Kind), termsafe.String(n.Message))
	}
	b.WriteString("\n")
}

func summary(d *Document) string {
	sup := ""
	if n := len(d.Suppressed); n > 0 {
		sup = fmt.Sprintf("; %d suppressed", n)
	}
	// Findings are only known for what was read: say so in the same line.
	incomplete := ""
	if len(d.Notices) > 0 {
		incomplete = fmt.Sprintf("; %s not read in full, see the notices", plural(len(noticeFiles(d)), "file"))
	}
	if len(d.Findings) == 0 {
		what := "no findings"
		if incomplete != "" {
			what = "no findings in what was read"
		}
		return fmt.Sprintf("acg: %s (%s, %s%s)%s", what, plural(len(d.Agents), "agent"), plural(len(d.Tools), "tool"), sup, incomplete)
	}
	return fmt.Sprintf("acg: %s (%s) in %s, %s%s%s", plural(len(d.Findings), "finding"), countBySeverity(d.Findings),
		plural(len(d.Agents), "agent"), plural(len(d.Tools), "tool"), sup, incomplete)
}

func noticeFiles(d *Document) map[string]bool {
	files := map[string]bool{}
	for _, n := range d.Notices {
		files[n.File] = true
	}
	return files
}

// spanEnd closes a finding's span when the span is the finding (the text
// tool-poisoning reports): "-12:40".
func spanEnd(l policy.Location) string {
	if l.EndLine == 0 {
		return ""
	}
	return fmt.Sprintf("-%d:%d", l.EndLine, l.EndColumn)
}
