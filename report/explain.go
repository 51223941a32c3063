package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/effects"
	"github.com/acg-dev/acg/internal/termsafe"
)

// Explain writes, for every tool whose name or id contains query, each
// label with how it was decided and the evidence behind it: the answer to
// "why does acg think this tool can do that?".
func Explain(w io.Writer, g *capgraph.Graph, query string) (int, error) {
	var ids []string
	for id, t := range g.Tools {
		if strings.Contains(t.Name, query) || strings.Contains(id, query) {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	safe := termsafe.String // names, paths and evidence come from the scanned files
	var b strings.Builder
	for _, id := range ids {
		t := g.Tools[id]
		fmt.Fprintf(&b, "%s  (%s, %s) %s:%d\n", safe(t.Name), safe(string(t.Framework)), safe(string(t.Kind)), safe(t.Loc.File), t.Loc.Start.Line)
		for _, l := range effects.Labels {
			r := t.Effects.Get(l)
			mark := "-"
			if r.Value {
				mark = "+"
			}
			fmt.Fprintf(&b, "  %s %-15s %s", mark, l, safe(string(r.DecidedBy)))
			if r.Gated() {
				b.WriteString(" (behind an approval)")
			}
			b.WriteString("\n")
			for _, ev := range r.Evidence {
				where := ""
				if ev.Loc.Valid() {
					where = fmt.Sprintf("%s:%d: ", safe(ev.Loc.File), ev.Loc.Start.Line)
				}
				fmt.Fprintf(&b, "      %s%s\n", where, safe(ev.Detail))
			}
		}
		if len(t.Effects.Roles) > 0 {
			fmt.Fprintf(&b, "  roles: %s\n", strings.Join(termsafe.Strings(t.Effects.Roles), ", "))
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return len(ids), err
}
