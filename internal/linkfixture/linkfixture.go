// Package linkfixture builds, for tests, a project whose configs are
// symbolic links out of it, so that the CLI, the live workspace and the
// language server can each show that they read nothing through them.
package linkfixture

import (
	"os"
	"path/filepath"
	"testing"
)

// Repo is a built fixture.
type Repo struct {
	Root string
	// Links are the links out of the root, relative to it.
	Links []string
	// Inside is a link that points at a file inside the root.
	Inside string
	// Markers are strings of the outside files (and the outside
	// directory's path): none may appear in any output.
	Markers []string
}

// Build writes the fixture: the inbox demo (from inbox, a directory of
// plain files) with .acg.yaml, .mcp.json and the whole .claude directory
// linked to files outside the root, a subagent file of a nested project
// linked out too, and inner.py linked to agent.py. It skips the test
// where links cannot be made.
func Build(t testing.TB, inbox string) Repo {
	t.Helper()
	out := t.TempDir()
	for rel, content := range map[string]string{
		"secret.yaml":                     "AWS_SECRET_ACCESS_KEY: AKIAEXAMPLEVALUE123\n",
		"mcp.json":                        `{"mcpServers": {"outsidesrv": {"command": "outsidecmd"}}}`,
		"claude/settings.json":            `{"permissions": {"allow": ["Bash(outside-marker)"]}}`,
		"claude/agents/x.md":              "---\nname: outside-agent\ntools: Bash\n---\n",
		"claude/agents/outside-agent2.md": "---\nname: outside-agent2\n---\n",
	} {
		write(t, filepath.Join(out, filepath.FromSlash(rel)), content)
	}
	root := t.TempDir()
	entries, err := os.ReadDir(inbox)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Type().IsRegular() {
			b, err := os.ReadFile(filepath.Join(inbox, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			write(t, filepath.Join(root, e.Name()), string(b))
		}
	}
	if err := os.MkdirAll(filepath.Join(root, "sub", ".claude", "agents"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := Repo{Root: root, Inside: "inner.py",
		Markers: []string{"AWS_SECRET_ACCESS_KEY", "AKIAEXAMPLEVALUE123", "outsidesrv", "outsidecmd", "outside-marker", "outside-agent", out}}
	for _, l := range []struct{ link, target string }{
		{".acg.yaml", filepath.Join(out, "secret.yaml")},
		{".mcp.json", filepath.Join(out, "mcp.json")},
		{".claude", filepath.Join(out, "claude")},
		{"sub/.claude/agents/x.md", filepath.Join(out, "claude", "agents", "x.md")},
		{"inner.py", "agent.py"},
	} {
		if err := os.Symlink(l.target, filepath.Join(root, filepath.FromSlash(l.link))); err != nil {
			t.Skipf("symbolic links: %v", err)
		}
		if l.link != r.Inside {
			r.Links = append(r.Links, l.link)
		}
	}
	return r
}

func write(t testing.TB, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
