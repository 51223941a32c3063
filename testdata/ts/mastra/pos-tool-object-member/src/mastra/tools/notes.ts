// The user's private notes, from their home directory.
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";

import { createTool } from "@mastra/core/tools";
import { z } from "zod";

export const readNotes = createTool({
  id: "read-notes",
  description: "Return the user's private notes.",
  inputSchema: z.object({}),
  execute: async () => ({ notes: await readFile(path.join(homedir(), "notes.md"), "utf8") }),
});
