// The customer database (private).
import { tool } from "@openai/agents";
import pg from "pg";
import { z } from "zod";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });

export const lookupCustomers = tool({
  name: "lookup_customers",
  description: "Find customers by name in the CRM database.",
  parameters: z.object({ name: z.string() }),
  execute: async ({ name }) => {
    const { rows } = await pool.query("SELECT name, email, phone FROM customers WHERE name ILIKE $1", [`%${name}%`]);
    return JSON.stringify(rows);
  },
});
