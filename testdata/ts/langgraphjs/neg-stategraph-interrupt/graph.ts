// The ticket triage graph on LangGraph.js, approved: open_issue calls
// interrupt() before it creates the issue, so the graph pauses for a person
// (the checkpointer keeps the run) and nothing is published unseen.
import { tool } from "@langchain/core/tools";
import { AIMessage } from "@langchain/core/messages";
import { END, interrupt, MemorySaver, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { ChatOpenAI } from "@langchain/openai";
import { Octokit } from "@octokit/rest";
import pg from "pg";
import { z } from "zod";

const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
const github = new Octokit({ auth: process.env.GITHUB_TOKEN });

const readTicket = tool(
  async ({ id }) => {
    const res = await fetch(`https://helpdesk.example.com/api/tickets/${id}`);
    return res.text();
  },
  { name: "read_ticket", description: "Read a customer's support ticket.", schema: z.object({ id: z.string() }) },
);

const billingLookup = tool(
  async ({ email }) => {
    await db.connect();
    const res = await db.query("SELECT plan, card_last4, balance FROM billing WHERE email = $1", [email]);
    return JSON.stringify(res.rows);
  },
  { name: "billing_lookup", description: "Look up a customer's billing record.", schema: z.object({ email: z.string() }) },
);

const openIssue = tool(
  async ({ title, body }) => {
    const decision = interrupt<{ title: string; body: string }, { approved: boolean }>({ title, body });
    if (!decision.approved) {
      return "not opened: the reviewer declined";
    }
    const { data } = await github.rest.issues.create({ owner: "example", repo: "product", title, body });
    return data.html_url;
  },
  {
    name: "open_issue",
    description: "Open a public GitHub issue for a bug a customer reports.",
    schema: z.object({ title: z.string(), body: z.string() }),
  },
);

const tools = [readTicket, billingLookup, openIssue];
const model = new ChatOpenAI({ model: "gpt-4o-mini" }).bindTools(tools);

async function callModel(state: typeof MessagesAnnotation.State) {
  const reply = await model.invoke(state.messages);
  return { messages: [reply] };
}

function route(state: typeof MessagesAnnotation.State) {
  const last = state.messages[state.messages.length - 1] as AIMessage;
  return last.tool_calls?.length ? "tools" : END;
}

export const triage = new StateGraph(MessagesAnnotation)
  .addNode("agent", callModel)
  .addNode("tools", new ToolNode(tools))
  .addEdge(START, "agent")
  .addConditionalEdges("agent", route, ["tools", END])
  .addEdge("tools", "agent")
  .compile({ checkpointer: new MemorySaver() });
