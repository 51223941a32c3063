// Every tool of the app, by the name agents give it.
import { sendEmail } from "./mail";
import { readNotes } from "./notes";
import { readPage } from "./web";

export const appTools = {
  read_notes: readNotes,
  read_page: readPage,
  send_email: sendEmail,
};
