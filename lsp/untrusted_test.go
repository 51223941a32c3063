package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acg-dev/acg/internal/linkfixture"
	"github.com/acg-dev/acg/lsp/lsptest"
)

// configSecrets are the fake credentials in testdata/secrets/config-credentials.
var configSecrets = []string{
	"tokRULEsecret0123456789", "ghp_RULEghp0123456789abcdefghijkl", "sk-ARGSsecret0123456789abcdef",
	"p4ssURLsecret", "QTOKsecret123", "tokAGENTsecret0123456789", "CMDsecret0123456789xyzAB",
}

// TestSecretsNotInDiagnostics: credentials written into permission rules,
// a subagent's tools and server launches reach neither diagnostics (with
// their related information and data) nor the log.
func TestSecretsNotInDiagnostics(t *testing.T) {
	c, _ := start(t, "../testdata/secrets/config-credentials", lsptest.Options{Caps: lsptest.RichCaps()})
	p := c.WaitDiags(".claude/settings.json", hasDiags)
	if !strings.Contains(mustJSON(t, p), `Bash(curl -H 'Authorization: Bearer ****' *)`) {
		t.Errorf("the diagnostics lost the masked rule:\n%s", mustJSON(t, p))
	}
	c.Wait("diagnostics of the subagent", func() bool {
		for _, d := range c.Diags {
			if strings.HasSuffix(string(d.URI), "poster.md") {
				return true
			}
		}
		return false
	})
	var all strings.Builder
	c.Wait("the record", func() bool {
		all.WriteString(mustJSON(t, c.Diags))
		all.WriteString(mustJSON(t, c.Logs))
		return true
	})
	for _, s := range configSecrets {
		if strings.Contains(all.String(), s) {
			t.Errorf("the secret %q reached the client", s)
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSymlinksNotFollowedByServer: the server reads no config through a
// link out of the root, at startup or when a link appears on disk; the
// log names each link and nothing from outside reaches the client.
func TestSymlinksNotFollowedByServer(t *testing.T) {
	repo := linkfixture.Build(t, "../testdata/inbox")
	c := lsptest.Start(t, repo.Root, lsptest.Options{Caps: lsptest.RichCaps()})
	c.Initialize()
	c.WaitDiags("agent.py", hasDiags)
	for _, l := range append(repo.Links, repo.Inside) {
		want := filepath.Join(repo.Root, filepath.FromSlash(l)) + ": skipped: a symbolic link"
		c.Wait("a warning naming "+l, func() bool { return c.Logged(want) })
	}
	// A link made while the server runs, heard by its file watcher.
	if err := os.Symlink(filepath.Join(repo.Root, ".mcp.json"), filepath.Join(repo.Root, "sub", ".mcp.json")); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(repo.Root, "sub", ".mcp.json") + ": skipped: a symbolic link"
	c.Wait("a warning naming the new link", func() bool { return c.Logged(want) })
	var all strings.Builder
	c.Wait("the record", func() bool {
		all.WriteString(mustJSON(t, c.Diags))
		all.WriteString(mustJSON(t, c.Logs))
		return true
	})
	for _, m := range repo.Markers {
		if strings.Contains(all.String(), m) {
			t.Errorf("%q from outside the root reached the client", m)
		}
	}
}
