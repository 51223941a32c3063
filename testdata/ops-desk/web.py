"""Tools that read what third parties write: the web, feeds, tickets, chat."""
import feedparser
import requests
from slack_sdk import WebClient
from langchain_core.tools import tool

TICKETS = "https://tickets.example.com/api"


@tool
def search_web(query: str) -> str:
    """Search the web and return the top results."""
    return requests.get("https://search.example.com/q", params={"q": query}, timeout=10).text


@tool
def fetch_page(url: str) -> str:
    """Fetch a web page."""
    return requests.get(url, timeout=10).text


@tool
def read_feed(feed_url: str) -> str:
    """Read the newest entries of an RSS feed."""
    feed = feedparser.parse(feed_url)
    return "\n".join(e.title + ": " + e.summary for e in feed.entries[:10])


@tool
def read_ticket(ticket_id: str) -> str:
    """Read a support ticket, written by the customer."""
    return requests.get(f"{TICKETS}/tickets/{ticket_id}", timeout=10).text


@tool
def list_tickets(status: str = "open") -> str:
    """List support tickets by status."""
    return requests.get(f"{TICKETS}/tickets", params={"status": status}, timeout=10).text


@tool
def read_forum_post(post_url: str) -> str:
    """Read a community forum post."""
    return requests.get(post_url, timeout=10).text


@tool
def read_changelog(package: str) -> str:
    """Read a package's public changelog."""
    return requests.get(f"https://pypi.example.com/{package}/changelog", timeout=10).text


@tool
def read_slack(channel: str) -> str:
    """Read the newest messages of a shared Slack channel."""
    history = WebClient().conversations_history(channel=channel, limit=20)
    return "\n".join(m["text"] for m in history["messages"])
