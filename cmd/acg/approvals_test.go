package main

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
	"testing"
)

// approvalDoc is the part of the JSON output the approval fixtures check.
type approvalDoc struct {
	Findings []struct {
		Rule, Agent, Sink, Remediation, Triage string
		TriageReason                           string `json:"triage_reason"`
	}
}

func scanApprovals(t *testing.T, dir string) approvalDoc {
	t.Helper()
	var out, errb bytes.Buffer
	if code := scan(asProject([]string{"--format", "json", "--fail-on", "none", "--engine", "builtin", dir}), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var d approvalDoc
	if err := json.Unmarshal(out.Bytes(), &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestApprovalFixtures: each approval fixture fires exactly the
// approval-sensitive findings its CASE.md expects ("rule agent sink"),
// negatives first.
func TestApprovalFixtures(t *testing.T) {
	rules := map[string]bool{"rule-of-two": true, "missing-approval": true, "toxic-flow": true, "unrestricted-execution": true}
	for _, tc := range []struct {
		dir  string
		want []string
	}{
		{"openai-agents/neg-hosted-default-approval", nil},
		{"openai-agents/pos-hosted-approval-off", []string{
			"missing-approval Ops assistant apply_patch", "missing-approval Ops assistant hosted_mcp",
			"missing-approval Ops assistant shell", "rule-of-two Ops assistant apply_patch"}},
		{"langgraph/neg-dispatch-interrupt-by-name", nil},
		{"langgraph/pos-dispatch-interrupt-other-tool", []string{
			"missing-approval wrong_tool send_http", "rule-of-two wrong_tool send_http", "toxic-flow wrong_tool send_http"}},
		{"langgraph/neg-set-dominance", nil},
		{"langgraph/neg-set-dominance-multiline-router", nil},
		{"langgraph/neg-langchain-react-in-node", nil},
		{"langgraph/neg-method-nodes", nil},
		{"langgraph/neg-dispatch-registry-imported-gated", nil},
		{"langgraph/pos-dispatch-registry-imported", []string{
			"missing-approval create_workflow run_sql", "rule-of-two create_workflow run_sql", "toxic-flow create_workflow run_sql"}},
		// Writing and editing a file are not irreversible; deleting one is.
		{"deepagents/pos-subagents-from-factory", []string{
			"missing-approval writer delete", "missing-approval writer.subagent delete",
			"rule-of-two writer delete", "rule-of-two writer.subagent delete"}},
		{"langgraph/neg-fixed-steps", nil},
		{"langgraph/pos-fixed-step-model-data", []string{
			"missing-approval publisher publish", "rule-of-two publisher publish", "toxic-flow publisher publish"}},
		{"langgraph/neg-fixed-step-input-field", nil},
		{"langgraph/pos-fixed-step-model-field", []string{"rule-of-two responder forward", "toxic-flow responder forward"}},
		{"mcpconfig/neg-vscode-confirms", nil},
		{"mcpconfig/neg-desktop-confirms", nil},
		{"mcpserver/neg-lowlevel-cursor-confirms", nil},
		{"mcpconfig/pos-vscode-auto-approve", []string{
			"missing-approval vscode edit_file", "missing-approval vscode move_file", "missing-approval vscode write_file", "rule-of-two vscode fetch"}},
		{"mcpconfig/pos-server-auto-approve", []string{"rule-of-two cursor fetch"}},
		{"clients/neg-codex-confirms", nil},
		{"clients/neg-codex-tool-prompt", nil},
		{"clients/neg-gemini-confirms", nil},
		{"clients/neg-gemini-excluded", nil},
		{"clients/neg-zed-confirms", nil},
		{"clients/neg-continue-confirms", nil},
		{"clients/neg-junie-confirms", nil},
		{"clients/pos-codex-never", []string{
			"missing-approval codex edit_file", "missing-approval codex move_file", "missing-approval codex slack_post_message",
			"missing-approval codex slack_reply_to_thread", "missing-approval codex write_file", "rule-of-two codex fetch"}},
		{"clients/pos-codex-tool-approve", []string{"missing-approval codex slack_post_message", "rule-of-two codex slack_post_message"}},
		{"clients/pos-codex-full-access", []string{"missing-approval codex shell", "rule-of-two codex shell", "unrestricted-execution codex shell"}},
		{"clients/pos-gemini-trust", []string{
			"missing-approval gemini slack_post_message", "missing-approval gemini slack_reply_to_thread", "rule-of-two gemini fetch"}},
		{"clients/pos-windsurf", []string{
			"missing-approval windsurf edit_file", "missing-approval windsurf move_file", "missing-approval windsurf slack_post_message",
			"missing-approval windsurf slack_reply_to_thread", "missing-approval windsurf write_file", "rule-of-two windsurf fetch"}},
		{"clients/pos-zed-allow", []string{
			"missing-approval zed edit_file", "missing-approval zed move_file", "missing-approval zed slack_post_message",
			"missing-approval zed slack_reply_to_thread", "missing-approval zed write_file", "rule-of-two zed fetch"}},
		{"mcpconfig/neg-roo-confirms", nil},
		{"mcpconfig/pos-cline-auto-approve", []string{"missing-approval cline write_file", "rule-of-two cline fetch"}},
		{"vscode/neg-terminal-readonly", nil},
		{"vscode/neg-terminal-denied", nil},
		{"vscode/pos-terminal-shell", []string{
			"missing-approval vscode run_in_terminal(bash)", "missing-approval vscode run_in_terminal(gh)",
			"missing-approval vscode run_in_terminal(git push)", "rule-of-two vscode run_in_terminal(bash)",
			"unrestricted-execution vscode run_in_terminal(bash)"}},
		{"vscode/pos-terminal-regex", []string{
			`missing-approval vscode run_in_terminal(/^\s*.+$/)`, `rule-of-two vscode run_in_terminal(/^\s*.+$/)`,
			`unrestricted-execution vscode run_in_terminal(/^\s*.+$/)`}},
		{"claudecode/neg-mcp-prompts", nil},
		{"claudecode/neg-hook-asks", nil},
		{"claudecode/neg-ask-and-hook", nil},
		// Edits run unasked here too, but they are not irreversible (Claude
		// Code can rewind them), so only Bash is a missing approval.
		{"claudecode/pos-hook-blocks-only", []string{
			"missing-approval claude-code Bash", "rule-of-two claude-code Bash", "unrestricted-execution claude-code Bash"}},
		{"claudecode/pos-hook-allows-all", []string{"missing-approval claude-code Bash", "rule-of-two claude-code Bash"}},
		{"claudecode/pos-hook-unreadable", []string{"missing-approval claude-code Bash", "rule-of-two claude-code Bash"}},
		{"claudecode/pos-hook-bash-only", []string{"rule-of-two claude-code WebFetch"}},
		{"claudecode/pos-mcp-auto-approve", []string{"rule-of-two claude-code mcp__fetch__fetch"}},
		{"claudecode/neg-plugin-confirms", nil},
		{"claudecode/neg-not-a-plugin", nil},
		{"claudecode/neg-plugin-invalid", nil},
		{"claudecode/pos-plugin-hook-allows", []string{
			"missing-approval claude-code mcp__filesystem__edit_file", "missing-approval claude-code mcp__filesystem__move_file",
			"missing-approval claude-code mcp__filesystem__write_file", "missing-approval claude-code mcp__slack__slack_post_message",
			"missing-approval claude-code mcp__slack__slack_reply_to_thread",
			"missing-approval researcher mcp__filesystem__edit_file", "missing-approval researcher mcp__filesystem__move_file",
			"missing-approval researcher mcp__filesystem__write_file", "missing-approval researcher mcp__slack__slack_post_message",
			"missing-approval researcher mcp__slack__slack_reply_to_thread",
			"rule-of-two claude-code mcp__fetch__fetch", "rule-of-two researcher mcp__fetch__fetch"}},
		{"claudecode/neg-subagent-readonly-bash", nil},
		{"claudecode/neg-mcp-named-server", nil},
		{"claudecode/pos-mcp-named-server-unknown", []string{
			"missing-approval claude-code mcp__firecrawl-mcp__firecrawl_export_all", "missing-approval claude-code mcp__scraper__firecrawl_search",
			"missing-approval page-writer mcp__firecrawl-mcp__firecrawl_export_all", "missing-approval page-writer mcp__scraper__firecrawl_search",
			"rule-of-two claude-code WebFetch", "rule-of-two page-writer WebFetch"}},
		{"claudecode/pos-subagent-allowed-bash", []string{
			"missing-approval claude-code Bash(uv:*)", "missing-approval researcher Bash(uv:*)", "missing-approval runner Bash(uv:*)",
			"rule-of-two claude-code Bash(uv:*)", "rule-of-two researcher Bash(uv:*)", "rule-of-two runner Bash(uv:*)"}},
		{"pydantic-ai/neg-requires-approval", nil},
		{"pydantic-ai/neg-approval-raised", nil},
		{"pydantic-ai/neg-name-trap", nil},
		{"pydantic-ai/neg-two-legs", []string{"missing-approval research_agent send_http", "toxic-flow research_agent send_http"}},
		{"pydantic-ai/pos-wrong-tool-approved", []string{
			"missing-approval inbox_agent send_http", "rule-of-two inbox_agent send_http", "toxic-flow inbox_agent send_http"}},
		{"pydantic-ai/pos-conditional-approval", []string{
			"missing-approval inbox_agent send_http", "rule-of-two inbox_agent send_http", "toxic-flow inbox_agent send_http"}},
		{"pydantic-ai/pos-inbox", []string{
			"missing-approval inbox_agent send_http", "rule-of-two inbox_agent send_http", "toxic-flow inbox_agent send_http"}},
		{"pydantic-ai/pos-toolset", []string{
			"missing-approval toolset_assistant send_http", "rule-of-two toolset_assistant send_http", "toxic-flow toolset_assistant send_http"}},
		{"pydantic-ai/neg-mcp-servers-search", nil},
		{"pydantic-ai/pos-mcp-servers", []string{
			"missing-approval slack_agent slack_post_message", "missing-approval slack_agent slack_reply_to_thread",
			"rule-of-two slack_agent slack_add_reaction"}},
		{"pydantic-ai/neg-agent-delegation", nil},
		{"pydantic-ai/pos-agent-delegation", []string{
			"missing-approval primary_agent send_http", "rule-of-two primary_agent send_http", "toxic-flow poster_agent send_http"}},
		{"google-adk/neg-function-tool-confirmation", nil},
		{"google-adk/neg-request-confirmation", nil},
		{"google-adk/neg-name-trap", nil},
		{"google-adk/neg-two-legs", []string{"missing-approval inbox_agent send_http"}},
		{"google-adk/pos-callable-confirmation", []string{
			"missing-approval inbox_agent send_http", "rule-of-two inbox_agent send_http", "toxic-flow inbox_agent send_http"}},
		{"google-adk/pos-wrong-tool-confirmed", []string{
			"missing-approval inbox_agent send_http", "rule-of-two inbox_agent send_http", "toxic-flow inbox_agent send_http"}},
		{"google-adk/pos-inbox", []string{
			"missing-approval inbox_agent send_http", "rule-of-two inbox_agent send_http", "toxic-flow inbox_agent send_http"}},
		{"google-adk/pos-sub-agents", []string{
			"missing-approval poster send_http", "rule-of-two coordinator send_http", "toxic-flow poster send_http"}},
		{"agent-framework/neg-approval-mode", nil},
		{"agent-framework/neg-name-trap", nil},
		{"agent-framework/neg-two-legs", []string{"missing-approval inbox_agent send_http", "toxic-flow inbox_agent send_http"}},
		{"agent-framework/pos-never-require", []string{
			"missing-approval inbox_agent send_http", "rule-of-two inbox_agent send_http", "toxic-flow inbox_agent send_http"}},
		{"agent-framework/pos-wrong-tool", []string{
			"missing-approval inbox_agent send_http", "rule-of-two inbox_agent send_http", "toxic-flow inbox_agent send_http"}},
		{"agent-framework/pos-inbox", []string{
			"missing-approval inbox_agent send_http", "rule-of-two inbox_agent send_http", "toxic-flow inbox_agent send_http"}},
		{"agent-framework/pos-as-agent-as-tool", []string{
			"missing-approval inbox_agent send_http", "rule-of-two inbox_agent send_http", "toxic-flow inbox_agent send_http"}},
		{"smolagents/neg-name-trap", nil},
		{"smolagents/neg-tool-calling-search", []string{"missing-approval searcher PythonInterpreterTool"}},
		{"smolagents/pos-code-agent-search", []string{"missing-approval coder coder.python"}},
		{"smolagents/pos-code-agent-local-imports", []string{"missing-approval ops ops.python", "rule-of-two ops ops.python"}},
		{"smolagents/pos-inbox", []string{
			"missing-approval inbox_agent send_http", "rule-of-two inbox_agent send_http", "toxic-flow inbox_agent send_http"}},
		{"smolagents/pos-managed-agents", []string{
			"missing-approval manager send_http", "rule-of-two manager send_http", "toxic-flow manager send_http"}},
		{"smolagents/neg-managed-agent-wrapper", nil},
		{"smolagents/pos-managed-agent-wrapper", []string{
			"missing-approval manager send_http", "rule-of-two manager send_http", "toxic-flow manager send_http"}},
		{"smolagents/pos-managed-agent-unknown", []string{
			"missing-approval manager build_reader", "missing-approval manager send_http", "rule-of-two manager send_http"}},
		{"langgraph/pos-set-dominance-bypass", []string{
			"missing-approval shortcut send", "rule-of-two shortcut send", "toxic-flow shortcut send"}},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			d := scanApprovals(t, "../../testdata/"+tc.dir)
			var got []string
			for _, f := range d.Findings {
				if rules[f.Rule] {
					got = append(got, f.Rule+" "+f.Agent+" "+f.Sink)
				}
			}
			sort.Strings(got)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestRemediationNamesTheFrameworksGate: every approval finding's fix names
// the gate of the agent's own framework or client, never another's.
func TestRemediationNamesTheFrameworksGate(t *testing.T) {
	for _, tc := range []struct {
		dir, want, never string
	}{
		{"crewai/pos-task-tools", "CrewAI before-tool-call hook", "interrupt("},
		{"crewai/pos-delegation", "CrewAI before-tool-call hook", "interrupt("},
		{"langgraph/pos-dispatch-interrupt-other-tool", "interrupt(", "needs_approval"},
		{"openai-agents/pos-lists-mutated", "needs_approval=True", "interrupt("},
		{"pydantic-ai/pos-inbox", "requires_approval=True", "interrupt("},
		{"google-adk/pos-inbox", "require_confirmation=True", "interrupt("},
		{"agent-framework/pos-inbox", `approval_mode="always_require"`, "interrupt("},
		{"smolagents/pos-code-agent-local-imports", `executor_type`, "interrupt("},
		{"smolagents/pos-inbox", "smolagents has no approval API", "interrupt("},
		{"pydantic-ai/pos-toolset", "DeferredToolResults", "needs_approval"},
		{"claudecode/pos-mcp-auto-approve", "permissions.ask", "interrupt("},
		{"claudecode/pos-unscoped-bash", "permissions.ask", "interrupt("},
		{"claudecode/pos-hook-allows-all", "permissions.ask", "interrupt("},
		{"claudecode/pos-hook-blocks-only", "permissions.ask", "interrupt("},
		{"mcpconfig/pos-vscode-auto-approve", `"chat.tools.global.autoApprove"`, "interrupt("},
		{"mcpconfig/pos-server-auto-approve", `"alwaysAllow"`, "interrupt("},
		{"vscode/pos-terminal-shell", `"chat.tools.terminal.autoApprove"`, "interrupt("},
		{"claudecode/pos-plugin-hook-allows", "permissions.ask", "approval_policy"},
		{"clients/pos-codex-never", `set approval_policy = "on-request"`, "permissions.ask"},
		{"clients/pos-codex-tool-approve", `set approval_mode = "prompt" under [mcp_servers.slack.tools.slack_post_message]`, "permissions.ask"},
		{"clients/pos-codex-full-access", `sandbox_mode = "workspace-write"`, "permissions.ask"},
		{"clients/pos-gemini-trust", `set "trust": false`, "permissions.ask"},
		{"clients/pos-windsurf", "turn the tool off in the server's Tools settings in Windsurf", "permissions.ask"},
		{"clients/pos-zed-allow", `{"default": "confirm"}`, "permissions.ask"},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			d := scanApprovals(t, "../../testdata/"+tc.dir)
			n := 0
			for _, f := range d.Findings {
				if f.Rule != "rule-of-two" && f.Rule != "missing-approval" {
					continue
				}
				n++
				if !strings.Contains(f.Remediation, tc.want) || strings.Contains(f.Remediation, tc.never) {
					t.Errorf("%s on %s: remediation %q, want it to name %q and never %q", f.Rule, f.Agent, f.Remediation, tc.want, tc.never)
				}
			}
			if n == 0 {
				t.Errorf("no approval finding in %s", tc.dir)
			}
		})
	}
}

// TestHookTriage: a finding whose approval rests on a Claude Code hook
// acg could not read needs review and names the hook and why; one whose
// hook script was read is confirmed.
func TestHookTriage(t *testing.T) {
	for _, tc := range []struct{ dir, triage, reason string }{
		{"claudecode/pos-hook-unreadable", "needs_review", `the PreToolUse hook (matcher "Bash") running .claude/hooks/gone.py cannot be read by acg (the script is not in the scanned tree)`},
		{"claudecode/pos-hook-blocks-only", "confirmed", ""},
		{"claudecode/pos-hook-allows-all", "confirmed", ""},
	} {
		d := scanApprovals(t, "../../testdata/"+tc.dir)
		n := 0
		for _, f := range d.Findings {
			if f.Rule != "missing-approval" && f.Rule != "rule-of-two" {
				continue
			}
			n++
			if f.Triage != tc.triage || !strings.Contains(f.TriageReason, tc.reason) {
				t.Errorf("%s: %s on %s: triage %q (%s), want %q naming %q", tc.dir, f.Rule, f.Sink, f.Triage, f.TriageReason, tc.triage, tc.reason)
			}
		}
		if n == 0 {
			t.Errorf("%s: no approval finding", tc.dir)
		}
	}
}
