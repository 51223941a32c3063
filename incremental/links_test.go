package incremental_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acg-dev/acg/incremental"
	"github.com/acg-dev/acg/internal/linkfixture"
)

// TestLiveWorkspaceReadsNoLink: the language server's workspace reads no
// file through a symbolic link, on the first load and when the watcher
// reports a link (created, or a file below a linked directory); each link
// is named in a warning that does not say where it points.
func TestLiveWorkspaceReadsNoLink(t *testing.T) {
	repo := linkfixture.Build(t, "../testdata/inbox")
	w := incremental.NewWorkspace(repo.Root, nil)
	warns, err := w.Load(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	checkLinkWarnings(t, "load", warns, append(repo.Links, repo.Inside), repo.Markers)
	checkNoOutside(t, "load", w.Snapshot(), repo.Markers)

	// The watcher names the links themselves and files below a linked
	// directory (an editor or a watcher that resolves links would).
	rels := []string{".acg.yaml", ".mcp.json", ".claude/settings.json", ".claude/agents/x.md", "sub/.claude/agents/x.md", repo.Inside}
	snap, warns := w.Refresh(rels)
	checkLinkWarnings(t, "refresh", warns, rels, repo.Markers)
	checkNoOutside(t, "refresh", snap, repo.Markers)

	// A link made while the server runs.
	if err := os.Symlink(filepath.Join(repo.Root, ".mcp.json"), filepath.Join(repo.Root, "sub", ".mcp.json")); err != nil {
		t.Fatal(err)
	}
	snap, warns = w.Refresh([]string{"sub/.mcp.json"})
	checkLinkWarnings(t, "new link", warns, []string{"sub/.mcp.json"}, repo.Markers)
	checkNoOutside(t, "new link", snap, repo.Markers)
	if _, err := snap.Config(); err != nil {
		t.Errorf("the linked .acg.yaml was read: %v", err)
	}
}

func checkLinkWarnings(t *testing.T, when string, warns []incremental.Warning, links, markers []string) {
	t.Helper()
	named := map[string]bool{}
	for _, w := range warns {
		named[w.Path] = true
		for _, m := range markers {
			if strings.Contains(w.String(), m) {
				t.Errorf("%s: warning %q holds %q", when, w, m)
			}
		}
	}
	for _, l := range links {
		if !named[l] {
			t.Errorf("%s: no warning names %s: %v", when, l, warns)
		}
	}
}

func checkNoOutside(t *testing.T, when string, s *incremental.Snapshot, markers []string) {
	t.Helper()
	res := s.Analyze()
	all := docJSON(t, res) + fmt.Sprint(res.Problems, res.ConfigErr)
	for _, f := range s.Files() {
		all += string(f.Src)
	}
	for _, m := range markers {
		if strings.Contains(all, m) {
			t.Errorf("%s: the workspace holds %q from outside the root", when, m)
		}
	}
}

// TestRootMayBeALink: the root is the user's choice; a root that is a link
// is scanned as the directory it names.
func TestRootMayBeALink(t *testing.T) {
	repo := linkfixture.Build(t, "../testdata/inbox")
	link := filepath.Join(t.TempDir(), "root")
	if err := os.Symlink(repo.Root, link); err != nil {
		t.Skip(err)
	}
	snap, warns, err := incremental.Load(context.Background(), link, nil)
	if err != nil {
		t.Fatal(err)
	}
	if snap.File("agent.py") == nil || snap.File("tools.py") == nil {
		t.Errorf("files = %d, want the inbox's", len(snap.Files()))
	}
	checkLinkWarnings(t, "linked root", warns, append(repo.Links, repo.Inside), repo.Markers)
	checkNoOutside(t, "linked root", snap, repo.Markers)
}
