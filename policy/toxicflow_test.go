package policy_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acg-dev/acg/incremental"
	"github.com/acg-dev/acg/policy"
	"github.com/acg-dev/acg/prove"
)

func load(t *testing.T, dir string) *incremental.Snapshot {
	t.Helper()
	s, _, err := incremental.Load(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func toxic(fs []*policy.Finding) []*policy.Finding {
	var out []*policy.Finding
	for _, f := range fs {
		if f.Rule == "toxic-flow" {
			out = append(out, f)
		}
	}
	return out
}

// TestInboxToxicFlow: the demo's IMAP fetch reaches requests.post through
// the agent's context; every step is on the line that does it.
func TestInboxToxicFlow(t *testing.T) {
	res := load(t, "../testdata/inbox").Analyze()
	fs := toxic(res.Findings)
	if len(fs) != 1 {
		t.Fatalf("%d toxic-flow findings, want 1", len(fs))
	}
	f := fs[0]
	src, _ := os.ReadFile("../testdata/inbox/tools.py")
	agent, _ := os.ReadFile("../testdata/inbox/agent.py")
	files := map[string][]string{"tools.py": strings.Split(string(src), "\n"), "agent.py": strings.Split(string(agent), "\n")}
	want := []struct{ file, text string }{
		{"tools.py", `_, data = conn.fetch(num, "(RFC822)")`},
		{"tools.py", `_, data = conn.fetch(num, "(RFC822)")`},
		{"tools.py", "msg = email.message_from_bytes"},
		{"tools.py", "bodies.append("},
		{"tools.py", `return "\n---\n".join(bodies)`},
		{"agent.py", "inbox_assistant = create_react_agent("},
		{"agent.py", "inbox_assistant = create_react_agent("},
		{"tools.py", "def send_http("},
		{"tools.py", "resp = requests.post(url, data=body, timeout=10)"},
	}
	if len(f.Steps) != len(want) {
		t.Fatalf("%d steps, want %d: %+v", len(f.Steps), len(want), f.Steps)
	}
	for i, s := range f.Steps {
		if s.File != want[i].file || !strings.Contains(files[s.File][s.Line-1], want[i].text) {
			t.Errorf("step %d %q at %s:%d, want the line with %q", i, s.Message, s.File, s.Line, want[i].text)
		}
	}
	if f.Location.File != "tools.py" || f.Location.Line != 37 || f.Source != "read_email" || f.Sink != "send_http" || f.Severity != policy.Critical {
		t.Errorf("finding: %+v", f)
	}
	// The source's step into the agent's context, then the sink's: each
	// is shared by every path through that agent (one per source, one per
	// sink), never one per pair.
	if f.Steps[5].Message != "the result of read_email enters the context of agent inbox_assistant" {
		t.Errorf("context step: %q", f.Steps[5].Message)
	}
	if f.Steps[6].Message != "agent inbox_assistant chooses the arguments of send_http" {
		t.Errorf("sink's context step: %q", f.Steps[6].Message)
	}
}

func TestNoToxicFlow(t *testing.T) {
	for _, dir := range []string{"inbox-fixed", "unrelated-names"} {
		if fs := toxic(load(t, "../testdata/"+dir).Analyze().Findings); len(fs) != 0 {
			t.Errorf("%s: %d toxic-flow findings, want none: %s", dir, len(fs), fs[0].Message)
		}
	}
}

// TestGraphState: a page fetched by one LangGraph node reaches a shell in a
// node after it; the node before it does not count.
func TestGraphState(t *testing.T) {
	fs := toxic(load(t, "../testdata/langgraph-state").Analyze().Findings)
	if len(fs) != 1 || fs[0].Source != "fetch" || fs[0].Sink != "run" || !strings.Contains(fs[0].Message, "graph state") {
		t.Fatalf("findings: %+v", fs)
	}
}

// TestExternalFlows: flows that come from another prover (here as an
// Opengrep log would give them) make the same finding, and without the
// builtin prover nothing else does.
func TestExternalFlows(t *testing.T) {
	snap := load(t, "../testdata/inbox")
	if fs := toxic(snap.AnalyzeWith(nil, false).Findings); len(fs) != 0 {
		t.Fatalf("no provers, still %d findings", len(fs))
	}
	builtin := snap.Analyze().Flows
	var ext []prove.Flow
	for _, fl := range builtin {
		fl.Tool = "opengrep"
		ext = append(ext, fl)
	}
	fs := toxic(snap.AnalyzeWith(ext, false).Findings)
	if len(fs) != 1 || fs[0].DecidedBy != "opengrep" {
		t.Fatalf("findings: %+v", fs)
	}
	// A flow whose ends sit outside any tool of the agent proves nothing.
	for i := range ext {
		for j := range ext[i].Steps {
			ext[i].Steps[j].Loc.File = filepath.ToSlash(filepath.Join("elsewhere", ext[i].Steps[j].Loc.File))
		}
		ext[i].Source, ext[i].Sink = ext[i].Steps[0], ext[i].Steps[len(ext[i].Steps)-1]
	}
	if fs := toxic(snap.AnalyzeWith(ext, false).Findings); len(fs) != 0 {
		t.Fatalf("flows in other files made %d findings", len(fs))
	}
}
