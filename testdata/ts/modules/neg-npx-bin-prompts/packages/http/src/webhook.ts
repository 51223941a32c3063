// Posting JSON to a webhook the caller names.
import axios from "axios";

export async function postJson(url: string, payload: string): Promise<number> {
  const res = await axios.post(url, { payload });
  return res.status;
}
