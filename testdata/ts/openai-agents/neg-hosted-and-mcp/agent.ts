// A docs assistant on OpenAI Agents JS with hosted tools and a local MCP
// server: web search, the public DeepWiki server (hosted MCP, known by its
// URL) and the filesystem server on the project's own sample files, run
// with node from its installed package and filtered to its read tools.
import { createRequire } from "node:module";
import * as path from "node:path";

import { Agent, MCPServerStdio, createMCPToolStaticFilter, hostedMcpTool, run, webSearchTool } from "@openai/agents";

const require = createRequire(import.meta.url);

export async function docsAssistant(question: string): Promise<string> {
  // The server's own entry run with the current node, as the SDK's
  // examples do: require.resolve names the package.
  const filesystem = new MCPServerStdio({
    name: "Filesystem",
    command: process.execPath,
    args: [require.resolve("@modelcontextprotocol/server-filesystem/dist/index.js"), path.join(process.cwd(), "samples")],
    toolFilter: createMCPToolStaticFilter({ allowed: ["read_file", "list_directory"] }),
  });
  await filesystem.connect();
  try {
    const agent = new Agent({
      name: "Docs assistant",
      instructions: "Answer from the web, DeepWiki and the sample files.",
      tools: [webSearchTool(), hostedMcpTool({ serverLabel: "deepwiki", serverUrl: "https://mcp.deepwiki.com/mcp" })],
      mcpServers: [filesystem],
    });
    const result = await run(agent, question);
    return String(result.finalOutput);
  } finally {
    await filesystem.close();
  }
}
