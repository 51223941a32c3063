// The support agent on OpenAI Agents JS, approved: post_to_slack has
// needsApproval, so the run stops with an interruption for the user before
// anything is posted.
import { Agent, run, tool } from "@openai/agents";
import { WebClient } from "@slack/web-api";
import pg from "pg";
import { z } from "zod";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
const slack = new WebClient(process.env.SLACK_BOT_TOKEN);

const searchForum = tool({
  name: "search_forum",
  description: "Search the public community forum and return the matching posts.",
  parameters: z.object({ query: z.string() }),
  execute: async ({ query }) => {
    const res = await fetch(`https://forum.example.com/search.json?q=${encodeURIComponent(query)}`);
    return await res.text();
  },
});

const lookupCustomers = tool({
  name: "lookup_customers",
  description: "Find customers by name in the CRM database.",
  parameters: z.object({ name: z.string() }),
  execute: async ({ name }) => {
    const { rows } = await pool.query("SELECT name, email, phone FROM customers WHERE name ILIKE $1", [`%${name}%`]);
    return JSON.stringify(rows);
  },
});

const postToSlack = tool({
  name: "post_to_slack",
  description: "Post a message to a Slack channel.",
  needsApproval: true,
  parameters: z.object({ channel: z.string(), text: z.string() }),
  execute: async ({ channel, text }) => {
    const res = await slack.chat.postMessage({ channel, text });
    return res.ok ? `posted ${res.ts}` : `failed: ${res.error}`;
  },
});

export const supportAgent = new Agent({
  name: "support_agent",
  instructions: "You answer support questions using the forum and the CRM, and keep the team posted on Slack.",
  model: "gpt-4.1-mini",
  tools: [searchForum, lookupCustomers, postToSlack],
});

export async function answer(question: string): Promise<string | undefined> {
  const result = await run(supportAgent, question);
  return result.finalOutput;
}
