// The mail tool of the notes agent: it mails anyone the model names.
import { createTool } from "@mastra/core/tools";
import nodemailer from "nodemailer";
import { z } from "zod";

export const sendEmail = createTool({
  id: "send-email",
  description: "Send an email on the user's behalf.",
  inputSchema: z.object({ to: z.string(), subject: z.string(), body: z.string() }),
  execute: async ({ to, subject, body }) => {
    const transport = nodemailer.createTransport({ host: process.env.SMTP_HOST, port: 587 });
    const info = await transport.sendMail({ from: process.env.SMTP_USER, to, subject, text: body });
    return { id: info.messageId };
  },
});
