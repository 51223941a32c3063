// An analyst that searches the web and runs code in an existing hosted
// container named by id, whose files and network policy were set where it
// was made; it can also shorten links through a hosted MCP server that asks
// the user before every call.
import { openai } from "@ai-sdk/openai";
import { ToolLoopAgent } from "ai";

export const analyst = new ToolLoopAgent({
  model: openai("gpt-5"),
  instructions: "Search the web, compute in the container, and shorten links when asked.",
  tools: {
    web_search: openai.tools.webSearch({}),
    code_interpreter: openai.tools.codeInterpreter({ container: process.env.ANALYST_CONTAINER_ID ?? "cntr_shared" }),
    shortener: openai.tools.mcp({
      serverLabel: "shortener",
      serverUrl: "https://mcp.shortener.example.com/mcp",
      requireApproval: "always",
    }),
  },
});
