// A personal assistant over the user's own data: notes in MongoDB, a Redis
// cache, reports in S3; it summarises text the user gives it with Claude,
// pulls the links out of HTML the user pastes (cheerio parses, fetches
// nothing), files a page in Notion and texts or mails the user. Nothing
// here reads text a stranger wrote, so no tool can be steered into
// sending the notes out.
import sgMail from "@sendgrid/mail";
import { openai } from "@ai-sdk/openai";
import { generateText, stepCountIs, tool } from "ai";
import * as cheerio from "cheerio";
import { z } from "zod";
import Anthropic from "@anthropic-ai/sdk";
import { S3 } from "@aws-sdk/client-s3";
import { Client as Notion } from "@notionhq/client";
import Redis from "ioredis";
import { MongoClient } from "mongodb";
import { createClient } from "redis";
import twilio from "twilio";

// The clients, built once when the module loads.
const mongo = new MongoClient(process.env.MONGODB_URI ?? "mongodb://localhost:27017");
const cache = new Redis(process.env.REDIS_URL ?? "redis://localhost:6379");
const anthropic = new Anthropic();
const s3 = new S3({ region: "eu-west-1" });
const notion = new Notion({ auth: process.env.NOTION_TOKEN });
const sms = twilio(process.env.TWILIO_ACCOUNT_SID, process.env.TWILIO_AUTH_TOKEN);
const prefs = createClient({ url: process.env.REDIS_URL });

const notes = mongo.db("assistant").collection<{ userId: string; body: string }>("notes");

const findNotes = tool({
  description: "Find the user's notes that mention a word.",
  inputSchema: z.object({ userId: z.string(), word: z.string() }),
  execute: async ({ userId, word }) => {
    const cached = await cache.get(`notes:${userId}:${word}`);
    if (cached) {
      return cached;
    }
    const found = await notes.find({ userId, body: { $regex: word } }).limit(20).toArray();
    const text = found.map((n) => n.body).join("\n");
    await cache.set(`notes:${userId}:${word}`, text, "EX", 300);
    return text;
  },
});

const addNote = tool({
  description: "Save a note for the user.",
  inputSchema: z.object({ userId: z.string(), body: z.string() }),
  execute: async ({ userId, body }) => {
    const res = await notes.insertOne({ userId, body });
    return res.insertedId.toHexString();
  },
});

const setPreference = tool({
  description: "Remember one of the user's preferences.",
  inputSchema: z.object({ key: z.string(), value: z.string() }),
  execute: async ({ key, value }) => {
    await prefs.set(`pref:${key}`, value);
    return (await prefs.get(`pref:${key}`)) ?? "";
  },
});

const readReport = tool({
  description: "Read one of the user's reports.",
  inputSchema: z.object({ name: z.string() }),
  execute: async ({ name }) => {
    const out = await s3.getObject({ Bucket: "reports", Key: `${name}.md` });
    return (await out.Body?.transformToString()) ?? "";
  },
});

const summarise = tool({
  description: "Summarise a text the user gives.",
  inputSchema: z.object({ text: z.string() }),
  execute: async ({ text }) => {
    const msg = await anthropic.messages.create({
      model: "claude-sonnet-4-5",
      max_tokens: 512,
      messages: [{ role: "user", content: `Summarise:\n\n${text}` }],
    });
    return msg.content.map((b) => (b.type === "text" ? b.text : "")).join("");
  },
});

const extractLinks = tool({
  description: "List the links in an HTML snippet the user pastes.",
  inputSchema: z.object({ html: z.string() }),
  execute: async ({ html }) => {
    const $ = cheerio.load(html);
    return $("a")
      .map((_, a) => $(a).attr("href") ?? "")
      .get()
      .join("\n");
  },
});

const filePage = tool({
  description: "File a page in the user's Notion database.",
  inputSchema: z.object({ title: z.string() }),
  execute: async ({ title }) => {
    const page = await notion.pages.create({
      parent: { database_id: process.env.NOTION_DATABASE_ID ?? "" },
      properties: { Name: { title: [{ text: { content: title } }] } },
    });
    return page.id;
  },
});

const textMe = tool({
  description: "Text the user a reminder.",
  inputSchema: z.object({ body: z.string() }),
  execute: async ({ body }) => {
    const m = await sms.messages.create({ to: process.env.MY_PHONE ?? "", from: process.env.TWILIO_FROM ?? "", body });
    return m.sid;
  },
});

const mailMe = tool({
  description: "Mail the user a reminder.",
  inputSchema: z.object({ body: z.string() }),
  execute: async ({ body }) => {
    sgMail.setApiKey(process.env.SENDGRID_API_KEY ?? "");
    await sgMail.send({ to: process.env.MY_EMAIL ?? "", from: "assistant@example.com", subject: "Reminder", text: body });
    return "sent";
  },
});

export async function personalAssistant(prompt: string): Promise<string> {
  const { text } = await generateText({
    model: openai("gpt-4o-mini"),
    prompt,
    tools: { findNotes, addNote, setPreference, readReport, summarise, extractLinks, filePage, textMe, mailMe },
    stopWhen: stepCountIs(10),
  });
  return text;
}
