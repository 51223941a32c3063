// Every tool of the mail package, re-exported whole.
export * from "./mail.js";
