// The server's outward call, in a module of its own.
import axios from "axios";

export async function postJson(url: string, payload: string): Promise<number> {
  const res = await axios.post(url, JSON.parse(payload), { timeout: 10_000 });
  return res.status;
}
