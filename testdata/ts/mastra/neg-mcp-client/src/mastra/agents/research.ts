// A research agent whose tools come from the MCP servers its MCPClient
// starts: here only a Wikipedia reader.
import { Agent } from "@mastra/core/agent";
import { MCPClient } from "@mastra/mcp";

const mcp = new MCPClient({
  servers: {
    wikipedia: { command: "npx", args: ["-y", "wikipedia-mcp"] },
  },
});

export const researchAgent = new Agent({
  id: "research-agent",
  name: "Research Agent",
  instructions: "Answer questions from Wikipedia articles.",
  model: "openai/gpt-4o-mini",
  tools: await mcp.listTools(),
});
