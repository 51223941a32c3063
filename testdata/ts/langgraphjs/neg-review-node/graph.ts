// A newsletter digest on LangGraph.js: fetch the subscribed pages, draft a
// digest with the model, then a person reviews it before it is mailed.
// The review node calls interrupt() before anything else, and every path to
// the send node passes it.
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
  const answer = interrupt<{ digest: string }, { approved: boolean }>({ digest: state.digest });
  return { approved: answer.approved };
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
