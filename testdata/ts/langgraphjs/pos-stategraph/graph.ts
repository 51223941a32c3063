// A ticket triage graph on LangGraph.js built by hand: a model node bound to
// three tools and a ToolNode that runs whatever the model asks for. The
// tickets come from customers (untrusted), the billing lookup is private,
// and the GitHub tool opens public issues, with no step asking first.
import { tool } from "@langchain/core/tools";
import { AIMessage } from "@langchain/core/messages";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
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
  .compile();
