package lsp_test

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/acg-dev/acg/lsp/lsptest"
)

func hoverAt(t *testing.T, c *lsptest.Client, rel, text, at string, delta int) string {
	t.Helper()
	i := strings.Index(text, at)
	if i < 0 {
		t.Fatalf("%q not in %s", at, rel)
	}
	h, err := c.Server.Hover(c.Ctx(), &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.URI(rel)}, Position: lsptest.PositionOf(text, i+delta)}})
	if err != nil {
		t.Fatalf("hover: %v", err)
	}
	if h == nil {
		return ""
	}
	mc, ok := h.Contents.(*protocol.MarkupContent)
	if !ok || mc.Kind != protocol.MarkupKindMarkdown {
		t.Fatalf("hover contents %T", h.Contents)
	}
	return mc.Value
}

func TestHover(t *testing.T) {
	c, _ := start(t, "../testdata/inbox", lsptest.Options{Caps: lsptest.RichCaps()})
	c.Open("agent.py")
	c.Open("tools.py")
	agent, tools := c.Text("agent.py"), c.Text("tools.py")

	// A tool at its definition: every label, how it was decided, the
	// evidence with its line.
	h := hoverAt(t, c, "tools.py", tools, "def send_http", len("def s"))
	for _, want := range []string{"**send_http**", "| network_egress | **yes** | rules | sends model-chosen data with requests.post (tools.py:37)",
		"| irreversible | **yes** | rules |", "| untrusted_input | no |", "Used by: inbox_assistant (agent.py:9)"} {
		if !strings.Contains(h, want) {
			t.Errorf("hover on the send_http definition lacks %q:\n%s", want, h)
		}
	}
	// The same tool where the agent lists it.
	if h2 := hoverAt(t, c, "agent.py", agent, "send_http]", 2); !strings.Contains(h2, "| network_egress | **yes** | rules |") {
		t.Errorf("hover on send_http in tools=[...]:\n%s", h2)
	}
	// A catalog-decided label is labelled so.
	// The agent: what it reaches and its findings.
	h = hoverAt(t, c, "agent.py", agent, "create_react_agent(", 3)
	for _, want := range []string{"**inbox_assistant** · agent (langgraph, create_react_agent)",
		"Reaches: UNTRUSTED_SOURCE, READ_PRIVATE, EGRESS\n", "| send_http | network_egress, irreversible | **none** |",
		"**critical** `rule-of-two`", "**high** `missing-approval`", "Fix: Call interrupt(...)"} {
		if !strings.Contains(h, want) {
			t.Errorf("hover on the agent lacks %q:\n%s", want, h)
		}
	}
	// The agent's declaration: its name, and the rest of the call, show
	// the same (DESIGN: hover on an agent shows its capabilities and
	// findings), but a tool in its list shows the tool.
	for _, at := range []struct {
		text  string
		delta int
	}{{"inbox_assistant =", 3}, {"inbox_assistant =", 0}, {"model,", 2}, {"prompt=", 2}, {"    model,", 0}} {
		h := hoverAt(t, c, "agent.py", agent, at.text, at.delta)
		if !strings.Contains(h, "**inbox_assistant** · agent") || !strings.Contains(h, "Reaches: UNTRUSTED_SOURCE") || !strings.Contains(h, "`rule-of-two`") {
			t.Errorf("hover at %q+%d is not the agent's:\n%s", at.text, at.delta, h)
		}
	}
	// Elsewhere: nothing.
	if h := hoverAt(t, c, "tools.py", tools, "NOTES =", 1); h != "" {
		t.Errorf("hover on a plain assignment: %s", h)
	}
}

// TestHoverConfigs: hover on an MCP server entry and on a Claude Code
// permission rule.
func TestHoverConfigs(t *testing.T) {
	c, _ := start(t, "../testdata/mcpconfig/pos-secrets", lsptest.Options{Caps: lsptest.RichCaps()})
	rel := ".vscode/mcp.json"
	c.Open(rel)
	h := hoverAt(t, c, rel, c.Text(rel), `"slack"`, 2)
	for _, want := range []string{"**slack** · MCP server", "| slack_post_message |", "network_egress"} {
		if !strings.Contains(h, want) {
			t.Errorf("hover on the slack entry lacks %q:\n%s", want, h)
		}
	}
	c2, _ := start(t, "../testdata/claudecode/pos-unscoped-bash", lsptest.Options{Caps: lsptest.RichCaps()})
	rel = ".claude/settings.json"
	c2.Open(rel)
	h = hoverAt(t, c2, rel, c2.Text(rel), `"Bash(*)"`, 2)
	for _, want := range []string{"**permission** · lets claude-code use Bash without asking", "executes_code", "Quick fix: move the rule to `ask`"} {
		if !strings.Contains(h, want) {
			t.Errorf("hover on the Bash(*) rule lacks %q:\n%s", want, h)
		}
	}
}
