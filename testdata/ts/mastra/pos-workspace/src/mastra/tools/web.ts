// A web page reader: third parties write what it returns.
import { createTool } from "@mastra/core/tools";
import { z } from "zod";

export const readPage = createTool({
  id: "read-page",
  description: "Fetch a web page and return its text.",
  inputSchema: z.object({ url: z.string().url() }),
  execute: async ({ url }) => ({ text: await (await fetch(url)).text() }),
});
