package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/acg-dev/acg/lsp"
	"github.com/acg-dev/acg/lsp/lsptest"
)

func execute(t *testing.T, c *lsptest.Client, cmd string, args ...any) json.RawMessage {
	t.Helper()
	var raw []protocol.LSPAny
	for _, a := range args {
		b, _ := json.Marshal(a)
		raw = append(raw, protocol.LSPAny(b))
	}
	res, err := c.Server.ExecuteCommand(c.Ctx(), &protocol.ExecuteCommandParams{Command: cmd, Arguments: raw})
	if err != nil {
		t.Fatalf("%s: %v", cmd, err)
	}
	return json.RawMessage(res)
}

// TestShowGraph: the capability graph as JSON (the output contract plus
// nodes and edges) and as DOT.
func TestShowGraph(t *testing.T) {
	c, _ := start(t, "../testdata/inbox", lsptest.Options{Caps: lsptest.RichCaps()})
	var g struct {
		Version string `json:"version"`
		Folders []struct {
			Root  string `json:"root"`
			Nodes []struct {
				ID, Kind, Name string
				Capabilities   []string `json:"capabilities"`
			} `json:"nodes"`
			Edges []struct {
				From string `json:"from"`
				To   string `json:"to"`
				Kind string `json:"kind"`
			} `json:"edges"`
			Findings []struct {
				Rule  string   `json:"rule"`
				Tools []string `json:"tools"`
			} `json:"findings"`
		} `json:"folders"`
	}
	if err := json.Unmarshal(execute(t, c, "acg.showGraph"), &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Folders) != 1 || g.Folders[0].Root != c.Root || len(g.Folders[0].Findings) != 4 {
		t.Fatalf("graph %+v", g)
	}
	kinds := map[string]int{}
	for _, n := range g.Folders[0].Nodes {
		kinds[n.Kind]++
	}
	if kinds["agent"] != 1 || kinds["tool"] != 3 {
		t.Errorf("nodes by kind %v", kinds)
	}
	uses := 0
	for _, e := range g.Folders[0].Edges {
		if e.From == "agent.py#inbox_assistant" && e.Kind == "uses" {
			uses++
		}
	}
	if uses != 3 {
		t.Errorf("%d uses edges from the agent, want 3", uses)
	}
	var dot string
	if err := json.Unmarshal(execute(t, c, "acg.showGraph", map[string]string{"format": "dot"}), &dot); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"digraph acg {", `"0:agent.py#inbox_assistant" -> "0:tools.py#send_http" [label="uses"]`, "color=red", "EGRESS"} {
		if !strings.Contains(dot, want) {
			t.Errorf("DOT lacks %s:\n%s", want, dot)
		}
	}
	if _, err := c.Server.ExecuteCommand(c.Ctx(), &protocol.ExecuteCommandParams{Command: "acg.showGraph", Arguments: []protocol.LSPAny{protocol.LSPAny(`"svg"`)}}); err == nil {
		t.Error("an unknown format was accepted")
	}
	if _, err := c.Server.ExecuteCommand(c.Ctx(), &protocol.ExecuteCommandParams{Command: "acg.noSuchCommand"}); err == nil {
		t.Error("an unknown command was accepted")
	}
}

// TestRescan: files changed on disk without any event are picked up by
// acg.rescan, which reports progress (begin, end, once each) when the
// client supports it.
func TestRescan(t *testing.T) {
	c, _ := start(t, "../testdata/inbox", lsptest.Options{Caps: lsptest.RichCaps(), Server: lsp.Options{NoWatch: true, ProgressDelay: -1}})
	c.WaitDiags("agent.py", lsptest.CodesAre(lsptest.InboxAgentCodes))
	ends := func() int {
		n := 0
		for _, e := range c.Events {
			if e.Kind == "end" {
				n++
			}
		}
		return n
	}
	c.Wait("the first scan's progress", func() bool { return ends() == 1 })
	fixed, _ := os.ReadFile("../testdata/inbox-fixed/tools.py")
	if err := os.WriteFile(filepath.Join(c.Root, "tools.py"), fixed, 0o644); err != nil {
		t.Fatal(err)
	}
	var counts map[string]int
	if err := json.Unmarshal(execute(t, c, "acg.rescan"), &counts); err != nil {
		t.Fatal(err)
	}
	if counts["files"] != 3 || counts["findings"] != 0 {
		t.Errorf("rescan: %v", counts)
	}
	c.WaitDiags("agent.py", func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
	c.Wait("the rescan's progress", func() bool { return ends() == 2 })
	c.Wait("", func() bool {
		if len(c.Created) != 2 {
			t.Errorf("%d tokens created, want 2", len(c.Created))
		}
		byToken := map[string][]string{}
		for _, e := range c.Events {
			byToken[e.Token] = append(byToken[e.Token], e.Kind)
		}
		for _, tok := range c.Created {
			seq := strings.Join(byToken[tok], ",")
			if !strings.HasPrefix(seq, "begin,") || !strings.HasSuffix(seq, ",end") || strings.Count(seq, "begin") != 1 || strings.Count(seq, "end") != 1 {
				t.Errorf("token %s: %s, want one begin, reports, one end", tok, seq)
			}
		}
		return true
	})
}

// TestNoProgressForQuickScans: a scan shorter than the delay reports no
// progress at all.
func TestNoProgressForQuickScans(t *testing.T) {
	c, _ := start(t, "../testdata/inbox", lsptest.Options{Caps: lsptest.RichCaps(), Server: lsp.Options{ProgressDelay: 10 * 1e9}})
	c.WaitDiags("agent.py", hasDiags)
	execute(t, c, "acg.rescan")
	c.Wait("", func() bool {
		if len(c.Created)+len(c.Events) != 0 {
			t.Errorf("progress for a quick scan: %v %v", c.Created, c.Events)
		}
		return true
	})
}
