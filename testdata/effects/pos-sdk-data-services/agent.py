import os

import asyncpg
import gitlab
import gspread
import praw
import resend
from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent
from pinecone import Pinecone
from qdrant_client import QdrantClient, models
from sendgrid import SendGridAPIClient
from sendgrid.helpers.mail import Mail
from supabase import create_client


@tool
def delete_note(note_id: int) -> str:
    """Delete a note row: irreversible, writes_state."""
    create_client(os.environ["SUPABASE_URL"], os.environ["SUPABASE_KEY"]).table("notes").delete().eq("id", note_id).execute()
    return "deleted"


@tool
def remove_upload(path: str) -> str:
    """Delete a stored file: irreversible, writes_state."""
    client = create_client(os.environ["SUPABASE_URL"], os.environ["SUPABASE_KEY"])
    client.storage.from_("uploads").remove([path])
    return "removed"


@tool
def store_upload(path: str, text: str) -> str:
    """Upload a file: network_egress, writes_state."""
    client = create_client(os.environ["SUPABASE_URL"], os.environ["SUPABASE_KEY"])
    client.storage.from_("uploads").upload(path, text.encode())
    return "stored"


@tool
def knowledge_search(vector: list[float]) -> list[str]:
    """Query a Pinecone index: reads_private, untrusted_input."""
    index = Pinecone(api_key=os.environ["PINECONE_API_KEY"]).Index("docs")
    res = index.query(vector=vector, top_k=5, include_metadata=True)
    return [m["metadata"]["text"] for m in res["matches"]]


@tool
def forget_vectors(ids: list[str]) -> str:
    """Delete vectors from a Pinecone index: irreversible, writes_state."""
    pc = Pinecone(api_key=os.environ["PINECONE_API_KEY"])
    pc.Index("docs").delete(ids=ids)
    return "forgotten"


@tool
def similar_points(vector: list[float]) -> list[dict]:
    """Query a Qdrant collection: reads_private, untrusted_input."""
    client = QdrantClient(url=os.environ["QDRANT_URL"])
    hits = client.query_points(collection_name="docs", query=vector, limit=5).points
    return [h.payload for h in hits]


@tool
def drop_points(ids: list[int]) -> str:
    """Delete points from a Qdrant collection: irreversible, writes_state."""
    client = QdrantClient(url=os.environ["QDRANT_URL"])
    client.delete(collection_name="docs", points_selector=models.PointIdsList(points=ids))
    return "dropped"


@tool
def sheet_rows(key: str) -> list[dict]:
    """Read a spreadsheet's rows: reads_private, untrusted_input."""
    gc = gspread.service_account()
    return gc.open_by_key(key).sheet1.get_all_records()


@tool
def sheet_append(key: str, name: str, amount: float) -> str:
    """Append a row: network_egress, writes_state."""
    gc = gspread.service_account()
    gc.open_by_key(key).worksheet("Expenses").append_row([name, amount])
    return "appended"


@tool
def sheet_prune(key: str, start: int, end: int) -> str:
    """Delete rows of a sheet: irreversible, writes_state."""
    gc = gspread.service_account()
    gc.open_by_key(key).sheet1.delete_rows(start, end)
    return "pruned"


@tool
def reddit_hot(subreddit: str) -> list[str]:
    """Read a subreddit's hot posts: untrusted_input."""
    reddit = praw.Reddit("agent")
    return [p.title + "\n" + p.selftext for p in reddit.subreddit(subreddit).hot(limit=10)]


@tool
def reddit_reply(submission_id: str, text: str) -> str:
    """Reply to a post: irreversible, network_egress."""
    reddit = praw.Reddit("agent")
    reddit.submission(id=submission_id).reply(body=text)
    return "replied"


@tool
def reddit_inbox() -> list[str]:
    """Read the account's unread messages: reads_private, untrusted_input."""
    reddit = praw.Reddit("agent")
    return [m.body for m in reddit.inbox.unread(limit=20)]


@tool
def gitlab_issues(project_id: int) -> list[str]:
    """List a project's open issues: reads_private, untrusted_input."""
    gl = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_TOKEN"])
    project = gl.projects.get(project_id)
    return [i.title + "\n" + (i.description or "") for i in project.issues.list(state="opened")]


@tool
def gitlab_comment(project_id: int, issue_iid: int, body: str) -> str:
    """Comment on an issue: irreversible, network_egress."""
    gl = gitlab.Gitlab(os.environ["GITLAB_URL"], private_token=os.environ["GITLAB_TOKEN"])
    issue = gl.projects.get(project_id).issues.get(issue_iid)
    issue.notes.create({"body": body})
    return "commented"


@tool
def gitlab_open_issue(project_id: int, title: str, description: str) -> str:
    """Open an issue: network_egress, writes_state."""
    gl = gitlab.Gitlab.from_config("work")
    issue = gl.projects.get(project_id).issues.create({"title": title, "description": description})
    return issue.web_url


@tool
def resend_mail(to: str, subject: str, html: str) -> str:
    """Send mail with Resend: irreversible, network_egress."""
    resend.api_key = os.environ["RESEND_API_KEY"]
    sent = resend.Emails.send({"from": "agent@example.com", "to": [to], "subject": subject, "html": html})
    return sent["id"]


@tool
def sendgrid_mail(to: str, subject: str, body: str) -> str:
    """Send mail with SendGrid: irreversible, network_egress."""
    message = Mail(from_email="agent@example.com", to_emails=to, subject=subject, html_content=body)
    response = SendGridAPIClient(os.environ["SENDGRID_API_KEY"]).send(message)
    return str(response.status_code)


@tool
async def cancel_order(order_id: int) -> str:
    """Delete an order row: irreversible, writes_state."""
    conn = await asyncpg.connect(os.environ["DATABASE_URL"])
    try:
        await conn.execute("DELETE FROM orders WHERE id = $1", order_id)
    finally:
        await conn.close()
    return "cancelled"


desk = create_react_agent("openai:gpt-4o", [delete_note, remove_upload, store_upload, knowledge_search, forget_vectors,
                                            similar_points, drop_points, sheet_rows, sheet_append, sheet_prune,
                                            reddit_hot, reddit_reply, reddit_inbox, gitlab_issues, gitlab_comment,
                                            gitlab_open_issue, resend_mail, sendgrid_mail, cancel_order])
