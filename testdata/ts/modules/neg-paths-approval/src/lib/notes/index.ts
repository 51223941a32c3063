// The notes store: the user's private notes on disk.
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";

import { tool } from "ai";
import { z } from "zod";

export const readNotes = tool({
  description: "Return the user's private notes.",
  inputSchema: z.object({}),
  execute: async () => readFile(join(homedir(), "notes.md"), "utf8"),
});
