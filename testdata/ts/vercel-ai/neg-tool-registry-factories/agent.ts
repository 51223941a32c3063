// A bot's reply function: every tool set the factories return, spread
// into one registry and handed to generateText.
import { openai } from "@ai-sdk/openai";
import { generateText, stepCountIs } from "ai";
import { createAllTools } from "./tools/index.js";

function logged(name: string, fn: (args: any) => Promise<string>) {
  return async (args: any) => {
    console.log("tool", name);
    return fn(args);
  };
}

export async function generateResponse(prompt: string) {
  const tools = createAllTools({ executor: logged });
  const { text } = await generateText({ model: openai("gpt-4o"), prompt, tools, stopWhen: stepCountIs(10) });
  return text;
}
