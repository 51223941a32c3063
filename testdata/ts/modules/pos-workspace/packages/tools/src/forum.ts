// The public community forum: posts anyone can write.
import { tool } from "@openai/agents";
import { z } from "zod";

export const searchForum = tool({
  name: "search_forum",
  description: "Search the public community forum and return the matching posts.",
  parameters: z.object({ query: z.string() }),
  execute: async ({ query }) => {
    const res = await fetch(`https://forum.example.com/search.json?q=${encodeURIComponent(query)}`);
    return await res.text();
  },
});
