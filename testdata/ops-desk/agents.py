"""The ops desk: a support agent, an ops agent behind approvals, a research agent."""
from langchain_openai import ChatOpenAI
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.prebuilt import create_react_agent

from .actions import (delete_file, git_push, post_status, post_webhook, reply_ticket, restart_service, run_shell,
                      save_note, send_email, write_config)
from .data import billing_summary, list_orders, read_calendar, lookup_customer, read_env, read_logs, read_note, read_runbook
from .text import count_words, format_date, slugify, to_json
from .web import (fetch_page, list_tickets, read_changelog, read_feed, read_forum_post, read_slack, read_ticket,
                  search_web)

model = ChatOpenAI(model="gpt-4o-mini")

support_agent = create_react_agent(
    model,
    tools=[read_ticket, list_tickets, read_forum_post, lookup_customer, list_orders, billing_summary,
           reply_ticket, send_email, post_webhook, format_date, to_json, read_slack, read_calendar],
    prompt="Answer support tickets.",
)

ops_agent = create_react_agent(
    model,
    tools=[read_logs, read_env, read_runbook, read_changelog, run_shell, restart_service, write_config,
           delete_file, post_status, git_push, count_words],
    interrupt_before=["tools"],
    checkpointer=InMemorySaver(),
    prompt="Keep the services running. Every tool call waits for a human.",
)

research_agent = create_react_agent(
    model,
    tools=[search_web, fetch_page, read_feed, read_note, save_note, slugify, count_words],
    prompt="Research topics and keep notes.",
)
