package incremental

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHookScriptEditsReachTheAnalysis: whether a Claude Code hook is an
// approval depends on the script it runs, a file of its own; creating it,
// changing it in the editor and deleting it each change the findings, as
// a cold scan would.
func TestHookScriptEditsReachTheAnalysis(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".claude/settings.json", `{"permissions": {"allow": ["Bash", "WebFetch"]},
 "hooks": {"PreToolUse": [{"matcher": "", "hooks": [{"type": "command", "command": "python3 .claude/hooks/guard.py"}]}]}}`)
	write("app/main.py", "print('hello')\n") // a plain Python group beside the joined one
	const script = ".claude/hooks/guard.py"
	const blocks = "import sys\nif 'rm -rf' in sys.stdin.read():\n    sys.exit(2)\n"
	const asks = "import json\nprint(json.dumps({'hookSpecificOutput': {'permissionDecision': 'ask'}}))\n"

	ws := NewWorkspace(root, func(m string) { t.Log(m) })
	if _, err := ws.Load(ctx, nil); err != nil {
		t.Fatal(err)
	}
	// bash says what the analysis says of Bash: "" (no missing-approval),
	// or the finding's triage.
	bash := func(step string) string {
		t.Helper()
		res, err := ws.Analyze(ctx, ws.Snapshot(), nil)
		if err != nil {
			t.Fatal(err)
		}
		cold := ws.Snapshot().Analyze()
		got, want := "", ""
		for _, f := range res.Findings {
			if f.Rule == "missing-approval" && f.Sink == "Bash" {
				got = f.Triage + ": " + f.TriageReason
			}
		}
		for _, f := range cold.Findings {
			if f.Rule == "missing-approval" && f.Sink == "Bash" {
				want = f.Triage + ": " + f.TriageReason
			}
		}
		if got != want {
			t.Fatalf("%s: the live analysis says %q, a cold one %q", step, got, want)
		}
		return got
	}
	if got := bash("absent"); !strings.HasPrefix(got, "needs_review") || !strings.Contains(got, "not in the scanned tree") {
		t.Fatalf("script absent: %q, want a finding that needs review", got)
	}
	write(script, blocks)
	ws.Refresh([]string{script})
	if got := bash("blocks"); !strings.HasPrefix(got, "confirmed") {
		t.Fatalf("script only blocks: %q, want a confirmed finding", got)
	}
	if _, err := ws.Open(ctx, script, 1, []byte(blocks)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ws.Change(ctx, script, 2, []Edit{{Start: 0, End: len(blocks), Text: []byte(asks)}}); err != nil {
		t.Fatal(err)
	}
	if got := bash("asks"); got != "" {
		t.Fatalf("script asks: %q, want no finding", got)
	}
	if _, err := ws.Close(ctx, script); err != nil {
		t.Fatal(err)
	}
	if got := bash("closed"); !strings.HasPrefix(got, "confirmed") {
		t.Fatalf("editor closed, disk still blocks only: %q, want a confirmed finding", got)
	}
	if err := os.Remove(filepath.Join(root, script)); err != nil {
		t.Fatal(err)
	}
	ws.Refresh([]string{script})
	if got := bash("removed"); !strings.HasPrefix(got, "needs_review") {
		t.Fatalf("script removed: %q, want a finding that needs review", got)
	}
}
