import { WebClient } from "@slack/web-api";

// The team's Slack wrapper: the client is a field set in the constructor.
export class Notifier {
  private client: WebClient;

  constructor(token = process.env.SLACK_BOT_TOKEN) {
    this.client = new WebClient(token);
  }

  async post(channel: string, text: string) {
    const res = await this.client.chat.postMessage({ channel, text });
    return res.ts ?? "";
  }
}
