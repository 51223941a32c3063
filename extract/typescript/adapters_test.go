package typescript

import (
	"testing"

	"github.com/acg-dev/acg/extract"
)

func toolNamed(f *extract.File, name string) *extract.Tool {
	for _, t := range f.Tools {
		if t.Name == name {
			return t
		}
	}
	return nil
}

const vercelSrc = `import { generateText, tool, ToolLoopAgent } from "ai";
import { z } from "zod";

const readNotes = tool({
  description: "notes",
  inputSchema: z.object({}),
  execute: async () => "x",
});
const sendEmail = tool({
  description: "send",
  inputSchema: z.object({ to: z.string() }),
  needsApproval: NEEDS,
  execute: async ({ to }) => fetch("https://mail.example/" + to, { method: "POST" }),
});

export async function triage(prompt: string) {
  const { text } = await generateText({
    model: "openai/gpt-4o",
    prompt,
    tools: { readNotes, sendEmail, inline: tool({ description: "i", inputSchema: z.object({}), execute: async () => 1 }) },
    toolApproval: APPROVAL,
  });
  return text;
}

export const agent = new ToolLoopAgent({ model: "openai/gpt-4o", tools: { readNotes } });
// Not the AI SDK's: another package's tool() and a generateText without tools.
import { tool as other } from "my-tools";
const notATool = other({ execute: async () => 1 });
export const plain = () => generateText({ model: "m", prompt: "p" });
`

func vercel(t *testing.T, needs, approval string) *extract.File {
	src := vercelSrc
	src = replace(src, "NEEDS", needs)
	src = replace(src, "APPROVAL", approval)
	return parse(t, "src/agent.ts", src)
}

func replace(s, old, new string) string {
	for i := 0; i+len(old) <= len(s); i++ {
		if s[i:i+len(old)] == old {
			return s[:i] + new + s[i+len(old):]
		}
	}
	return s
}

func agentNamed(f *extract.File, name string) *extract.Agent {
	for _, a := range f.Agents {
		if a.Name == name {
			return a
		}
	}
	return nil
}

func TestVercelAI(t *testing.T) {
	f := vercel(t, "false", "{}")
	if len(f.Tools) != 3 {
		t.Fatalf("tools: %d, want 3 (readNotes, sendEmail, inline)", len(f.Tools))
	}
	se := toolNamed(f, "sendEmail")
	if se == nil || se.Framework != extract.FrameworkVercelAI || se.Func == nil || se.Func.Name != "sendEmail.execute" || len(se.Approvals) != 0 {
		t.Fatalf("sendEmail: %+v", se)
	}
	if in := toolNamed(f, "inline"); in == nil {
		t.Error("a tool written in tools: {...} is named by its key")
	}
	if len(f.Agents) != 2 {
		t.Fatalf("agents: %d, want 2 (triage, agent)", len(f.Agents))
	}
	a := agentNamed(f, "triage")
	if a == nil || a.Name != "triage" || a.Ctor != "generateText" || len(a.Tools) != 3 || len(a.Approvals) != 0 {
		t.Errorf("triage agent: %+v", a)
	}
	if b := agentNamed(f, "agent"); b == nil || b.Ctor != "ToolLoopAgent" || b.Name != "agent" {
		t.Errorf("ToolLoopAgent: %+v", b)
	}

	// needsApproval: true gates every call of the tool.
	f = vercel(t, "true", "{}")
	if se := toolNamed(f, "sendEmail"); len(se.Approvals) != 1 || !se.Approvals[0].All {
		t.Errorf("needsApproval: true: %+v", se.Approvals)
	}
	// A function decides per call: recorded, gates nothing.
	f = vercel(t, "async ({ to }) => to.endsWith('@corp.example')", "{}")
	if se := toolNamed(f, "sendEmail"); len(se.Approvals) != 1 || se.Approvals[0].All || se.Approvals[0].Detail != "conditional" {
		t.Errorf("needsApproval function: %+v", se.Approvals)
	}
	// toolApproval on the call: "user-approval" gates that tool.
	f = vercel(t, "false", `{ sendEmail: "user-approval", readNotes: "approved" }`)
	if ap := agentNamed(f, "triage").Approvals; len(ap) != 1 || !ap[0].Covers("sendEmail", "") || ap[0].Covers("readNotes", "") {
		t.Errorf("toolApproval: %+v", ap)
	}
	f = vercel(t, "false", `(call) => "approved"`)
	if ap := agentNamed(f, "triage").Approvals; len(ap) != 1 || ap[0].Covers("sendEmail", "") || ap[0].Detail != "conditional" {
		t.Errorf("toolApproval function: %+v", ap)
	}
}

func TestOpenAIAgentsJS(t *testing.T) {
	src := `import { Agent, tool, webSearchTool, hostedMcpTool, run } from "@openai/agents";
import { z } from "zod";

const post = tool({
  name: "post_to_slack",
  description: "Post",
  parameters: z.object({ text: z.string() }),
  needsApproval: true,
  execute: async ({ text }) => fetch("https://hooks.example", { method: "POST", body: text }),
});
const lookup = tool({ name: "lookup", description: "l", parameters: z.object({}), execute: async () => "x" });
const researcher = new Agent({ name: "researcher", tools: [webSearchTool()] });
export const support = new Agent({
  name: "support_agent",
  tools: [lookup, post, researcher.asTool({ toolName: "research", toolDescription: "r" }),
    hostedMcpTool({ serverLabel: "gh", serverUrl: "https://mcp.example", requireApproval: "always" })],
  handoffs: [researcher],
});
export const answer = (q: string) => run(support, q);
`
	f := parse(t, "assistant.ts", src)
	post := toolNamed(f, "post_to_slack")
	if post == nil || post.Framework != extract.FrameworkOpenAIAgents || post.Symbol != "post" || post.Func == nil || len(post.Approvals) != 1 || !post.Approvals[0].All {
		t.Fatalf("post_to_slack: %+v", post)
	}
	if l := toolNamed(f, "lookup"); l == nil || len(l.Approvals) != 0 {
		t.Errorf("lookup: %+v", l)
	}
	if r := toolNamed(f, "research"); r == nil || r.Kind != extract.ToolAgent || r.AgentRef == nil || r.AgentRef.Name != "researcher" {
		t.Errorf("asTool: %+v", r)
	}
	if w := toolNamed(f, "webSearchTool"); w == nil || w.Kind != extract.ToolPrebuilt || w.Class != "@openai/agents.webSearchTool" {
		t.Errorf("hosted tool: %+v", w)
	}
	if g := toolNamed(f, "gh"); g == nil || len(g.Approvals) != 1 || !g.Approvals[0].All {
		t.Errorf("hostedMcpTool requireApproval always: %+v", g)
	}
	var sup *extract.Agent
	for _, a := range f.Agents {
		if a.Name == "support_agent" {
			sup = a
		}
	}
	if sup == nil || len(sup.Tools) != 4 || len(sup.Handoffs) != 1 || sup.Var != "support" {
		t.Fatalf("support agent: %+v", sup)
	}
}

// A tool a top-level factory returns is named after the factory (the key a
// tools object gives it, and what fixes name); an unassigned one not
// returned keeps the callee@line name.
func TestVercelFactoryToolNames(t *testing.T) {
	f := parse(t, "tools.ts", `import { tool } from "ai";
import { z } from "zod";
export const createDocument = (who: string) =>
  tool({ description: "d", inputSchema: z.object({}), execute: async () => who });
export function makeSend() {
  return tool({ description: "s", inputSchema: z.object({}), execute: async () => 1 });
}
register(tool({ description: "k", inputSchema: z.object({}), execute: async () => 2 }));
`)
	var names []string
	for _, x := range f.Tools {
		names = append(names, x.Name)
	}
	for _, n := range []string{"createDocument", "makeSend", "tool@9"} {
		if toolNamed(f, n) == nil {
			t.Errorf("no tool named %s among %v", n, names)
		}
	}
}
