import { ReaderSlackAdapter } from "./adapter";

export const slack = new ReaderSlackAdapter({
  mode: "socket",
  appToken: process.env.SLACK_APP_TOKEN,
  botToken: process.env.SLACK_BOT_TOKEN,
});
