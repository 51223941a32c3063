package gate_test

import (
	"strings"
	"testing"
)

// The TypeScript agents' fixes: needsApproval: true in the tool's options
// (OpenAI Agents JS, and the AI SDK's per-tool flag), on a line of its own
// in a multi-line literal, after the brace in a one-line one, replacing a
// false; the result parses, clears the finding and is not planned twice.
func TestTypeScriptNeedsApproval(t *testing.T) {
	const head = `import { Agent, tool } from "@openai/agents";
import { z } from "zod";

// Untrusted page text, private rows and an outward post, nothing approved.
const fetchPage = tool({ name: "fetch_page", description: "d", parameters: z.object({ url: z.string() }), execute: async ({ url }) => (await fetch(url)).text() });
const lookup = tool({
  name: "lookup",
  description: "d",
  parameters: z.object({}),
  execute: async () => readSecret(),
});
const post = tool({
  name: "post",
  description: "d",
  parameters: z.object({ text: z.string() }),
  needsApproval: false,
  execute: async ({ text }) => sendOut(text),
});
export const support = new Agent({ name: "support", tools: [fetchPage, lookup, post] });
`
	files := map[string]string{"src/assistant.ts": head}
	fixed := strings.NewReplacer(
		`const fetchPage = tool({ name:`, `const fetchPage = tool({ needsApproval: true, name:`,
		"const lookup = tool({\n  name:", "const lookup = tool({\n  needsApproval: true,\n  name:",
		"needsApproval: false,", "needsApproval: true,",
	).Replace(head)
	check(t, files, "rule-of-two", "support", nil, "", map[string]string{"src/assistant.ts": fixed})
}

func TestVercelAINeedsApproval(t *testing.T) {
	src := `import { generateText, tool } from "ai";
import { z } from "zod";

const readAll = tool({
  description: "Reads anything and sends it anywhere.",
  inputSchema: z.object({ q: z.string() }),
  execute: async ({ q }) => doAnything(q),
});

export async function run(prompt: string) {
  const { text } = await generateText({ model: "m", prompt, tools: { readAll } });
  return text;
}
`
	want := strings.Replace(src, "tool({\n  description", "tool({\n  needsApproval: true,\n  description", 1)
	check(t, map[string]string{"agent.ts": src}, "rule-of-two", "run", nil, "Require human approval before readAll (needsApproval: true)", map[string]string{"agent.ts": want})
}
