package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const full = `# acg config
version: 1
severity_threshold: medium
disabled_rules: [missing-approval]
tools:
  - tool: tools.py#send_http
    effects: [network_egress]
    reason: posts only to our own status page
  - tool: read_email
    effects: {reads_private: false}
    reason: the mailbox holds only public newsletters
chain_patterns:
  - source: read_notes
    target: send_http
    type: notes_exfiltration
    severity: critical
    description: private notes leave through the webhook
provers:
  builtin: true
  codeql: false
  opengrep:
    path: /opt/opengrep/bin/opengrep
    rules: [rules/agents.yaml]
suppressions:
  - id: ACG-151F58790175
    reason: accepted risk, tracked in SEC-12
  - agent: triage_bot
    rule: rule-of-two
    reason: runs in a sandbox without network
  - tool: send_http
    reason: the webhook is ours
`

func TestParseFull(t *testing.T) {
	c, err := Parse(".acg.yaml", []byte(full))
	if err != nil {
		t.Fatal(err)
	}
	if c.Version != 1 || c.SeverityThreshold != "medium" || c.ThresholdPos().Line != 3 {
		t.Errorf("version/threshold: %+v", c)
	}
	if len(c.DisabledRules) != 1 || c.DisabledRules[0].Name != "missing-approval" || c.DisabledRules[0].Line != 4 {
		t.Errorf("disabled rules: %+v", c.DisabledRules)
	}
	want := []ToolOverride{
		{Tool: "tools.py#send_http", Effects: map[string]bool{"network_egress": true}, Complete: true, Reason: "posts only to our own status page", Pos: Pos{6, 5}},
		{Tool: "read_email", Effects: map[string]bool{"reads_private": false}, Reason: "the mailbox holds only public newsletters", Pos: Pos{9, 5}},
	}
	if !reflect.DeepEqual(c.Tools, want) {
		t.Errorf("tools:\n got %+v\nwant %+v", c.Tools, want)
	}
	if len(c.ChainPatterns) != 1 || c.ChainPatterns[0].Severity != "critical" || c.ChainPatterns[0].Line != 13 {
		t.Errorf("patterns: %+v", c.ChainPatterns)
	}
	if p := c.Provers["opengrep"]; !p.Enabled || p.Path == nil || p.Path.Line != 22 || len(p.Rules) != 1 || p.Rules[0].Path != "rules/agents.yaml" || p.Rules[0].Line != 23 {
		t.Errorf("opengrep: %+v", p)
	}
	if c.Provers["codeql"].Enabled || !c.Provers["builtin"].Enabled {
		t.Errorf("provers: %+v", c.Provers)
	}
	if len(c.Suppressions) != 3 || c.Suppressions[1].Agent != "triage_bot" || c.Suppressions[1].Line != 27 {
		t.Errorf("suppressions: %+v", c.Suppressions)
	}
	if err := c.CheckRules([]string{"missing-approval", "rule-of-two"}); err != nil {
		t.Errorf("known rules rejected: %v", err)
	}
	err = c.CheckRules([]string{"rule-of-two"})
	if err == nil || !strings.Contains(err.Error(), `.acg.yaml:4:18: unknown rule (known:`) {
		t.Errorf("unknown rule: %v", err)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // each is a substring of one error, in order
	}{
		{"unknown top key", "version: 1\nseverity: high\n", []string{`:2:1: unknown key "severity" in the config (known: chain_patterns, disabled_rules, provers, severity_threshold, suppressions, tools, version)`}},
		{"bad threshold", "severity_threshold: severe\n", []string{`:1:21: severity_threshold is not one of: critical, high, medium, low`}},
		{"bad version", "version: 2\n", []string{`:1:10: version must be 1`}},
		{"not a mapping", "- a\n- b\n", []string{`:1:1: the config must be a mapping, not a list`}},
		{"override without reason", "tools:\n  - tool: x\n    effects: [network_egress]\n", []string{`:2:5: a tools entry needs a reason`}},
		{"override bad label", "tools:\n  - tool: x\n    effects: [egress]\n    reason: r\n", []string{`:3:15: effect is not one of: untrusted_input, reads_private`}},
		{"override bad bool", "tools:\n  - tool: x\n    effects: {network_egress: maybe}\n    reason: r\n", []string{`:3:31: effect network_egress must be true or false, not a string`}},
		{"override unknown key", "tools:\n  - tool: x\n    effect: [network_egress]\n    reason: r\n", []string{`:2:5: a tools entry needs effects:`, `:3:5: unknown key "effect" in a tools entry`}},
		{"empty reason", "suppressions:\n  - id: ACG-151F58790175\n    reason: \"  \"\n", []string{`:3:13: reason must not be empty`}},
		{"suppression without selector", "suppressions:\n  - rule: rule-of-two\n    reason: r\n", []string{`:2:5: a suppression needs id:, agent: or tool:`}},
		{"suppression without reason", "suppressions:\n  - agent: a\n", []string{`:2:5: a suppression needs a reason`}},
		{"bad id", "suppressions:\n  - id: 151F58790175\n    reason: r\n", []string{`:2:9: id is not a finding id`}},
		{"repeated key", "version: 1\nversion: 1\n", []string{`:2:1: key "version" is repeated`}},
		{"pattern missing target", "chain_patterns:\n  - source: a\n    type: t\n", []string{`:2:5: a chain pattern needs target:`}},
		{"unknown prover", "provers:\n  bandit: true\n", []string{`:2:3: unknown key "bandit" in provers (known: builtin, codeql, opengrep, semgrep)`}},
		{"prover bad shorthand", "provers:\n  codeql: yes please\n", []string{`:2:11: provers.codeql must be true or false`}},
		{"yaml syntax", "version: 1\nbad: [\n", []string{`.acg.yaml:2:1: invalid YAML: did not find expected node content`}},
		{"yaml tab", "version: 1\n\tbad: 2\n", []string{`.acg.yaml:2:1: invalid YAML: found a tab character`}},
		{"alias", "a: &x 1\nversion: *x\n", []string{`unknown key "a"`, `aliases are not supported`}},
		{"two documents", "version: 1\n---\nversion: 1\n", []string{`only one YAML document is allowed`}},
		{"binary", "version: 1\x00", []string{`binary content`}},
		{"list where string", "disabled_rules: [[a]]\n", []string{`:1:18: a rule in disabled_rules must be a string, not a list`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse(".acg.yaml", []byte(tt.src))
			if err == nil {
				t.Fatalf("no error; config %+v", c)
			}
			var es Errors
			if !errors.As(err, &es) {
				t.Fatalf("error is %T, want Errors", err)
			}
			if len(es) != len(tt.want) {
				t.Fatalf("got %d errors, want %d:\n%v", len(es), len(tt.want), err)
			}
			for i, w := range tt.want {
				if !strings.Contains(es[i].Error(), w) {
					t.Errorf("error %d:\n got %s\nwant …%s…", i, es[i], w)
				}
			}
		})
	}
}

func TestParseEmpty(t *testing.T) {
	for _, src := range []string{"", "# nothing yet\n", "\n\n"} {
		c, err := Parse(".acg.yaml", []byte(src))
		if err != nil || c == nil || len(c.Tools)+len(c.Suppressions)+len(c.DisabledRules) != 0 {
			t.Errorf("%q: %+v %v", src, c, err)
		}
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "acg.yaml")
	if err := os.WriteFile(p, []byte("disabled_rules: [x]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(p)
	if err != nil || c.Path != p || !c.Disabled("x") || c.Disabled("y") {
		t.Fatalf("%+v %v", c, err)
	}
	if _, err := Load(filepath.Join(dir, "missing.yaml")); err == nil {
		t.Fatal("missing file: no error")
	}
}

func TestSuppressed(t *testing.T) {
	c, err := Parse(".acg.yaml", []byte(full))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		s    Subject
		line int // of the matching entry; 0 for none
	}{
		{"by id", Subject{ID: "ACG-151F58790175", Rule: "rule-of-two", Agent: []string{"inbox"}}, 25},
		{"by agent and rule", Subject{ID: "ACG-000000000000", Rule: "rule-of-two", Agent: []string{"triage_bot", "a.py#triage_bot"}}, 27},
		{"agent, other rule", Subject{ID: "ACG-000000000000", Rule: "missing-approval", Agent: []string{"triage_bot"}}, 0},
		{"by tool id or name", Subject{ID: "ACG-000000000001", Rule: "missing-approval", Tools: []string{"tools.py#send_http", "send_http"}}, 30},
		{"nothing", Subject{ID: "ACG-000000000002", Rule: "rule-of-two", Agent: []string{"x"}, Tools: []string{"y"}}, 0},
	}
	for _, tt := range tests {
		got := c.Suppressed(tt.s)
		switch {
		case tt.line == 0 && got != nil:
			t.Errorf("%s: matched line %d", tt.name, got.Line)
		case tt.line != 0 && (got == nil || got.Line != tt.line):
			t.Errorf("%s: got %+v, want line %d", tt.name, got, tt.line)
		}
	}
	if o := c.Overrides("tools.py#read_email", "read_email"); len(o) != 1 || o[0].Line != 9 {
		t.Errorf("overrides by name: %+v", o)
	}
	var nilc *Config
	if nilc.Suppressed(Subject{ID: "x"}) != nil || nilc.Disabled("x") || nilc.Overrides("a", "b") != nil {
		t.Error("nil config must match nothing")
	}
}

func TestLabelsAndSeveritiesMatchTheContract(t *testing.T) {
	// The six labels and four severities are the output contract's
	// (DESIGN.md); effects and policy define the same, checked where
	// both are imported (cmd/acg tests).
	if len(Labels) != 6 || len(Severities) != 4 {
		t.Fatal(Labels, Severities)
	}
}
