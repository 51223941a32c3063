package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/acg-dev/acg/policy"
)

// Text writes one block per finding: where, what, the legs or path, and
// the fix. It ends with a one-line summary.
func Text(w io.Writer, d *Document) error {
	var b strings.Builder
	for _, f := range d.Findings {
		fmt.Fprintf(&b, "%s:%d:%d: %s [%s] %s\n", f.Location.File, f.Location.Line, f.Location.Column,
			strings.ToUpper(string(f.Severity)), f.Rule, f.Message)
		fmt.Fprintf(&b, "  agent:   %s", f.Agent)
		if len(f.InScope) > 1 {
			fmt.Fprintf(&b, " (through %s)", strings.Join(f.InScope[1:], ", "))
		}
		b.WriteString("\n")
		if f.Legs != nil {
			fmt.Fprintf(&b, "  untrusted input: %s\n", strings.Join(f.Legs.Untrusted, ", "))
			fmt.Fprintf(&b, "  private data:    %s\n", strings.Join(f.Legs.Private, ", "))
			fmt.Fprintf(&b, "  outward action:  %s\n", strings.Join(f.Legs.Action, ", "))
		} else if len(f.Chain) > 0 {
			fmt.Fprintf(&b, "  chain:   %s\n", strings.Join(f.Chain, " → "))
		}
		for _, s := range f.Steps {
			fmt.Fprintf(&b, "    %s:%d:%d  %s\n", s.File, s.Line, s.Column, s.Message)
		}
		fmt.Fprintf(&b, "  decided: %s (%s); risk %.2f; id %s\n", f.DecidedBy, f.Triage, f.RiskScore, f.ID)
		fmt.Fprintf(&b, "  fix:     %s\n\n", f.Remediation)
	}
	fmt.Fprintf(&b, "%s\n", summary(d))
	_, err := io.WriteString(w, b.String())
	return err
}

func summary(d *Document) string {
	counts := map[policy.Severity]int{}
	for _, f := range d.Findings {
		counts[f.Severity]++
	}
	if len(d.Findings) == 0 {
		return fmt.Sprintf("acg: no findings (%d agents, %d tools)", len(d.Agents), len(d.Tools))
	}
	var parts []string
	for _, s := range []policy.Severity{policy.Critical, policy.High, policy.Medium, policy.Low} {
		if counts[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[s], s))
		}
	}
	return fmt.Sprintf("acg: %d findings (%s) in %d agents, %d tools", len(d.Findings), strings.Join(parts, ", "), len(d.Agents), len(d.Tools))
}
