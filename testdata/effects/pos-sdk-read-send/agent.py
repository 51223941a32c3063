import os

import boto3
import stripe
from github import Github
from googleapiclient.discovery import build
from langchain_auth import Client as LangChainAuth
from notion_client import Client as NotionClient
from slack_sdk import WebClient
from langchain_core.tools import tool
from langgraph.prebuilt import create_react_agent

gmail = build("gmail", "v1")
slack = WebClient(token="xoxb-placeholder")
gh = Github()
notion = NotionClient(auth="placeholder")
s3 = boto3.client("s3")


@tool
def list_inbox(query: str) -> list:
    """Search the inbox: untrusted_input, reads_private."""
    res = gmail.users().messages().list(userId="me", q=query).execute()
    return [gmail.users().messages().get(userId="me", id=m["id"]).execute() for m in res.get("messages", [])]


@tool
def send_email(raw: str) -> str:
    """Send a message: network_egress, irreversible."""
    gmail.users().messages().send(userId="me", body={"raw": raw}).execute()
    return "sent"


@tool
def archive_email(message_id: str) -> str:
    """Archive a message: writes_state, network_egress."""
    gmail.users().messages().modify(userId="me", id=message_id, body={"removeLabelIds": ["INBOX"]}).execute()
    return "archived"


@tool
def post_slack(channel: str, text: str) -> str:
    """Post to Slack: network_egress, irreversible."""
    slack.chat_postMessage(channel=channel, text=text)
    return "posted"


@tool
def read_slack(channel: str) -> list:
    """Read a channel: untrusted_input, reads_private."""
    return slack.conversations_history(channel=channel)["messages"]


@tool
def open_issues(repo: str) -> list[str]:
    """List issues: untrusted_input."""
    return [i.title + "\n" + (i.body or "") for i in gh.get_repo(repo).get_issues(state="open")]


@tool
def file_issue(repo: str, title: str, body: str) -> str:
    """Open an issue: network_egress, writes_state."""
    return gh.get_repo(repo).create_issue(title=title, body=body).html_url


@tool
def refund(charge: str) -> str:
    """Refund a charge: network_egress, writes_state, irreversible."""
    return stripe.Refund.create(charge=charge).id


@tool
def customer(customer_id: str) -> str:
    """Look up a customer: reads_private."""
    return str(stripe.Customer.retrieve(customer_id))


@tool
def add_page(db: str, title: str) -> str:
    """Add a page: network_egress, writes_state."""
    notion.pages.create(parent={"database_id": db}, properties={"Name": {"title": [{"text": {"content": title}}]}})
    return "added"


@tool
def query_pages(db: str) -> list:
    """Query a database: untrusted_input, reads_private."""
    return notion.databases.query(database_id=db)["results"]


@tool
def get_report(key: str) -> str:
    """Read a report: reads_private."""
    return s3.get_object(Bucket="reports", Key=key)["Body"].read().decode()


@tool
def put_report(key: str, text: str) -> str:
    """Store a report: network_egress, writes_state."""
    s3.put_object(Bucket="reports", Key=key, Body=text.encode())
    return "stored"


@tool
async def google_token(user_email: str) -> str:
    """Get the user's Google access token: reads_private."""
    client = LangChainAuth(api_key=os.environ["LANGSMITH_API_KEY"])
    result = await client.authenticate(provider="google", scopes=["gmail.modify"], user_id=user_email)
    await client.close()
    return result.token


desk = create_react_agent("openai:gpt-4o", [list_inbox, send_email, archive_email, post_slack, read_slack, open_issues,
                                            file_issue, refund, customer, add_page, query_pages, get_report, put_report,
                                            google_token])
