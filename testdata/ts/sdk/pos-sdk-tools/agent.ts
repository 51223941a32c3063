// A research assistant that scrapes and searches the web, reads a Discord
// channel, keeps the user's notes in Supabase and can delete them, mails
// summaries and archives reports to S3, all with no approval: a scraped
// page or a channel message can make it delete the notes or mail them out.
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { openai } from "@ai-sdk/openai";
import { generateText, stepCountIs, tool } from "ai";
import { z } from "zod";
import Firecrawl from "@mendable/firecrawl-js";
import { createClient } from "@supabase/supabase-js";
import { tavily } from "@tavily/core";
import { Client, GatewayIntentBits } from "discord.js";
import Exa from "exa-js";
import { Resend } from "resend";

// The clients, built once when the module loads.
const firecrawl = new Firecrawl({ apiKey: process.env.FIRECRAWL_API_KEY });
const search = tavily({ apiKey: process.env.TAVILY_API_KEY });
const supabase = createClient(process.env.SUPABASE_URL ?? "", process.env.SUPABASE_ANON_KEY ?? "");
const resend = new Resend(process.env.RESEND_API_KEY);
const discord = new Client({ intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages] });
const exa = new Exa(process.env.EXA_API_KEY);

const scrapePage = tool({
  description: "Scrape a web page and return it as markdown.",
  inputSchema: z.object({ url: z.string().url() }),
  execute: async ({ url }) => {
    const doc = await firecrawl.scrape(url, { formats: ["markdown"] });
    return doc.markdown ?? "";
  },
});

const searchWeb = tool({
  description: "Search the web.",
  inputSchema: z.object({ query: z.string() }),
  execute: async ({ query }) => {
    const res = await search.search(query, { maxResults: 5 });
    return res.results.map((r) => `${r.title}: ${r.content}`).join("\n");
  },
});

const findPages = tool({
  description: "Find pages like a description, with their text.",
  inputSchema: z.object({ query: z.string() }),
  execute: async ({ query }) => {
    const res = await exa.search(query, { numResults: 5 });
    const contents = await exa.getContents(res.results.map((r) => r.url), { text: true });
    return contents.results.map((r) => r.text).join("\n\n");
  },
});

const readChannel = tool({
  description: "Read the latest messages of a Discord channel.",
  inputSchema: z.object({ channelId: z.string() }),
  execute: async ({ channelId }) => {
    const channel = await discord.channels.fetch(channelId);
    if (!channel || !channel.isTextBased()) {
      return "not a text channel";
    }
    const messages = await channel.messages.fetch({ limit: 20 });
    return messages.map((m) => `${m.author.username}: ${m.content}`);
  },
});

const listNotes = tool({
  description: "List the user's notes.",
  inputSchema: z.object({ userId: z.string() }),
  execute: async ({ userId }) => {
    const { data, error } = await supabase
      .from("notes")
      .select("id, body")
      .eq("user_id", userId)
      .order("created_at", { ascending: false });
    if (error) {
      throw new Error(error.message);
    }
    return data;
  },
});

const deleteNote = tool({
  description: "Delete one of the user's notes.",
  inputSchema: z.object({ id: z.string() }),
  execute: async ({ id }) => {
    const { error } = await supabase.from("notes").delete().eq("id", id);
    return error ? error.message : "deleted";
  },
});

const mailSummary = tool({
  description: "Mail a summary to an address.",
  inputSchema: z.object({ to: z.string().email(), summary: z.string() }),
  execute: async ({ to, summary }) => {
    const { error } = await resend.emails.send({
      from: "assistant@example.com",
      to,
      subject: "Your summary",
      text: summary,
    });
    return error ? error.message : "sent";
  },
});

// S3Client.send runs whatever command it is given: acg cannot tell the
// command from the call, so this tool fails closed.
const archiveReport = tool({
  description: "Archive a report to the reports bucket.",
  inputSchema: z.object({ name: z.string(), body: z.string() }),
  execute: async ({ name, body }) => {
    const s3 = new S3Client({ region: "eu-west-1" });
    await s3.send(new PutObjectCommand({ Bucket: "reports", Key: `${name}.md`, Body: body }));
    return "archived";
  },
});

export async function researchAssistant(prompt: string): Promise<string> {
  const { text } = await generateText({
    model: openai("gpt-4o-mini"),
    prompt,
    tools: { scrapePage, searchWeb, findPages, readChannel, listNotes, deleteNote, mailSummary, archiveReport },
    stopWhen: stepCountIs(10),
  });
  return text;
}
