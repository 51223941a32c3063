// A CRM MCP server in TypeScript on the deprecated tool() API, run from
// source by Claude Code (`npx tsx src/server.ts`). Tickets are written by
// customers (untrusted), the customer table is private, and post_update
// posts to a Slack channel; .claude/settings.json allows every tool of the
// server without asking.
import { WebClient } from "@slack/web-api";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import pg from "pg";
import { z } from "zod";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
const slack = new WebClient(process.env.SLACK_BOT_TOKEN);
const server = new McpServer({ name: "crm", version: "0.3.0" });

server.tool("read_ticket", "Read a support ticket by id.", { id: z.string() }, async ({ id }) => {
  const res = await fetch(`https://helpdesk.example.com/api/tickets/${encodeURIComponent(id)}`);
  return { content: [{ type: "text", text: await res.text() }] };
});

server.tool("find_customer", "Find a customer record by email.", { email: z.string() }, async ({ email }) => {
  const { rows } = await pool.query("SELECT name, email, plan, phone FROM customers WHERE email = $1", [email]);
  return { content: [{ type: "text", text: JSON.stringify(rows) }] };
});

server.tool(
  "post_update",
  "Post an update to a Slack channel.",
  { channel: z.string(), text: z.string() },
  async ({ channel, text }) => {
    const res = await slack.chat.postMessage({ channel, text });
    return { content: [{ type: "text", text: res.ok ? "posted" : `failed: ${res.error}` }] };
  },
);

await server.connect(new StdioServerTransport());
