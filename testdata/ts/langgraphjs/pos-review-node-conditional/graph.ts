// neg-review-node with a review that asks a person only for long digests:
// a short one is mailed unseen.
import { END, interrupt, MemorySaver, START, StateGraph } from "@langchain/langgraph";
import { ChatOpenAI } from "@langchain/openai";
import nodemailer from "nodemailer";

import { DigestAnnotation, type DigestState } from "./state.js";

const model = new ChatOpenAI({ model: "gpt-4o-mini" });

async function fetchPages(state: DigestState) {
  const pages: string[] = [];
  for (const url of state.sources) {
    const res = await fetch(url);
    pages.push(await res.text());
  }
  return { pages };
}

async function draftDigest(state: DigestState) {
  const reply = await model.invoke(`Summarise these pages as a newsletter:\n\n${state.pages.join("\n\n")}`);
  return { digest: String(reply.content) };
}

function review(state: DigestState) {
  if (state.digest.length > 2000) {
    const answer = interrupt<{ digest: string }, { approved: boolean }>({ digest: state.digest });
    return { approved: answer.approved };
  }
  return { approved: true };
}

async function sendDigest(state: DigestState) {
  const mailer = nodemailer.createTransport({ host: "smtp.example.com", port: 587 });
  await mailer.sendMail({ from: "digest@example.com", to: "team@example.com", subject: "Digest", text: state.digest });
  return {};
}

function afterReview(state: DigestState) {
  return state.approved ? "send" : END;
}

const workflow = new StateGraph(DigestAnnotation)
  .addNode("fetch", fetchPages)
  .addNode("draft", draftDigest)
  .addNode("review", review)
  .addNode("send", sendDigest)
  .addEdge(START, "fetch")
  .addEdge("fetch", "draft")
  .addEdge("draft", "review");

workflow.addConditionalEdges("review", afterReview, ["send", END]).addEdge("send", END);

export const digest = workflow.compile({ checkpointer: new MemorySaver() });
