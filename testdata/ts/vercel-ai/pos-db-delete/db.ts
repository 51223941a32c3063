// The app's own database, through Drizzle ORM on postgres.js.
import { desc, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import { pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import postgres from "postgres";

export const note = pgTable("note", {
  id: uuid("id").primaryKey().defaultRandom(),
  userId: text("user_id").notNull(),
  body: text("body").notNull(),
  createdAt: timestamp("created_at").defaultNow().notNull(),
});

const client = postgres(process.env.POSTGRES_URL ?? "");
const db = drizzle(client);

export async function notesOf(userId: string) {
  return db.select().from(note).where(eq(note.userId, userId)).orderBy(desc(note.createdAt));
}

export async function saveNote(userId: string, body: string) {
  return db.insert(note).values({ userId, body }).returning();
}

export async function deleteNote(id: string) {
  return db.delete(note).where(eq(note.id, id));
}
