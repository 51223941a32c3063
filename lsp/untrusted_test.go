package lsp_test

import (
	"encoding/json"
	"strings"
	"testing"

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
