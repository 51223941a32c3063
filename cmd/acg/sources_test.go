package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
)

type scanDoc struct {
	Agents []struct {
		ID, Name, Framework string
		Tools               []string
		Capabilities        []string
	}
	Findings []struct {
		Rule, Severity, Agent string
		ChainType             string `json:"chain_type"`
		Chain                 []string
		Location              struct {
			File string
			Line int
		}
	}
}

func scanJSON(t *testing.T, dir string) (scanDoc, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	if code := scan(asProject([]string{"--format", "json", "--fail-on", "none", dir}), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var d scanDoc
	if err := json.Unmarshal(out.Bytes(), &d); err != nil {
		t.Fatal(err)
	}
	return d, out.String(), errb.String()
}

// TestCombinedTree is issue 6's "done means": one agent per client and
// per crew member, with the right tools and legs; unscoped Bash gives
// unrestricted-execution and scoped Bash does not.
func TestCombinedTree(t *testing.T) {
	d, _, _ := scanJSON(t, "../../testdata/combined")
	agents := map[string][]string{}
	tools := map[string][]string{}
	var names []string
	for _, a := range d.Agents {
		agents[a.Name] = a.Capabilities
		tools[a.Name] = a.Tools
		names = append(names, a.Name)
	}
	sort.Strings(names)
	if got := strings.Join(names, ","); got != "Archivist,Mailer,Senior Researcher,claude-code,vscode,web-researcher" {
		t.Fatalf("agents = %s", got)
	}
	all := "UNTRUSTED_SOURCE,READ_PRIVATE,EGRESS"
	for name, want := range map[string]string{
		"claude-code": all + ",WRITE_STATE,CODE_EXEC", "vscode": all, "web-researcher": all,
		"Senior Researcher": all, "Archivist": "READ_PRIVATE", "Mailer": "EGRESS",
	} {
		if got := strings.Join(agents[name], ","); !strings.HasPrefix(got, want) {
			t.Errorf("%s capabilities = %s, want %s", name, got, want)
		}
	}
	for _, client := range []string{"claude-code", "vscode"} {
		found := 0
		for _, id := range tools[client] {
			if id == "mcp_server/server.py#read_notes" || id == "mcp_server/server.py#publish" {
				found++
			}
		}
		if found != 2 {
			t.Errorf("%s does not reach the FastMCP tools from their code: %v", client, tools[client])
		}
	}
	var unrestricted []string
	for _, f := range d.Findings {
		if f.Rule == "unrestricted-execution" {
			unrestricted = append(unrestricted, f.Location.File+":"+strings.Join(f.Chain, ""))
		}
	}
	if strings.Join(unrestricted, ";") != ".claude/settings.local.json:Bash" {
		t.Errorf("unrestricted-execution = %v, want only the unscoped local Bash rule", unrestricted)
	}
}

// TestNoSecretsInOutput scans configs full of fake credentials: none may
// reach the JSON or text output, or stderr.
func TestNoSecretsInOutput(t *testing.T) {
	dir := "../../testdata/mcpconfig/pos-secrets"
	src, err := os.ReadFile(dir + "/.vscode/mcp.json")
	if err != nil {
		t.Fatal(err)
	}
	// Every value containing FAKE, and the credential parts around it.
	secrets := regexp.MustCompile(`[A-Za-z0-9_:\-.=]*FAKE[A-Za-z0-9_\-.]*`).FindAllString(string(src), -1)
	secrets = append(secrets, "hunter2", "admin:", "svc:", "Bearer", "xoxb-", "sk-FAKE", "T0FAKETEAM", "session=")
	if len(secrets) < 10 {
		t.Fatalf("fixture has too few fake secrets: %v", secrets)
	}
	for _, format := range []string{"json", "text"} {
		var out, errb bytes.Buffer
		scan(asProject([]string{"--format", format, "--fail-on", "none", dir}), &out, &errb)
		if !strings.Contains(out.String(), "rule-of-two") {
			t.Fatalf("%s: the fixture should produce findings:\n%s", format, out.String())
		}
		for _, s := range secrets {
			for where, text := range map[string]string{"output": out.String(), "stderr": errb.String()} {
				if strings.Contains(text, s) {
					t.Errorf("%s %s contains the secret %q", format, where, s)
				}
			}
		}
	}
	golden, err := os.ReadFile(goldenName(dir))
	if err == nil {
		for _, s := range secrets {
			if bytes.Contains(golden, []byte(s)) {
				t.Errorf("golden file contains the secret %q", s)
			}
		}
	}
}

// TestConfigProblems: invalid JSON and bad frontmatter are reported with
// their positions on stderr; the scan goes on.
func TestConfigProblems(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		".vscode/mcp.json":        "{\n  \"servers\": {\n    \"a\": {\"command\": \"x\"}\n    \"b\": {}\n  }\n}\n",
		".claude/settings.json":   "{\"permissions\": {\"allow\": [\"Bash\",]}}",
		".claude/agents/x.md":     "---\nname: x\ntools: [Read\n---\nbody\n",
		"crew/config/agents.yaml": "a:\n  role: [unclosed\n",
	} {
		p := dir + "/" + name
		if err := os.MkdirAll(p[:strings.LastIndexByte(p, '/')], 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, _, stderr := scanJSON(t, dir)
	for _, want := range []string{
		"acg: .vscode/mcp.json:4:5: invalid JSON: ',' or '}' is expected after the value of \"a\"",
		"acg: .claude/agents/x.md:",
		"invalid YAML frontmatter",
		"acg: crew/config/agents.yaml:",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "settings.json") {
		t.Errorf("a trailing comma is valid JSONC: %s", stderr)
	}
}

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := dir + "/" + name
		if err := os.MkdirAll(p[:strings.LastIndexByte(p, '/')], 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestClaudePermissions: deny > ask > allow, hooks, modes and subagents
// decide whether an unscoped shell runs without asking.
func TestClaudePermissions(t *testing.T) {
	settings := func(perms string) map[string]string {
		return map[string]string{".claude/settings.json": `{"permissions": ` + perms + `}`}
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string // unrestricted-execution locations file:line
		bash  bool     // claude-code still has Bash
	}{
		{"allow", settings(`{"allow": ["Bash"]}`), []string{".claude/settings.json:1"}, true},
		{"deny wins", settings(`{"allow": ["Bash"], "deny": ["Bash"]}`), nil, false},
		{"ask wins", settings(`{"allow": ["Bash"], "ask": ["Bash"]}`), nil, true},
		{"scoped", settings(`{"allow": ["Bash(npm test:*)", "Bash(git push:*)"]}`), nil, true},
		{"bypass mode", settings(`{"defaultMode": "bypassPermissions"}`), []string{".claude/settings.json:1"}, true},
		{"dontAsk refuses", settings(`{"defaultMode": "dontAsk"}`), nil, false},
		{"hook that asks", map[string]string{".claude/settings.json": `{"permissions": {"allow": ["Bash"]}, "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": ".claude/hooks/check.sh"}]}]}}`,
			".claude/hooks/check.sh": `echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask"}}'`}, nil, true},
		{"hooks disabled", map[string]string{".claude/settings.json": `{"permissions": {"allow": ["Bash"]}, "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": ".claude/hooks/check.sh"}]}]}}`,
			".claude/settings.local.json": `{"disableAllHooks": true}`,
			".claude/hooks/check.sh":      `echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask"}}'`}, []string{".claude/settings.json:1"}, true},
		// A hook acg cannot read is no approval (the finding needs review).
		{"hook not read", map[string]string{".claude/settings.json": `{"permissions": {"allow": ["Bash"]}, "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./check"}]}]}}`},
			[]string{".claude/settings.json:1"}, true},
		{"hook only blocks", map[string]string{".claude/settings.json": `{"permissions": {"allow": ["Bash"]}, "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "sh -c 'grep -q \"rm -rf\" && exit 2; exit 0'"}]}]}}`},
			[]string{".claude/settings.json:1"}, true},
		{"subagent mode", map[string]string{".claude/agents/ops.md": "---\nname: ops\ndescription: d\ntools: Bash, Read\npermissionMode: bypassPermissions\n---\n"},
			[]string{".claude/agents/ops.md:5"}, true},
		{"shared rule, reported once", map[string]string{".claude/settings.json": "{\"permissions\": {\"allow\": [\"Bash\"]}}",
			".claude/agents/ops.md": "---\nname: ops\ndescription: d\ntools: Bash\n---\n"}, []string{".claude/settings.json:1"}, true},
	} {
		d, _, _ := scanJSON(t, writeTree(t, tc.files))
		var got []string
		for _, f := range d.Findings {
			if f.Rule == "unrestricted-execution" {
				got = append(got, fmt.Sprintf("%s:%d", f.Location.File, f.Location.Line))
				if f.Agent != "claude-code" && tc.name == "shared rule, reported once" {
					t.Errorf("%s: reported on %s", tc.name, f.Agent)
				}
			}
		}
		if strings.Join(got, ";") != strings.Join(tc.want, ";") {
			t.Errorf("%s: unrestricted-execution at %v, want %v", tc.name, got, tc.want)
		}
		hasBash := false
		for _, a := range d.Agents {
			for _, id := range a.Tools {
				if a.Name == "claude-code" && strings.HasSuffix(id, "#Bash") {
					hasBash = true
				}
			}
		}
		if hasBash != tc.bash {
			t.Errorf("%s: claude-code has Bash = %v, want %v", tc.name, hasBash, tc.bash)
		}
	}
}
