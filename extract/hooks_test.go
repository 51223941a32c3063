package extract

import (
	"strings"
	"testing"
)

func TestParseHookCommand(t *testing.T) {
	for _, tc := range []struct {
		project, cmd     string
		script, unknown  string
		inline           bool
		ask, allow, deny bool
	}{
		{project: ".", cmd: "uv run $CLAUDE_PROJECT_DIR/.claude/hooks/pre_tool_use.py", script: ".claude/hooks/pre_tool_use.py"},
		{project: "app", cmd: `"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh`, script: "app/.claude/hooks/guard.sh"},
		{project: ".", cmd: `${CLAUDE_PROJECT_DIR}/.claude/hooks/guard.sh 2>&1`, script: ".claude/hooks/guard.sh"},
		{project: ".", cmd: "python3 .claude/hooks/check_url.py", script: ".claude/hooks/check_url.py"},
		{project: "sub", cmd: "uv run --script --quiet .claude/hooks/x.py --log-only", script: "sub/.claude/hooks/x.py"},
		{project: ".", cmd: "node ./scripts/hook.js", script: "scripts/hook.js"},
		{project: ".", cmd: "bash .claude/hooks/x.sh", script: ".claude/hooks/x.sh"},
		{project: ".", cmd: `cd "$CLAUDE_PROJECT_DIR" && npx tsx .claude/hooks/x.ts`, script: ".claude/hooks/x.ts"},
		{project: ".", cmd: `FOO=1 python3 -u .claude/hooks/x.py`, script: ".claude/hooks/x.py"},
		{project: ".", cmd: "python3 ~/.claude/hooks/x.py", unknown: "runs ~/.claude/hooks/x.py, in the user's home outside the tree"},
		{project: ".", cmd: `node "$HOME/.ccs/hooks/t.cjs"`, unknown: "runs $HOME/.ccs/hooks/t.cjs, in the user's home outside the tree"},
		{project: ".", cmd: "python3 /opt/hooks/x.py", unknown: "runs /opt/hooks/x.py, an absolute path outside the tree"},
		{project: ".", cmd: "python3 ../x.py", unknown: "runs ../x.py, outside the tree"},
		{project: ".", cmd: "$MY_HOOK", unknown: "runs $MY_HOOK, a path with a variable acg cannot resolve"},
		{project: ".", cmd: "guard", unknown: "runs guard, a program outside the tree that acg cannot read"},
		{project: ".", cmd: "npm run lint-staged", unknown: "runs npm, a program outside the tree that acg cannot read"},
		{project: ".", cmd: "uvx some-guard", unknown: "runs uvx some-guard, a package outside the tree that acg cannot read"},
		{project: ".", cmd: `echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask"}}'`, inline: true, ask: true},
		{project: ".", cmd: `jq -n '{hookSpecificOutput: {permissionDecision: "allow"}}'`, inline: true, allow: true},
		{project: ".", cmd: `echo "$(date)" >> .claude/command.log`, inline: true},
		{project: ".", cmd: `sh -c 'grep -q rm && exit 2; exit 0'`, inline: true, deny: true},
		{project: ".", cmd: `bash -c 'echo "{\"permissionDecision\": \"ask\"}"'`, inline: true, ask: true},
		{project: ".", cmd: `bash -c 'cd "$CLAUDE_PROJECT_DIR" && python3 .claude/hooks/x.py'`, script: ".claude/hooks/x.py"},
		{project: ".", cmd: `sh -c 'guard --strict'`, unknown: "runs guard, a program outside the tree that acg cannot read"},
	} {
		h := ParseHookCommand(tc.project, tc.cmd)
		if h.Script != tc.script || h.Unknown != tc.unknown || (h.Inline != nil) != tc.inline {
			t.Errorf("%q: script %q unknown %q inline %v; want %q %q %v", tc.cmd, h.Script, h.Unknown, h.Inline != nil, tc.script, tc.unknown, tc.inline)
			continue
		}
		if h.Inline != nil && (h.Inline.Ask != tc.ask || h.Inline.Allow != tc.allow || h.Inline.Deny != tc.deny) {
			t.Errorf("%q: inline %+v; want ask %v allow %v deny %v", tc.cmd, *h.Inline, tc.ask, tc.allow, tc.deny)
		}
	}
}

func TestReadHookScript(t *testing.T) {
	for _, tc := range []struct {
		name, src        string
		ask, allow, deny bool
	}{
		{"blocks by exit 2", "import sys\nif '.env' in cmd:\n    sys.exit(2)\nsys.exit(0)\n", false, false, true},
		{"logs only", "import json, sys\ndata = json.load(sys.stdin)\nopen('log', 'a').write(json.dumps(data))\n", false, false, false},
		{"asks via a variable", "decision = 'ask'\nprint(json.dumps({'hookSpecificOutput': {'permissionDecision': decision}}))\n", true, false, false},
		{"allows everything", `console.log(JSON.stringify({hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: "allow"}}))`, false, true, false},
		{"old approve", `echo '{"decision": "approve"}'`, false, true, false},
		{"old block", `echo '{"decision": "block", "reason": "no"}'`, false, false, true},
		{"comment only", "# permissionDecision could be \"ask\"\n// or \"allow\"\nexit 0\n", false, false, false},
		{"ask without a decision key", "x = 'ask'\n", false, false, false},
	} {
		h := ReadHookScript([]byte(tc.src))
		if h.Ask != tc.ask || h.Allow != tc.allow || h.Deny != tc.deny {
			t.Errorf("%s: %+v; want ask %v allow %v deny %v", tc.name, *h, tc.ask, tc.allow, tc.deny)
		}
	}
}

func TestIsHookScript(t *testing.T) {
	for rel, want := range map[string]bool{
		".claude/hooks/guard.sh": true, ".claude/hooks/lib/x": true, "app/.claude/hooks/x.js": true,
		".claude/check.sh": true, ".claude/settings.json": false, ".claude/agents/a.md": false,
		"scripts/hooks/x.sh": false, ".claude/commands/x.md": false,
	} {
		if got := IsHookScript(rel); got != want {
			t.Errorf("IsHookScript(%q) = %v, want %v", rel, got, want)
		}
	}
}

// FuzzParseHookCommand: any command line parses without a panic, and a
// script it names stays inside the tree.
func FuzzParseHookCommand(f *testing.F) {
	for _, s := range []string{"uv run $CLAUDE_PROJECT_DIR/.claude/hooks/x.py", `sh -c 'exit 2'`, `node "a b.js" 2>&1 | tee log`, `python3 -c "print(1)"`, `"$CLAUDE_PROJECT_DIR"/../x.sh`} {
		f.Add("app", s)
	}
	f.Fuzz(func(t *testing.T, project, cmd string) {
		h := ParseHookCommand(project, cmd)
		if h.Script != "" && (h.Script == ".." || strings.HasPrefix(h.Script, "../") || strings.HasPrefix(h.Script, "/")) && !strings.HasPrefix(project, "/") && !strings.HasPrefix(project, "..") {
			t.Errorf("%q in %q: script %q outside the tree", cmd, project, h.Script)
		}
		ReadHookScript([]byte(cmd))
	})
}

// TestHookCommandSecrets: a credential in a hook's command never reaches
// what is kept of it.
func TestHookCommandSecrets(t *testing.T) {
	const tok = "ghp_0123456789abcdefghijABCDEFGHIJ012345"
	for _, cmd := range []string{
		"GITHUB_TOKEN=" + tok + " python3 .claude/hooks/x.py",
		"curl -H 'Authorization: Bearer " + tok + "' https://example.com/hook",
		"./" + tok + "/run.sh",
		"node --token=" + tok,
	} {
		h := ParseHookCommand(".", cmd)
		if strings.Contains(h.Unknown, tok) {
			t.Errorf("%q: the reason keeps the token: %q", cmd, h.Unknown)
		}
	}
}

// TestHookHandlerTypes: a prompt or agent hook has a model decide (read,
// answers nothing a person sees); an http hook answers from elsewhere.
func TestHookHandlerTypes(t *testing.T) {
	f := ClaudeSettingsFile(".claude/settings.json", []byte(`{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
		{"type": "prompt", "prompt": "is $ARGUMENTS safe?"},
		{"type": "agent", "prompt": "check it"},
		{"type": "http", "url": "http://localhost:8100/hook"},
		{"type": "command", "command": "uv run $CLAUDE_PROJECT_DIR/.claude/hooks/x.py"}]}]}}`))
	if len(f.Claude.Hooks) != 1 || len(f.Claude.Hooks[0].Handlers) != 4 {
		t.Fatalf("hooks: %+v", f.Claude.Hooks)
	}
	hs := f.Claude.Hooks[0].Handlers
	if hs[0].Unknown != "" || hs[0].Inline != nil || hs[1].Unknown != "" {
		t.Errorf("prompt/agent hooks: %+v %+v, want read and answering nothing", hs[0], hs[1])
	}
	if hs[2].Unknown != `is a hook of type "http", answered outside the tree` {
		t.Errorf("http hook: %q", hs[2].Unknown)
	}
	if hs[3].Script != ".claude/hooks/x.py" {
		t.Errorf("command hook: %+v", hs[3])
	}
}
