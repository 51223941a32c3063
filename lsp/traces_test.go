package lsp_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/acg-dev/acg/lsp/lsptest"
)

// TestHoverObservedAtRuntime (issue 18): with the traces setting, the
// hover of an agent says which dangerous sequence a recorded run walked
// and which finding predicted it; a run an approval stopped says so; no
// setting, no such lines.
func TestHoverObservedAtRuntime(t *testing.T) {
	agentHover := func(traces string) string {
		opts := lsptest.Options{Caps: lsptest.RichCaps()}
		if traces != "" {
			abs, err := filepath.Abs(traces)
			if err != nil {
				t.Fatal(err)
			}
			opts.InitOptions = map[string]any{"traces": abs}
		}
		c, _ := start(t, "../testdata/inbox", opts)
		c.Open("agent.py")
		return hoverAt(t, c, "agent.py", c.Text("agent.py"), "create_react_agent(", 3)
	}
	if h := agentHover(""); strings.Contains(h, "Recorded runs") {
		t.Errorf("no traces setting, yet:\n%s", h)
	}
	h := agentHover("../testdata/traces/otel-sdk/fixed.json")
	if !strings.Contains(h, "- blocked by an approval (interrupt): read_email → read_notes → send_http") || strings.Contains(h, "observed at runtime") {
		t.Errorf("the fixed run's hover:\n%s", h)
	}
	h = agentHover("../testdata/traces/otel-sdk/leak.json")
	if !strings.Contains(h, "- **observed at runtime**: read_email → read_notes → send_http (leak.json, session conv-leak), predicted by `ACG-") {
		t.Errorf("the leaking run's hover:\n%s", h)
	}
}
