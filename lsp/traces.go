package lsp

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"go.lsp.dev/protocol"

	"github.com/acg-dev/acg/capgraph"
	"github.com/acg-dev/acg/traces"
)

// observedCache keeps the analysis of a folder's traces for one analysis
// of its code: a hover must not re-read the trace files each time.
type observedCache struct {
	mu  sync.Mutex
	a   *analysis
	dir string
	res *traces.Result
}

// observed analyses the traces setting against the folder's analysis
// (nil when there is no setting or nothing can be read: the hover then
// says nothing about runs).
func (f *folder) observed(a *analysis, dir string) *traces.Result {
	if dir == "" || a == nil || a.res == nil {
		return nil
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(f.root, dir)
	}
	c := &f.obs
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.a == a && c.dir == dir {
		return c.res
	}
	set, err := traces.Read(dir)
	if err != nil {
		f.s.logf(protocol.MessageTypeWarning, "traces %s: %v", dir, err)
		c.a, c.dir, c.res = a, dir, nil
		return nil
	}
	c.a, c.dir = a, dir
	c.res = traces.Analyze(set, traces.Options{Static: &traces.Static{Graph: a.res.Graph, Findings: append(a.res.Findings, a.res.Suppressed...)}})
	return c.res
}

// observedHover lists the chains the agent walked in recorded runs.
func observedHover(r *traces.Result, ag *capgraph.Agent) string {
	if r == nil {
		return ""
	}
	var lines []string
	for _, c := range r.Chains {
		if c.AgentID != ag.ID {
			continue
		}
		var tools []string
		for _, l := range c.Calls {
			tools = append(tools, md(l.Tool))
		}
		where := md(filepath.Base(c.File)) + ", session " + md(c.Session)
		switch {
		case c.Blocked != nil:
			lines = append(lines, fmt.Sprintf("- blocked by an approval (%s): %s (%s)", md(c.Blocked.Kind), strings.Join(tools, " → "), where))
		case c.Predicted != "":
			lines = append(lines, fmt.Sprintf("- **observed at runtime**: %s (%s), predicted by `%s`", strings.Join(tools, " → "), where, c.Predicted))
		default:
			lines = append(lines, fmt.Sprintf("- **observed at runtime**: %s (%s), predicted by no finding", strings.Join(tools, " → "), where))
		}
	}
	if len(lines) == 0 {
		return ""
	}
	return "\nRecorded runs:\n" + strings.Join(lines, "\n") + "\n"
}
