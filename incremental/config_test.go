package incremental

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acg-dev/acg/config"
)

// The language server's path: .acg.yaml is a workspace file; editing it
// yields a new snapshot whose analysis follows it, and a half-typed config
// never takes findings away.
func TestConfigIsAWorkspaceFile(t *testing.T) {
	inbox := "../testdata/inbox"
	root := t.TempDir()
	for _, f := range []string{"__init__.py", "agent.py", "tools.py"} {
		b, err := os.ReadFile(filepath.Join(inbox, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s1, _ := load(t, root)
	base := len(s1.Analyze().Findings)
	if base == 0 || s1.Analyze().Config != nil {
		t.Fatalf("inbox: %d findings, config %+v", base, s1.Analyze().Config)
	}
	edit := func(prev *Snapshot, seq uint64, src string) *Snapshot {
		f, err := NewFile(context.Background(), config.FileName, []byte(src), nil)
		if err != nil {
			t.Fatal(err)
		}
		if f.Kind != configKind || f.Skipped != "" {
			t.Fatalf(".acg.yaml is not read as the config: kind %q skipped %q", f.Kind, f.Skipped)
		}
		return prev.With(seq, []*File{f}, nil)
	}
	s2 := edit(s1, 2, "suppressions:\n  - agent: inbox_assistant\n    reason: demo\n")
	r2 := s2.Analyze()
	if len(r2.Findings) != 0 || len(r2.Suppressed) != base || r2.Config == nil {
		t.Fatalf("suppressed by agent: %d reported, %d suppressed", len(r2.Findings), len(r2.Suppressed))
	}
	// Mid-edit: an unfinished key. Everything is reported again and the
	// problem points at the line.
	s3 := edit(s2, 3, "suppressions:\n  - agent: inbox_assistant\n    reas\n")
	r3 := s3.Analyze()
	if len(r3.Findings) != base || r3.ConfigErr == nil {
		t.Fatalf("broken config: %d findings, err %v", len(r3.Findings), r3.ConfigErr)
	}
	found := false
	for _, p := range r3.Problems {
		if p.Loc.File == config.FileName && p.Loc.Start.Line > 0 && strings.Contains(p.Message, "invalid YAML") {
			found = true
		}
	}
	if !found {
		t.Errorf("no problem located in .acg.yaml: %+v", r3.Problems)
	}
	// Removing the file removes its effect.
	if r4 := s3.With(4, nil, []string{config.FileName}).Analyze(); len(r4.Findings) != base || r4.ConfigErr != nil {
		t.Errorf("config removed: %d findings, %v", len(r4.Findings), r4.ConfigErr)
	}
}

func TestInlineIgnoreOnlyInComments(t *testing.T) {
	root := writeTree(t, map[string]string{
		"tools.py": toolsPy,
		"agent.py": `from langgraph.prebuilt import create_react_agent
from .tools import send_http

NOTE = "# acg: ignore[rule-of-two] not a comment"
bot = create_react_agent("m", tools=[send_http])  # acg: ignore[missing-approval]
`,
	})
	s, _ := load(t, root)
	var invalid []string
	for _, f := range s.Analyze().Findings {
		if f.Rule == "invalid-suppression" {
			invalid = append(invalid, f.Steps[0].Message)
			if f.Location.Line != 5 || f.Location.Column != 51 {
				t.Errorf("at %d:%d, want the comment at 5:51", f.Location.Line, f.Location.Column)
			}
		}
	}
	if len(invalid) != 1 || !strings.Contains(invalid[0], "a reason is required") {
		t.Errorf("want one invalid suppression (the comment without a reason), got %q", invalid)
	}
}
