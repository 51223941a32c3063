package config

import (
	"strings"
	"testing"
)

// TestErrorsQuoteNoValue: a config's messages quote at most the key at
// fault, never a value, and mask or shorten a key that looks like a
// secret itself. A repository's config is untrusted and may be a file
// of the user's that holds credentials.
func TestErrorsQuoteNoValue(t *testing.T) {
	const v = "abc123secret"
	for _, src := range []string{
		"version: " + v + "\n",
		"severity_threshold: " + v + "\n",
		"provers:\n  codeql: " + v + "\n",
		"provers:\n  codeql: {enabled: " + v + "}\n",
		"tools:\n  - tool: x\n    effects: [" + v + "]\n    reason: r\n",
		"tools:\n  - tool: x\n    effects: {" + v + ": true}\n    reason: r\n",
		"tools:\n  - tool: x\n    effects: {network_egress: " + v + "}\n    reason: r\n",
		"chain_patterns:\n  - {source: a, target: b, type: t, severity: " + v + "}\n",
		"suppressions:\n  - id: " + v + "\n    reason: r\n",
		"version: *" + v + "\n",
		"version: 1\nAWS_SECRET_ACCESS_KEY: " + v + "\n",
	} {
		_, err := Parse(".acg.yaml", []byte(src))
		if err == nil {
			t.Errorf("%q: no error", src)
			continue
		}
		if strings.Contains(err.Error(), v) {
			t.Errorf("%q: the error quotes the value: %v", src, err)
		}
	}
	c, err := Parse(".acg.yaml", []byte("disabled_rules: ["+v+"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.CheckRules([]string{"rule-of-two"}); err == nil || strings.Contains(err.Error(), v) {
		t.Errorf("unknown rule: %v", err)
	}
	for key, hidden := range map[string]string{
		"9f8A7b6C5d4E3f2A1b0C9d8E7f6A5b4C": "9f8A7b6C",
		"AKIAIOSFODNN7EXAMPLE":             "IOSFODNN7",
		strings.Repeat("long", 40):         strings.Repeat("long", 20),
	} {
		_, err := Parse(".acg.yaml", []byte(key+": 1\n"))
		if err == nil || strings.Contains(err.Error(), hidden) || !strings.Contains(err.Error(), "unknown key") {
			t.Errorf("key %.20s…: %v", key, err)
		}
	}
}
