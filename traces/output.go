package traces

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/internal/termsafe"
	"github.com/acg-dev/acg/report"
)

// Version of the JSON output.
const Version = "1"

// JSON writes the result: sessions with labelled calls, chains, findings
// (the scan's finding shape, rule observed-chain), chain events and the
// summary.
func JSON(w io.Writer, r *Result) error {
	b, err := json.MarshalIndent(struct {
		Version string `json:"version"`
		*Result
	}{Version, r}, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// JSONL writes one `[CHAIN_DETECTED] {json}` line per chain event, the
// shape of acg scan --format jsonl.
func JSONL(w io.Writer, r *Result) error {
	var b bytes.Buffer
	for _, e := range r.Events {
		line, err := json.Marshal(e)
		if err != nil {
			return err
		}
		b.WriteString(report.ChainEventTag)
		b.Write(line)
		b.WriteByte('\n')
	}
	for _, p := range r.Problems {
		line, err := json.Marshal(p)
		if err != nil {
			return err
		}
		b.WriteString(report.NoticeTag)
		b.Write(line)
		b.WriteByte('\n')
	}
	_, err := w.Write(termsafe.JSON(b.Bytes()))
	return err
}

// SARIF writes the observed-chain findings as SARIF 2.1.0 (the scan's
// writer; each span is a step of the code flow), and unreadable input as
// tool execution notifications.
func SARIF(w io.Writer, r *Result, o report.Options) error {
	doc := report.NewDocument(capgraph.Build(nil, nil, nil, nil, nil), r.Findings)
	for _, p := range r.Problems {
		doc.Notices = append(doc.Notices, report.Notice{File: p.File, Kind: "parse-error", Message: p.Message, Line: p.Line})
	}
	return report.SARIF(w, doc, o)
}

// Text writes what people read: each session's calls, the chains, the
// approvals, the summary and the problems.
func Text(w io.Writer, r *Result) error {
	var b strings.Builder
	for _, s := range r.Sessions {
		fmt.Fprintf(&b, "session %s (%s, %s)", s.ID, s.Format, s.File)
		if s.Agent != "" {
			fmt.Fprintf(&b, " agent %s", s.Agent)
		}
		if s.AgentID != "" {
			fmt.Fprintf(&b, " = %s", s.AgentID)
		}
		b.WriteString("\n")
		for _, c := range s.Labeled {
			labels := strings.Join(c.Labels, ", ")
			if labels == "" {
				labels = "no effects"
			}
			fmt.Fprintf(&b, "  %s  %s [%s; %s]\n", orStr(c.SpanID, "-"), c.Tool, labels, orStr(c.DecidedBy, "catalog"))
		}
		for _, a := range s.Approvals {
			fmt.Fprintf(&b, "  %s  approval (%s) of %s\n", orStr(a.SpanID, "-"), a.Kind, orStr(a.Tool, "every action"))
		}
	}
	byID := map[string]string{}
	for _, f := range r.Findings {
		byID[f.ID] = f.Message
	}
	for _, c := range r.Chains {
		if c.Blocked != nil {
			// The approval stood between the untrusted read and the
			// action: the run stopped there, or a person let it go on.
			fmt.Fprintf(&b, "\nBLOCKED %s: %s: a person was asked (%s) before %s\n", c.Session, strings.Join(c.tools(), " -> "),
				c.Blocked.Kind, orStr(c.Blocked.Tool, "every action"))
			continue
		}
		fmt.Fprintf(&b, "\n[%s] %s %s\n  %s\n", RuleObserved, c.Finding, strings.Join(c.tools(), " -> "), byID[c.Finding])
		for _, l := range c.Calls {
			fmt.Fprintf(&b, "    span %s: %s", orStr(l.SpanID, "-"), l.Tool)
			if l.Args != "" {
				fmt.Fprintf(&b, "(%s)", l.Args)
			}
			b.WriteString("\n")
		}
		if len(c.Patterns) > 0 {
			fmt.Fprintf(&b, "  also matches dangerous-chain pattern row(s) %s (policy/patterns.yaml)\n", strings.Join(c.Patterns, ", "))
		}
	}
	s := r.Summary
	fmt.Fprintf(&b, "\n%d session(s), %d tool call(s), %d approval(s); %d observed chain(s), %d blocked by approval\n",
		s.Sessions, s.Calls, s.Approvals, s.Observed, s.Blocked)
	if s.Static {
		fmt.Fprintf(&b, "predicted by the static analysis: %d of %d\n", s.Predicted, s.Observed)
		if len(s.Unpredicted) > 0 {
			fmt.Fprintf(&b, "not predicted (a gap in the static analysis): %s\n", strings.Join(s.Unpredicted, ", "))
		}
	}
	for _, p := range r.Problems {
		fmt.Fprintf(&b, "problem: %s\n", p)
	}
	// Trace text is third-party text: no control character reaches the
	// terminal (each line is made safe; the newlines are ours).
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		lines[i] = termsafe.String(l)
	}
	_, err := io.WriteString(w, strings.Join(lines, "\n"))
	return err
}
