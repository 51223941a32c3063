// An analyst on the AI SDK that reads the user's own notes and works out
// numbers in OpenAI's hosted containers. The containers are made for the
// request with no network policy and no uploaded files, so the code the
// model writes can neither reach the notes nor send anything anywhere.
import { readFile } from "node:fs/promises";

import { openai } from "@ai-sdk/openai";
import { tool, ToolLoopAgent } from "ai";
import { z } from "zod";

const readNotes = tool({
  description: "Read one of the user's notes.",
  inputSchema: z.object({ name: z.string() }),
  execute: async ({ name }) => readFile(`notes/${name.replace(/[^a-z0-9-]/gi, "")}.md`, "utf8"),
});

export const analyst = new ToolLoopAgent({
  model: openai("gpt-5"),
  instructions: "Answer from the user's notes; compute in the container.",
  tools: {
    read_notes: readNotes,
    code_interpreter: openai.tools.codeInterpreter(),
    shell: openai.tools.shell({ environment: { type: "containerAuto" } }),
  },
});
