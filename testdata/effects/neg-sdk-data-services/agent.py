import os

import asyncpg
import gitlab
import gspread
import openpyxl
import praw
import pymupdf
from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent
from pinecone import Pinecone
from qdrant_client import QdrantClient
from qdrant_client.models import PointStruct
from supabase import create_client


@tool
def list_notes(user_id: str) -> list[dict]:
    """A user's notes: reads_private."""
    client = create_client(os.environ["SUPABASE_URL"], os.environ["SUPABASE_KEY"])
    return client.table("notes").select("id, title, body").eq("user_id", user_id).order("created_at", desc=True).limit(20).execute().data


@tool
def add_note(user_id: str, title: str, body: str) -> str:
    """Store a note: writes_state."""
    client = create_client(os.environ["SUPABASE_URL"], os.environ["SUPABASE_KEY"])
    client.table("notes").insert({"user_id": user_id, "title": title, "body": body}).execute()
    return "saved"


@tool
def save_profile(user_id: str, name: str) -> str:
    """Upsert a profile row: writes_state."""
    client = create_client(os.environ["SUPABASE_URL"], os.environ["SUPABASE_KEY"])
    client.table("profiles").upsert({"id": user_id, "name": name}).execute()
    client.table("profiles").update({"seen": True}).eq("id", user_id).execute()
    return "saved"


@tool
def receipt_text(path: str) -> str:
    """Download a stored receipt: reads_private."""
    client = create_client(os.environ["SUPABASE_URL"], os.environ["SUPABASE_KEY"])
    return client.storage.from_("receipts").download(path).decode()


@tool
async def order_total(customer_id: int) -> float:
    """Sum a customer's orders: reads_private."""
    pool = await asyncpg.create_pool(os.environ["DATABASE_URL"])
    async with pool.acquire() as conn:
        total = await conn.fetchval("SELECT sum(amount) FROM orders WHERE customer_id = $1", customer_id)
    await pool.close()
    return float(total or 0)


@tool
async def record_payment(customer_id: int, amount: float) -> str:
    """Insert a payment row: writes_state."""
    conn = await asyncpg.connect(os.environ["DATABASE_URL"])
    await conn.execute("INSERT INTO payments (customer_id, amount) VALUES ($1, $2)", customer_id, amount)
    await conn.close()
    return "recorded"


@tool
def invoice_text(path: str) -> str:
    """Text of a local PDF: reads_private."""
    doc = pymupdf.open(path)
    text = "\n".join(doc.load_page(i).get_text() for i in range(doc.page_count))
    doc.close()
    return text


@tool
def budget_rows(path: str) -> list[list]:
    """Rows of a local workbook: reads_private."""
    wb = openpyxl.load_workbook(path, read_only=True)
    ws = wb.active
    return [list(row) for row in ws.iter_rows(values_only=True)]


@tool
def export_budget(path: str, rows: list[list]) -> str:
    """Write a workbook: writes_state."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Budget"
    for row in rows:
        ws.append(row)
    wb.save(path)
    return path


@tool
def remember(doc_id: str, vector: list[float], text: str) -> str:
    """Store a passage in Pinecone: writes_state."""
    index = Pinecone(api_key=os.environ["PINECONE_API_KEY"]).Index("notes")
    index.upsert(vectors=[{"id": doc_id, "values": vector, "metadata": {"text": text}}])
    return "stored"


@tool
def index_passage(point_id: int, vector: list[float], text: str) -> str:
    """Store a passage in Qdrant: writes_state."""
    client = QdrantClient(url=os.environ["QDRANT_URL"])
    client.upsert(collection_name="notes", points=[PointStruct(id=point_id, vector=vector, payload={"text": text})])
    return "indexed"


@tool
def reddit_search(query: str) -> list[str]:
    """Search Reddit: untrusted_input."""
    reddit = praw.Reddit("agent")
    return [p.title for p in reddit.subreddit("all").search(query, limit=10)]


@tool
def reddit_comments(submission_id: str) -> list[str]:
    """A post's comments: untrusted_input."""
    submission = praw.Reddit("agent").submission(id=submission_id)
    submission.comments.replace_more(limit=0)
    return [c.body for c in submission.comments.list()]


@tool
def sheet_values(key: str, cell: str) -> str:
    """Read a shared sheet: reads_private, untrusted_input."""
    ws = gspread.service_account().open_by_key(key).sheet1
    return str(ws.acell(cell).value) + "\n" + str(ws.get_all_values())


@tool
def merge_requests(project_id: int) -> list[str]:
    """Open merge requests: reads_private, untrusted_input."""
    gl = gitlab.Gitlab.from_config("work")
    return [mr.title for mr in gl.projects.get(project_id).mergerequests.list(state="opened")]


bookkeeper = create_react_agent("openai:gpt-4o", [list_notes, add_note, save_profile, receipt_text, order_total,
                                                  record_payment, invoice_text, budget_rows, export_budget, remember,
                                                  index_passage])
scout = create_react_agent("openai:gpt-4o", [reddit_search, reddit_comments])
reader = create_react_agent("openai:gpt-4o", [sheet_values, merge_requests])
