package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

func pct(v *float64) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf("%.2f", *v)
}

func printSummary(w io.Writer, s *Summary, verbose bool) {
	fmt.Fprintf(w, "acg real-code evaluation  %s  acg %s\n\n", s.Date, s.AcgCommit)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "repository\tlabelled\tfound\tacg agents\tfindings\tneeds_review\tmissing blobs\tnotes")
	for _, r := range s.Repos {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%s\n", r.Repo, r.Labelled, r.Found, r.AcgAgents,
			r.Findings, r.NeedsReview, r.Missing, r.Error)
	}
	tw.Flush()

	fmt.Fprintf(w, "\nagent recall: %d of %d labelled agents found (%s)\n\n", s.Found, s.Labelled, pct(s.AgentRecall))
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "rule\tTP\tFP\tFN\tTN\tprecision\trecall\tfindings on TP\tfindings on FP\tuncertain (fired)")
	for _, rule := range scoredRules {
		r := s.Rules[rule]
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%s\t%s\t%d\t%d\t%d (%d)\n", rule, r.TP, r.FP, r.FN, r.TN,
			pct(r.Precision), pct(r.Recall), r.FindingsOnTP, r.FindingsOnFP, r.Uncertain, r.UncertainFired)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nfindings: %d; needs_review %d (%s); decided_by default %d (%s)\n",
		s.Findings, s.NeedsReview, pct(s.NeedsReviewShare), s.DecidedDefault, pct(s.DefaultShare))
	counted := 0
	for _, o := range s.Orphans {
		if o.Counted {
			counted++
		}
	}
	fmt.Fprintf(w, "findings on unlabelled agents: %d (%d counted as FP: complete label lists)\n", len(s.Orphans), counted)

	if len(s.Missed) > 0 {
		fmt.Fprintf(w, "\nlabelled agents not found (%d):\n", len(s.Missed))
		for _, c := range s.Missed {
			fmt.Fprintf(w, "  %s %s %q (%s)\n", c.Repo, c.Loc, c.Agent, c.Framework)
		}
	}
	if !verbose {
		fmt.Fprintln(w, "\n(-v lists every false positive, false negative and unlabelled finding)")
		return
	}
	list := func(title string, cs []Case) {
		fmt.Fprintf(w, "\n%s (%d):\n", title, len(cs))
		for _, c := range cs {
			extra := ""
			if c.Findings > 0 {
				extra = fmt.Sprintf(" [%d findings, %d needs_review, decided_by %s]", c.Findings, c.NeedsReview, strings.Join(c.DecidedBy, ","))
			}
			fmt.Fprintf(w, "  %-22s %s %s %q%s\n      label: %s\n", c.Rule, c.Repo, c.Loc, c.Agent, extra, c.Why)
		}
	}
	list("false positives", s.FalsePositives)
	list("false negatives", s.FalseNegatives)
	fmt.Fprintf(w, "\nfindings on unlabelled agents (%d):\n", len(s.Orphans))
	for _, o := range s.Orphans {
		mark := ""
		if o.Counted {
			mark = " [FP]"
		}
		fmt.Fprintf(w, "  %-22s %s %s %q%s\n", o.Rule, o.Repo, o.Loc, o.Agent, mark)
	}
}
