package gate_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acg-dev/acg/internal/tscheck"
	"github.com/acg-dev/acg/lsp/gate"
)

// readTree reads the TypeScript files of a fixture, by slash path.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".ts") {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestTypeScriptFrameworkFixes: the quick fix on the LangGraph.js and
// Mastra fixtures puts each framework's own gate in (interrupt() first in
// the tool's function, requireApproval: true on createTool), the
// rule-of-two finding clears, planning again adds nothing, and the fixed
// code still type-checks under tsc --strict with the real packages.
func TestTypeScriptFrameworkFixes(t *testing.T) {
	cases := []struct {
		dir, agent, title, wantText string
	}{
		{"../../testdata/ts/langgraphjs/pos-react", "researchAgent", "Require human approval before send_email (interrupt())", `interrupt<{ action: string }, boolean>({ action: "send_email" })`},
		{"../../testdata/ts/langgraphjs/pos-stategraph", "triage", "Require human approval before open_issue (interrupt())", `.compile({ checkpointer: new MemorySaver() })`},
	}
	for _, tc := range cases {
		t.Run(filepath.Base(filepath.Dir(tc.dir))+"/"+filepath.Base(tc.dir), func(t *testing.T) {
			files := readTree(t, tc.dir)
			snap, res := analyze(t, files)
			f := finding(t, res, "rule-of-two", tc.agent)
			fix, err := gate.Plan(request(snap, res, f, f.SinkIDs))
			if err != nil {
				t.Fatalf("Plan: %v", err)
			}
			if fix.Title != tc.title {
				t.Errorf("title %q, want %q", fix.Title, tc.title)
			}
			fixed := map[string]string{}
			for p, text := range files {
				fixed[p] = text
			}
			var all string
			for p, es := range fix.Edits {
				fixed[p] = apply(files[p], es)
				all += fixed[p]
			}
			if !strings.Contains(all, tc.wantText) {
				t.Errorf("the fix does not write %q:\n%s", tc.wantText, all)
			}
			snap2, res2 := analyze(t, fixed)
			if findingOrNil(res2, "rule-of-two", tc.agent) != nil {
				t.Errorf("rule-of-two on %s did not clear:\n%s", tc.agent, all)
			}
			if f3, err := gate.Plan(request(snap2, res2, f, f.SinkIDs)); err == nil {
				t.Errorf("planning again gave edits: %+v", f3.Edits)
			} else if !errors.Is(err, gate.ErrGated) && !strings.Contains(err.Error(), "no longer") {
				t.Logf("planning again: %v", err)
			}
			typeCheck(t, fixed)
		})
	}
}

// TestMastraFix: requireApproval: true on the outward tool's createTool.
func TestMastraFix(t *testing.T) {
	files := readTree(t, "../../testdata/ts/mastra/pos-inbox")
	snap, res := analyze(t, files)
	var f = findingOrNil(res, "rule-of-two", "Inbox Agent")
	if f == nil {
		f = finding(t, res, "dangerous-chain", "Inbox Agent")
	}
	var ids []string
	for _, id := range f.SinkIDs {
		if strings.HasSuffix(id, "#sendEmail") {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		t.Fatalf("send-email is no sink of %s: %v", f.Rule, f.SinkIDs)
	}
	fix, err := gate.Plan(request(snap, res, f, ids))
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	if fix.Title != "Require human approval before send-email (requireApproval: true)" {
		t.Errorf("title %q", fix.Title)
	}
	fixed := map[string]string{}
	for p, text := range files {
		fixed[p] = text
	}
	for p, es := range fix.Edits {
		fixed[p] = apply(files[p], es)
	}
	if !strings.Contains(fixed["src/mastra/tools/mail.ts"], "  requireApproval: true,\n  id: \"send-email\"") {
		t.Errorf("mail.ts after the fix:\n%s", fixed["src/mastra/tools/mail.ts"])
	}
	snap2, res2 := analyze(t, fixed)
	if _, err := gate.Plan(request(snap2, res2, f, ids)); !errors.Is(err, gate.ErrGated) {
		t.Errorf("planning again: %v, want ErrGated", err)
	}
	typeCheck(t, fixed)
}

// typeCheck runs tsc --strict over the fixed files with the pinned
// packages (skipped only without Node).
func typeCheck(t *testing.T, files map[string]string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	npm, err := tscheck.Install(ctx, "../..")
	if errors.Is(err, tscheck.ErrNoNode) {
		t.Log(err)
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var rels []string
	for p, text := range files {
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		rels = append(rels, p)
	}
	diags, err := tscheck.Check(ctx, npm, dir, rels)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range diags {
		t.Errorf("tsc after the fix: %s:%d: %s", d.File, d.Line, d.Text)
	}
}
