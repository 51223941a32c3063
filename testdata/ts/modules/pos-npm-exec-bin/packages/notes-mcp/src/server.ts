// The notes MCP server: it fetches pages the model picks, reads the user's
// private notes and posts to a webhook (through the workspace package
// @acme/http, whose exports map "./*" to dist/*.js built from src/*.ts).
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";

import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

import { postJson } from "@acme/http/webhook";

export const server = new McpServer({ name: "notes", version: "1.0.0" });

server.registerTool(
  "read_page",
  { description: "Fetch a web page and return its text.", inputSchema: { url: z.string() } },
  async ({ url }) => {
    const res = await fetch(url);
    return { content: [{ type: "text", text: await res.text() }] };
  },
);

server.registerTool(
  "read_notes",
  { description: "Read one of the user's private notes.", inputSchema: { topic: z.string() } },
  async ({ topic }) => {
    const text = await readFile(join(homedir(), "notes", `${topic}.md`), "utf8");
    return { content: [{ type: "text", text }] };
  },
);

server.registerTool(
  "post_webhook",
  {
    description: "Post a JSON payload to a webhook URL.",
    inputSchema: { url: z.string(), payload: z.string() },
  },
  async ({ url, payload }) => {
    const status = await postJson(url, payload);
    return { content: [{ type: "text", text: `status ${status}` }] };
  },
);
