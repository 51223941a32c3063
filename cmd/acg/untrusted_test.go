package main

import (
	"strings"
	"testing"
)

// configSecrets are the fake credentials in testdata/secrets/config-credentials.
var configSecrets = []string{
	"tokRULEsecret0123456789", "ghp_RULEghp0123456789abcdefghijkl", "sk-ARGSsecret0123456789abcdef",
	"p4ssURLsecret", "QTOKsecret123", "tokAGENTsecret0123456789", "CMDsecret0123456789xyzAB",
}

// TestSecretsNeverEchoed: a credential inside a config reaches no output
// format, and the masked rule keeps its shape.
func TestSecretsNeverEchoed(t *testing.T) {
	dir, secrets := "../../testdata/secrets/config-credentials", configSecrets
	for _, format := range []string{"text", "json", "sarif", "jsonl"} {
		out, errs, code := run(t, "--engine", "builtin", "--format", format, "--fail-on", "none", dir)
		if code != exitOK {
			t.Fatalf("%s: exit %d\n%s", format, code, errs)
		}
		for _, s := range secrets {
			if strings.Contains(out+errs, s) {
				t.Errorf("%s output holds the secret %q", format, s)
			}
		}
		if format == "json" && !strings.Contains(out, `Bash(curl -H 'Authorization: Bearer ****' *)`) {
			t.Errorf("json output lost the masked rule's shape:\n%s", out)
		}
	}
}
