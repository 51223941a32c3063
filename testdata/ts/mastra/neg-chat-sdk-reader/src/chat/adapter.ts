// The app's Slack adapter: the Chat SDK's SlackAdapter with one helper of
// its own. Everything else (fetchMessages, decodeThreadId, webClient) is
// the library's.
import { SlackAdapter } from "@chat-adapter/slack";

export class ReaderSlackAdapter extends SlackAdapter {
  threadLink(threadId: string): string {
    const { channel, threadTs } = this.decodeThreadId(threadId);
    return `https://slack.com/archives/${channel}/p${threadTs.replace(".", "")}`;
  }
}
