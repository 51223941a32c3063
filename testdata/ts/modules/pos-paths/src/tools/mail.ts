// Sending mail on the user's behalf.
import { tool } from "ai";
import nodemailer from "nodemailer";
import { z } from "zod";

export const sendEmail = tool({
  description: "Send an email on the user's behalf.",
  inputSchema: z.object({ to: z.string().email(), subject: z.string(), body: z.string() }),
  execute: async ({ to, subject, body }) => {
    const transport = nodemailer.createTransport({
      host: process.env.SMTP_HOST,
      port: 587,
      auth: { user: process.env.SMTP_USER, pass: process.env.SMTP_PASSWORD },
    });
    const info = await transport.sendMail({ from: process.env.SMTP_USER, to, subject, text: body });
    return `sent ${info.messageId}`;
  },
});
