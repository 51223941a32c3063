// The twin of neg-mcp-client whose MCPClient also starts the filesystem
// server on the user's documents: Wikipedia text a stranger can edit sits
// beside reads and writes of the user's own files.
import { Agent } from "@mastra/core/agent";
import { MCPClient } from "@mastra/mcp";

const mcp = new MCPClient({
  servers: {
    wikipedia: { command: "npx", args: ["-y", "wikipedia-mcp"] },
    files: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/home/user/Documents"] },
  },
});

export const researchAgent = new Agent({
  id: "research-agent",
  name: "Research Agent",
  instructions: "Answer questions from Wikipedia and keep notes in the user's documents.",
  model: "openai/gpt-4o-mini",
  tools: await mcp.listTools(),
});
