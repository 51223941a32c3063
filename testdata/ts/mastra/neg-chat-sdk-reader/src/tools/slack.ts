// Read-only Slack tools: a thread's messages (what colleagues and guests
// wrote: untrusted, and the workspace's own: private), a channel's
// metadata and the files shared in it. Nothing is posted or changed.
import { createTool } from "@mastra/core/tools";
import { z } from "zod";

import { chat } from "../chat/instance";
import { slack } from "../chat/client";

export const readThread = createTool({
  id: "read_thread",
  description: "Read the messages of a Slack thread.",
  inputSchema: z.object({ threadId: z.string(), limit: z.number().int().max(200).default(40) }),
  execute: async ({ threadId, limit }) => {
    const { channel } = slack.decodeThreadId(threadId);
    const result = await slack.fetchMessages(threadId, { limit });
    return {
      channel,
      link: slack.threadLink(threadId),
      messages: result.messages.map((m) => `${m.author.userName}: ${m.text}`),
    };
  },
});

export const channelInfo = createTool({
  id: "channel_info",
  description: "Name, topic and member count of a Slack channel.",
  inputSchema: z.object({ channelId: z.string() }),
  execute: async ({ channelId }) => {
    const info = await chat().channel(channelId).fetchMetadata();
    return { name: info.name, members: info.memberCount };
  },
});

export const listFiles = createTool({
  id: "list_files",
  description: "Files shared in a Slack channel.",
  inputSchema: z.object({ channelId: z.string() }),
  execute: async ({ channelId }) => {
    const res = await slack.webClient.files.list({ channel: channelId, count: 20 });
    return { files: (res.files ?? []).map((f) => f.name ?? "") };
  },
});
